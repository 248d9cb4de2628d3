"""Multi-agent read policies: the roster from agent.yaml, first-seen agents registered as shared,
and isolated / shared / group applied in recall, list and get."""

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.store import agents as agents_store
from tests.conftest import ROSTER, bearer


def seen_by(client, agent):
    listed = client.get("/api/memories", params={"agentId": agent, "limit": 50}).json()["memories"]
    recalled = client.post("/api/memory/recall", json={"query": "deploy notes wiki", "agentId": agent, "limit": 50,
                                                       "min_score": 0}).json()["results"]
    return {m["id"] for m in listed}, {m["id"] for m in recalled}


@pytest.mark.parametrize("agent, expected", [
    ("alice", {"alice"}),  # isolated: its own only
    ("bob", {"alice", "bob", "carol", "dave", "eve", "bob-private"}),  # shared: every global one + its own
    ("carol", {"carol", "dave"}),  # group: its group's global ones + its own
    ("eve", {"alice", "bob", "carol", "dave", "eve"}),  # first seen: shared
    ("zed", {"alice", "bob", "carol", "dave", "eve"}),  # never seen: reads as shared
])
def test_read_policies_apply_to_list_and_recall(agents_client, agent, expected):
    client, _, ids = agents_client
    listed, recalled = seen_by(client, agent)
    want = {ids[name] for name in expected}
    assert listed == want and recalled == want


def test_get_by_id_follows_the_policy(agents_client):
    client, _, ids = agents_client
    assert client.get(f"/api/memory/{ids['bob']}", params={"agentId": "alice"}).status_code == 404
    assert client.get(f"/api/memory/{ids['dave']}", params={"agentId": "carol"}).status_code == 200
    assert client.get(f"/api/memory/{ids['bob']}", params={"agentId": "carol"}).status_code == 404
    assert client.get(f"/api/memory/{ids['bob-private']}", params={"agentId": "eve"}).status_code == 404


def test_roster_and_first_seen_agents_are_in_the_table(agents_client, make_service):
    _, svc, _ = agents_client
    table = {r["id"]: (r["read_policy"], r["policy_group"], r["source"])
             for r in agents_store.all_agents(svc.db.reader())}
    assert table["alice"] == ("isolated", None, "roster") and table["carol"] == ("group", "team", "roster")
    assert table["eve"] == ("shared", None, "seen")
    # A later roster change is applied when the service opens the store again.
    (svc.settings.workspace / "agent.yaml").write_text(ROSTER.replace("readPolicy: isolated", "readPolicy: shared"))
    reopened = make_service()
    assert agents_store.all_agents(reopened.db.reader())[0]["read_policy"] == "shared"


def test_a_group_policy_needs_a_group(workspace):
    from signet_pipeline.config import load_settings
    from signet_pipeline.errors import ConfigError

    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "agent.yaml").write_text("agents:\n  roster:\n    - name: x\n      readPolicy: group\n")
    with pytest.raises(ConfigError, match="needs a group"):
        load_settings(workspace)


def test_an_agents_memory_count_holds_only_what_the_caller_may_read(make_service):
    """Issue 43: GET /api/agents/a1 as a2 or a readonly token counted a1's private memories too."""
    svc = make_service(auth={"mode": "team"})

    def token(role: str, sub: str) -> dict[str, str]:
        return bearer(svc, role, sub)

    with TestClient(create_app(service=svc)) as client:
        for content, visibility in (("a1 rotates the deploy key", "global"), ("a1's salary is private", "private"),
                                    ("a1's health note", "private")):
            client.post("/api/memory/remember", json={"content": content, "visibility": visibility},
                        headers=token("agent", "a1"))
        counts = {who: client.get("/api/agents/a1", headers=headers).json()["memory_count"]
                  for who, headers in (("a1", token("agent", "a1")), ("a2", token("agent", "a2")),
                                       ("readonly", token("readonly", "viewer")),
                                       ("operator", token("operator", "op")))}
    assert counts == {"a1": 3, "a2": 1, "readonly": 1, "operator": 3}
