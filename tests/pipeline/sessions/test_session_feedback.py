"""Session hooks and aspect feedback: session-start injects and records, searches of the session
confirm injected memories, session-end moves aspect weights once."""

from datetime import UTC, datetime, timedelta

import pytest

from signet_pipeline.config_sections import FeedbackConfig
from signet_pipeline.sessions.aspect_feedback import apply_session_feedback
from signet_pipeline.timeutil import now_iso, to_iso
from tests.conftest import recall, remember


def q(svc, sql, *params):
    return svc.db.reader().execute(sql, params).fetchall()


def aspect_weight(svc, entity: str, aspect: str) -> float:
    return q(svc, "SELECT a.weight FROM entity_aspects a JOIN entities e ON e.id = a.entity_id "
                  "WHERE e.canonical_name = ? AND a.name = ?", entity, aspect)[0][0]


def start(client, **body):
    response = client.post("/api/hooks/session-start", json={"harness": "claude-code", **body})
    assert response.status_code == 200, response.text
    return response.json()


def end(client, **body):
    response = client.post("/api/hooks/session-end", json={"harness": "claude-code", **body})
    assert response.status_code == 200, response.text
    return response.json()


@pytest.fixture
def planted(client):
    pref = remember(client, "Nicholai prefers dark mode in every editor")["id"]
    stack = remember(client, "Signet runs on SQLite with the WAL journal")["id"]
    pinned = remember(client, "Always answer in British English", pinned=True)["id"]
    return {"pref": pref, "stack": stack, "pinned": pinned}


def test_session_start_injects_pinned_first_and_records_ranks(client, svc, planted):
    body = start(client, sessionKey="s1", context="Nicholai editor theme")
    listed = body["inject"].split("## Relevant Memories", 1)[1].splitlines()
    assert listed[1].startswith("- Always answer in British English (pinned, ")
    ids = [m["id"] for m in body["memories"]]
    assert ids[0] == planted["pinned"] and planted["pref"] in ids
    assert [m["source"] for m in body["memories"]][0] == "pinned"
    ranks = dict(q(svc, "SELECT memory_id, rank FROM session_memories WHERE session_key = 's1' AND was_injected = 1"))
    assert ranks[planted["pinned"]] == 1 and set(ranks) == set(ids)


def test_injection_stays_within_the_character_budget(make_service):
    from fastapi.testclient import TestClient

    from signet_api.app import create_app

    svc = make_service(hooks={"sessionStartBudgetChars": 300})
    with TestClient(create_app(service=svc)) as client:
        for i in range(8):
            remember(client, f"Deployment note {i}: the Signet release train leaves every Tuesday " + "x" * 80)
        body = start(client, sessionKey="budget", context="Signet release train")
    assert 0 < len(body["inject"]) <= 300
    assert body["inject"].count("\n- ") == len(body["memories"])


def test_missing_harness_is_a_400_and_no_hooks_header_is_a_no_op(client, planted):
    response = client.post("/api/hooks/session-start", json={"sessionKey": "s"})
    assert response.status_code == 400
    assert response.json()["code"] == "missing_harness"
    assert client.post("/api/hooks/session-end", json={"sessionKey": "s"}).status_code == 400
    quiet = client.post("/api/hooks/session-start", json={"harness": "x", "sessionKey": "s"},
                        headers={"x-signet-no-hooks": "1"})
    assert quiet.json() == {"inject": "", "memories": []}


def test_confirmed_aspects_gain_weight_once_per_session(client, svc, planted):
    before = aspect_weight(svc, "nicholai", "preferences")
    start(client, sessionKey="s2", context="Nicholai preferences")
    # A later keyword search of the session hits the injected preference; the session key also
    # arrives as a header from some clients.
    # The session was given it at start, so the answer leaves it out (the ledger), and the
    # full-text match still counts as a confirmation.
    hits = recall(client, "dark mode editor", sessionKey="s2")
    assert planted["pref"] not in {h["id"] for h in hits["results"]} and hits["meta"]["dedupe"]["suppressed"] == 1
    # A repeat comes back only when asked for, marked as such.
    via_header = client.post("/api/memory/recall", json={"query": "dark mode", "includeRecalled": True},
                             headers={"x-signet-session-key": "s2"})
    assert via_header.json()["results"][0]["id"] == planted["pref"]
    assert via_header.json()["results"][0]["already_recalled"] is True
    assert q(svc, "SELECT fts_hit_count FROM session_memories WHERE session_key = 's2' AND memory_id = ?",
             planted["pref"]) == [(2,)]

    body = end(client, sessionKey="s2", reason="exit")
    assert body["feedback"]["ftsConfirmations"] == 1 and body["feedback"]["aspectsUpdated"] >= 1
    after = aspect_weight(svc, "nicholai", "preferences")
    assert after == pytest.approx(before + 0.05)
    assert aspect_weight(svc, "signet", "stack") == pytest.approx(0.5)  # never confirmed: unchanged

    repeated = end(client, sessionKey="s2")
    assert "feedback" not in repeated and aspect_weight(svc, "nicholai", "preferences") == pytest.approx(after)
    status = client.get("/api/status").json()["pipeline"]["feedback"]
    assert status["feedbackSessions"] == 1 and status["feedbackFtsConfirmations"] == 1


def test_search_without_injection_confirms_nothing(client, svc, planted):
    remember(client, "The nightly backup copies the vault to Backblaze", project="/repo/other")
    start(client, sessionKey="s3", project="/repo/mine", context="unrelated words entirely")
    recall(client, "Backblaze vault backup", sessionKey="s3")
    assert end(client, sessionKey="s3")["feedback"]["ftsConfirmations"] == 0


def test_weights_clamp_and_stale_aspects_decay_every_n_sessions(client, svc, planted):
    cfg = FeedbackConfig(delta=0.4, maxWeight=0.8, decayIntervalSessions=2, staleDays=7, decayRate=0.1)
    with svc.db.write() as conn:
        conn.execute("INSERT INTO session_memories(session_key, memory_id, agent_id, was_injected, rank, "
                     "fts_hit_count, created_at, updated_at) VALUES ('k', ?, 'default', 1, 1, 3, ?, ?)",
                     (planted["pref"], now_iso(), now_iso()))
    first = apply_session_feedback(svc.db, session_key="k", agent_id="default", cfg=cfg, now=now_iso())
    assert (first.aspects_updated, first.decay_ran) == (1, False)
    assert aspect_weight(svc, "nicholai", "preferences") == pytest.approx(0.8)  # 0.5 + 0.4 clamped to 0.8

    later = to_iso(datetime.now(UTC) + timedelta(days=8))
    second = apply_session_feedback(svc.db, session_key="none", agent_id="default", cfg=cfg, now=later)
    assert second.decay_ran and second.decayed_aspects >= 2
    assert aspect_weight(svc, "nicholai", "preferences") == pytest.approx(0.7)
    assert aspect_weight(svc, "signet", "stack") == pytest.approx(0.4)
    other_agent = apply_session_feedback(svc.db, session_key="none", agent_id="other", cfg=cfg, now=later)
    assert other_agent.decayed_aspects == 0  # decay is per agent and throttled per agent


def test_explicit_ratings_move_the_aspects_of_the_rated_memory(client, svc):
    def aspect_weight():
        return svc.db.reader().execute("SELECT weight FROM entity_aspects").fetchall()[0][0]

    saved = client.post("/api/memory/remember", json={"content": "Signet runs its daemon on the Hetzner box",
                                                      "structured": {"aspects": [{
                                                          "entityName": "Signet", "aspect": "infrastructure",
                                                          "attributes": [{"content": "daemon on Hetzner"}]}]}}).json()
    start = aspect_weight()
    up = client.post("/api/memory/feedback", json={"memory_id": saved["id"], "feedback_type": "positive",
                                                   "sessionKey": "s1"}).json()
    assert up["aspectsUpdated"] == 1 and aspect_weight() > start
    repeat = client.post("/api/memory/feedback", json={"memory_id": saved["id"], "feedback_type": "positive",
                                                       "sessionKey": "s1"}).json()
    assert repeat["recorded"] == 1 and repeat["aspectsUpdated"] == 0  # recorded, applied once per session
    for session in ("s2", "s3"):
        client.post("/api/memory/feedback", json={"sessionKey": session, "feedback": {saved["id"]: -1}})
    assert aspect_weight() < start
    # Another agent rating this shared memory does not reshape this agent's graph.
    before = aspect_weight()
    other = client.post("/api/memory/feedback", json={"agentId": "bob", "sessionKey": "b1",
                                                      "feedback": {saved["id"]: -1}}).json()
    assert other["recorded"] == 1 and other["aspectsUpdated"] == 0 and aspect_weight() == before
