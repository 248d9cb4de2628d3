"""Sessions through the API: listing, one session, bypass (each the caller's agent's own), and
session search over transcripts and session summaries, bounded as every full-text path."""

from __future__ import annotations

import itertools

from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret
from signet_pipeline.sessions import registry
from signet_pipeline.store import db as db_module
from signet_pipeline.store import migrate as migrations
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.db import Database

HARNESS = "test-harness"


def as_agent(agent: str) -> dict[str, str]:
    return {"x-signet-agent-id": agent}


def start(client, key: str, agent: str = "default", **fields) -> None:
    body = {"harness": HARNESS, "sessionKey": key, **fields}
    client.post("/api/hooks/session-start", json=body, headers=as_agent(agent)).raise_for_status()


def end(client, key: str, transcript: str, agent: str = "default", **fields) -> None:
    body = {"harness": HARNESS, "sessionKey": key, "transcript": transcript, **fields}
    client.post("/api/hooks/session-end", json=body, headers=as_agent(agent)).raise_for_status()


def keys(answer) -> list[str]:
    return [s["key"] for s in answer.json()["sessions"]]


def test_a_caller_lists_and_reads_only_its_agents_sessions(client):
    start(client, "a-1", "ana", project="/repo/a")
    start(client, "a-2", "ana")
    start(client, "b-1", "ben")
    end(client, "a-1", "user: hi\nassistant: hello", "ana")
    assert keys(client.get("/api/sessions", headers=as_agent("ana"))) == ["a-2"]  # a-1 ended
    listed = client.get("/api/sessions", params={"include_ended": "true"}, headers=as_agent("ana")).json()
    assert {s["key"] for s in listed["sessions"]} == {"a-1", "a-2"} and listed["count"] == 2
    one = client.get("/api/sessions/a-1", headers=as_agent("ana")).json()
    assert (one["project"], one["harness"], one["bypassed"], one["runtimePath"]) == ("/repo/a", HARNESS, False,
                                                                                       "unknown")
    assert one["endedAt"] and one["claimedAt"]
    hidden = client.get("/api/sessions/b-1", headers=as_agent("ana"))
    assert hidden.status_code == 404 and hidden.json()["error"]["code"] == "not_found"
    assert keys(client.get("/api/sessions", params={"agent_id": "ben"})) == ["b-1"]


def test_a_bypass_is_kept_in_the_store_and_lifted(client, svc):
    start(client, "s-1", "ana")
    start(client, "s-2", "ben")
    turned = client.post("/api/sessions/s-1/bypass", json={"enabled": True}, headers=as_agent("ana"))
    assert turned.json() == {"key": "s-1", "bypassed": True}
    session = client.get("/api/sessions/s-1", headers=as_agent("ana")).json()
    assert session["bypassed"] and session["bypassedAt"]
    assert registry.bypassed(svc, "s-1", "ana") and not registry.bypassed(svc, "s-1", "ben")
    assert not registry.bypassed(svc, None, "ana")
    assert client.post("/api/sessions/s-1/bypass", json={"enabled": False}, headers=as_agent("ana")).json() == {
        "key": "s-1", "bypassed": False}
    assert not registry.bypassed(svc, "s-1", "ana")
    for key, agent in (("s-2", "ana"), ("nope", "ana")):  # another agent's session, or none at all
        refused = client.post(f"/api/sessions/{key}/bypass", json={"enabled": True}, headers=as_agent(agent))
        assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
    assert not registry.bypassed(svc, "s-2", "ben")
    for body in ({}, {"enabled": "yes"}, {"enabled": 1}):
        bad = client.post("/api/sessions/s-1/bypass", json=body, headers=as_agent("ana"))
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request"


def test_a_bypassed_session_gets_nothing_from_its_hooks(client):
    client.post("/api/memory/remember", json={"content": "Ana deploys the Lisbon cluster on Mondays", "pinned": True})
    start(client, "s-1")
    client.post("/api/sessions/s-1/bypass", json={"enabled": True}).raise_for_status()
    started = client.post("/api/hooks/session-start", json={"harness": HARNESS, "sessionKey": "s-1"}).json()
    prompt = client.post("/api/hooks/user-prompt-submit", json={"harness": HARNESS, "sessionKey": "s-1",
                                                                "userMessage": "who deploys the Lisbon cluster"}).json()
    assert started["inject"] == "" and prompt["inject"] == ""


def test_agent_tokens_reach_only_their_own_sessions(make_service):
    svc = make_service(auth={"mode": "team"})
    secret = load_or_create_secret(svc.settings.auth_secret_path)

    def token(sub: str, role: str = "agent") -> dict[str, str]:
        return {"authorization": f"Bearer {issue(secret, sub=sub, role=role, scope=TokenScope(), ttl_s=600)[0]}"}

    with TestClient(create_app(service=svc)) as client:
        for key, sub in (("a-1", "ana"), ("b-1", "ben")):
            client.post("/api/hooks/session-start", json={"harness": HARNESS, "sessionKey": key},
                        headers=token(sub)).raise_for_status()
        # the token decides: asking for another agent's sessions lists the caller's own
        assert keys(client.get("/api/sessions", params={"agent_id": "ben"}, headers=token("ana"))) == ["a-1"]
        assert client.post("/api/sessions/b-1/bypass", json={"enabled": True}, headers=token("ana")).status_code == 404
        readonly = client.post("/api/sessions/a-1/bypass", json={"enabled": True}, headers=token("ana", "readonly"))
        assert readonly.status_code == 403


def search(client, query: str, agent: str = "default", **fields) -> list[dict]:
    answer = client.post("/api/sessions/search", json={"query": query, **fields}, headers=as_agent(agent))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["count"] == len(body["hits"])
    return body["hits"]


def test_search_finds_sessions_by_transcript_and_summary_for_their_agent_only(client):
    start(client, "t-1", project="/repo/a")
    end(client, "t-1", "user: the flamingo migration broke staging\nassistant: I rolled the flamingo release back",
        project="/repo/a")
    start(client, "t-2", project="/repo/b")
    compaction = {"harness": HARNESS, "sessionKey": "t-2", "project": "/repo/b",
                  "summary": "We agreed the flamingo dashboard moves to Grafana."}
    client.post("/api/hooks/compaction-complete", json=compaction).raise_for_status()
    start(client, "other", "ben")
    end(client, "other", "user: flamingo flamingo flamingo", "ben")

    hits = search(client, "flamingo")
    assert {(h["sessionKey"], h["source"]) for h in hits} == {("t-1", "transcript"), ("t-2", "summary")}
    by_key = {h["sessionKey"]: h for h in hits}
    assert "flamingo" in by_key["t-1"]["excerpt"] and by_key["t-1"]["project"] == "/repo/a"
    assert by_key["t-2"]["updatedAt"] and "Grafana" in by_key["t-2"]["excerpt"]
    assert [h["sessionKey"] for h in search(client, "flamingo", project="/repo/b")] == ["t-2"]
    assert [h["sessionKey"] for h in search(client, "flamingo", "ben")] == ["other"]
    assert len(search(client, "flamingo", limit=1)) == 1
    exact = search(client, "t-1")  # a session key finds its session first
    assert (exact[0]["sessionKey"], exact[0]["source"]) == ("t-1", "key") and "flamingo" in exact[0]["excerpt"]
    # the caller's words are words: no FTS5 syntax reaches the index
    for query in ('flamingo" OR *', "NEAR(flamingo staging)", "-flamingo", "", "the of and"):
        search(client, query)


def test_the_index_follows_the_transcript(make_service):
    svc = make_service(memory={"pipelineV2": {"enabled": False}})  # no summary job holds the transcript back
    with TestClient(create_app(service=svc)) as client:
        start(client, "s-1")
        end(client, "s-1", "user: the pelican cache is cold")
        assert [h["sessionKey"] for h in search(client, "pelican")] == ["s-1"]
        end(client, "s-1", "user: the heron cache is warm now")  # session-end sends the whole transcript again
        assert search(client, "pelican") == [] and [h["sessionKey"] for h in search(client, "heron")] == ["s-1"]
        with svc.db.write() as conn:  # retention (transcriptRetentionDays)
            assert sessions_store.purge_transcripts_before(conn, "9999-01-01T00:00:00.000Z", 10) == 1
        assert search(client, "heron") == []


def test_a_search_past_the_time_limit_is_408(make_service, monkeypatch):
    svc = make_service(limits={"query_time_ms": 100})
    with svc.db.write() as conn:  # enough rows for the statement to meet SQLite's progress handler
        for i in range(3000):
            sessions_store.save_transcript(conn, session_key=f"s-{i}", content=f"user: the osprey nests by river {i}",
                                           harness=HARNESS, project=None, agent_id="default",
                                           now="2025-01-01T00:00:00.000Z")
    ticks = itertools.count()  # each reading of the deadline clock a second later: past the 100 ms
    monkeypatch.setattr(db_module, "_clock", lambda: float(next(ticks)))
    with TestClient(create_app(service=svc)) as client:
        answer = client.post("/api/sessions/search", json={"query": "osprey river"})
    assert answer.status_code == 408 and answer.json()["error"]["code"] == "query_timeout"


def test_transcripts_kept_before_the_index_existed_are_searchable(tmp_path):
    db = Database(tmp_path / "memories.db")
    found = migrations.discover()
    migrations.migrate(db, [m for m in found if m.version < 27])
    with db.write() as conn:
        sessions_store.save_transcript(conn, session_key="old", content="user: the albatross ledger balances",
                                       harness=HARNESS, project=None, agent_id="default",
                                       now="2025-01-01T00:00:00.000Z")
    migrations.migrate(db, found)
    hits = sessions_store.search_transcripts(db.reader(), '"albatross"', "default", None, 5)
    assert [h["session_key"] for h in hits] == ["old"] and "albatross" in hits[0]["excerpt"]
    db.close()
