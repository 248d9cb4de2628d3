"""Memory-search telemetry (GET /api/telemetry/memory-search[/export]): kept only while telemetry is
on, never a memory's words in its table (read from the memory when the log is read, as the
searching agent may read it then), not for callers that may leave no trace, bounded, scoped to
the agent a token binds."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret
from signet_pipeline.recall import search_log
from signet_pipeline.stages.retention import sweep
from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store.db import rows
from tests.conftest import remember

ON = {"memory": {"pipelineV2": {"telemetryEnabled": True}}}
SECRET_WORDS = "Ana keeps the Lisbon deploy key in the blue vault"


def logged(client, **params) -> dict:
    client.app.state.service.telemetry.flush()
    answer = client.get("/api/telemetry/memory-search", params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_nothing_is_logged_while_telemetry_is_off(client, svc):
    remember(client, SECRET_WORDS)
    client.post("/api/memory/recall", json={"query": "Lisbon deploy key"}).raise_for_status()
    assert logged(client) == {"items": [], "count": 0, "enabled": False}
    assert rows(svc.db.reader(), "SELECT * FROM memory_search_telemetry") == []


def test_a_search_is_logged_with_its_results_read_from_the_memory(make_service):
    svc = make_service(**ON)
    with TestClient(create_app(service=svc)) as client:
        saved = remember(client, SECRET_WORDS, tags="ops", who="ana", project="/infra")
        client.post("/api/memory/recall", json={"query": "where is the Lisbon deploy key", "limit": 3,
                                                "sessionKey": "s-9", "tags": "ops"}).raise_for_status()
        client.get("/api/memory/search", params={"q": "zebra crossing"}).raise_for_status()
        body = logged(client)
        assert body["enabled"] and body["count"] == 2
        miss, hit = body["items"]  # newest first
        assert (miss["route"], miss["no_hits"], miss["results"], miss["top_score"]) == (
            "GET /api/memory/search", True, [], None)
        assert (hit["route"], hit["query"], hit["session_key"], hit["agent_id"]) == (
            "POST /api/memory/recall", "where is the Lisbon deploy key", "s-9", "default")
        assert hit["filters"]["limit"] == 3 and hit["filters"]["tags"] == ["ops"] and hit["result_count"] == 1
        assert hit["duration_ms"] == hit["timings"]["totalMs"] > 0 and hit["timings"]["stages"]
        result = hit["results"][0]
        assert (result["rank"], result["id"], result["content"], result["tags"], result["who"], result["project"]) == (
            1, saved["id"], SECRET_WORDS, "ops", "ana", "/infra")
        assert result["content_length"] == len(SECRET_WORDS) and not result["truncated"]
        assert result["score"] == hit["top_score"]
        # The table holds the query, never what a user wrote into the memory.
        stored = rows(svc.db.reader(), "SELECT * FROM memory_search_telemetry")
        assert json.loads(stored[0]["filters"])["tags"] == ["ops"]  # the caller's filter is kept
        text = json.dumps(stored)
        assert "blue vault" not in text and "/infra" not in text
        assert set(json.loads(stored[0]["results"])[0]) == {"rank", "id", "score", "source", "type", "importance",
                                                            "pinned", "created_at", "content_length", "supplementary"}

        client.delete(f"/api/memory/{saved['id']}", params={"reason": "rotated"}).raise_for_status()
        gone = logged(client)["items"][1]["results"][0]
        assert (gone["content"], gone["truncated"], gone["content_length"], gone["tags"]) == ("", True,
                                                                                            len(SECRET_WORDS), None)
        assert [i["route"] for i in logged(client, no_hits="true")["items"]] == ["GET /api/memory/search"]
        assert logged(client, session_key="s-9")["count"] == 1 and logged(client, route="nope")["count"] == 0
        assert logged(client, limit=1, offset=1)["items"][0]["route"] == "POST /api/memory/recall"
        export = client.get("/api/telemetry/memory-search/export")
        assert export.headers["content-type"].startswith("application/x-ndjson")
        assert [json.loads(line)["route"] for line in export.text.splitlines()] == [
            "GET /api/memory/search", "POST /api/memory/recall"]


def test_a_readonly_token_leaves_no_search_behind_and_a_scoped_token_reads_its_agent_only(make_service):
    svc = make_service(auth={"mode": "team"}, **ON)
    secret = load_or_create_secret(svc.settings.auth_secret_path)

    def token(sub: str, role: str, **scope) -> dict[str, str]:
        return {"authorization": f"Bearer {issue(secret, sub=sub, role=role, scope=TokenScope(**scope), ttl_s=600)[0]}"}

    with TestClient(create_app(service=svc)) as client:
        for agent in ("ana", "ben"):
            client.post("/api/memory/recall", json={"query": f"what does {agent} deploy"},
                        headers=token(agent, "agent")).raise_for_status()
        client.post("/api/memory/recall", json={"query": "audit trail"}, headers=token("aud", "readonly"))
        svc.telemetry.flush()
        operator = client.get("/api/telemetry/memory-search", headers=token("op", "operator")).json()
        assert sorted(i["agent_id"] for i in operator["items"]) == ["ana", "ben"]  # the readonly search: none
        scoped = client.get("/api/telemetry/memory-search", params={"agent_id": "ben"},
                            headers=token("op", "operator", agent="ana")).json()
        assert [i["agent_id"] for i in scoped["items"]] == ["ana"]
        assert client.get("/api/telemetry/memory-search", headers=token("ana", "agent")).status_code == 403


def test_the_export_pages_through_the_log(make_service, monkeypatch):
    monkeypatch.setattr(search_log, "EXPORT_PAGE", 2)
    svc = make_service(**ON)
    with TestClient(create_app(service=svc)) as client:
        for i in range(5):
            client.get("/api/memory/search", params={"q": f"query number {i}"}).raise_for_status()
        svc.telemetry.flush()
        export = client.get("/api/telemetry/memory-search/export").text
        every = [json.loads(line)["query"] for line in export.splitlines()]
        some = client.get("/api/telemetry/memory-search/export", params={"limit": 3}).text.splitlines()
    assert every == [f"query number {i}" for i in reversed(range(5))]
    assert [json.loads(line)["query"] for line in some] == every[:3]


def test_the_log_is_bounded_and_retention_drops_old_searches(svc):
    row = ("2020-01-01T00:00:00.000Z", "POST /api/memory/recall", "default", None, None, "q", None, "{}", "hybrid",
           0, None, True, 1.0, "{}", "[]")
    with svc.db.write() as conn:
        analytics_store.append_searches(conn, [row] * 5, keep=3)
        assert rows(conn, "SELECT count(*) AS n FROM memory_search_telemetry")[0]["n"] == 3
    report = sweep(svc.db, svc.settings.pipeline.retention, now="2020-03-01T00:00:00.000Z")
    assert report.counts()["telemetry"] == 3
    assert rows(svc.db.reader(), "SELECT * FROM memory_search_telemetry") == []
