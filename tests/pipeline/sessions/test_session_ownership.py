"""A session belongs to the agent that opened it (team mode, two agent tokens): another agent's
transcript, end or recall under its key never changes the owner's session."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.store import sessions as sessions_store
from tests.conftest import bearer


@pytest.fixture
def team(make_service):
    svc = make_service(auth={"mode": "team"})
    with TestClient(create_app(service=svc)) as client:
        yield client, svc, bearer(svc, "agent", "a1"), bearer(svc, "agent", "a2")


def hook(client, name: str, headers: dict, **body):
    return client.post(f"/api/hooks/{name}", json={"harness": "claude-code", **body}, headers=headers)


def test_another_agent_cannot_take_over_a_session(team):
    client, svc, a1, a2 = team
    assert hook(client, "session-start", a1, sessionKey="K").status_code == 200
    taken = hook(client, "session-checkpoint-extract", a2, sessionKey="K",
                 transcript="user: the pomegranate tree needs water on Sundays")
    assert taken.status_code == 409 and taken.json()["code"] == "session_taken", taken.text
    ended = hook(client, "session-end", a2, sessionKey="K", transcript="user: a2 writes pomegranate here")
    assert ended.status_code == 409
    own = hook(client, "session-end", a1, sessionKey="K", transcript="user: my own conversation about the garage")
    assert own.status_code == 200 and own.json()["transcriptSaved"] is True
    kept = sessions_store.transcripts(svc.db.reader(), ["K"], "a1")
    assert kept == {"K": "user: my own conversation about the garage"}
    assert sessions_store.agent_of(svc.db.reader(), "K") == "a1"
    mine = client.post("/api/sessions/search", json={"query": "garage"}, headers=a1).json()
    theirs = client.post("/api/sessions/search", json={"query": "pomegranate"}, headers=a2).json()
    assert "K" in str(mine) and "K" not in str(theirs)


def test_a_transcript_first_makes_the_key_its_agents(team):
    """A checkpoint before any session-start claims the key: a later session-start of another agent
    does not register the session as its own."""
    client, svc, a1, a2 = team
    first = hook(client, "session-checkpoint-extract", a1, sessionKey="K2",
                 transcript="user: the deploy runs on Fridays\n\nassistant: noted")
    assert first.status_code == 200
    assert hook(client, "session-start", a2, sessionKey="K2").status_code == 200  # answered, nothing kept
    assert sessions_store.agent_of(svc.db.reader(), "K2") == "a1"
    assert hook(client, "session-end", a2, sessionKey="K2").status_code == 409
    assert hook(client, "session-end", a1, sessionKey="K2").status_code == 200


def test_only_the_owners_recalls_confirm_its_session_memories(team):
    client, svc, a1, a2 = team
    saved = client.post("/api/memory/remember", json={"content": "The staging cluster runs Kubernetes 1.29"},
                        headers=a1).json()
    client.post("/api/memory/remember", json={"content": "Staging Kubernetes upgrades happen on Mondays"},
                headers=a2)
    assert hook(client, "session-start", a1, sessionKey="K3", context="staging kubernetes").status_code == 200
    hits = "SELECT fts_hit_count FROM session_memories WHERE session_key = 'K3' AND memory_id = ?"
    assert svc.db.reader().execute(hits, (saved["id"],)).fetchone() == (0,)
    client.post("/api/memory/recall", json={"query": "staging kubernetes", "sessionKey": "K3"}, headers=a2)
    assert svc.db.reader().execute(hits, (saved["id"],)).fetchone() == (0,)  # a2's recall confirms nothing of a1's
    client.post("/api/memory/recall", json={"query": "staging kubernetes", "sessionKey": "K3"}, headers=a1)
    assert svc.db.reader().execute(hits, (saved["id"],)).fetchone() == (1,)
