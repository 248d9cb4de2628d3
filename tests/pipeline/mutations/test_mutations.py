"""PATCH / DELETE / recover through HTTP: every status of the spec's tables, versions, history
rows, optimistic concurrency races, agent visibility and the mutationsFrozen brake."""

import threading

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from tests.conftest import recall, remember


def patch(client, memory_id, **body):
    return client.patch(f"/api/memory/{memory_id}", json={"reason": "test", **body})


def history(client, memory_id):
    return client.get(f"/api/memory/{memory_id}/history").json()["history"]


def test_patch_updates_fields_bumps_the_version_and_records_history(client):
    memory = remember(client, "The staging database runs PostgreSQL 15", tags="db")
    response = patch(client, memory["id"], content="The staging database runs PostgreSQL 16", importance=0.6,
                     tags=["db", "staging"], if_version=1, changed_by="ops-bot")
    assert response.status_code == 200
    assert response.json() == {"success": True, "id": memory["id"], "status": "updated", "currentVersion": 1,
                               "newVersion": 2, "contentChanged": True, "embedded": True}
    stored = client.get(f"/api/memory/{memory['id']}").json()
    assert (stored["content"], stored["importance"], stored["tags"], stored["version"]) == (
        "The staging database runs PostgreSQL 16", 0.6, "db,staging", 2)
    event = history(client, memory["id"])[-1]
    assert (event["event"], event["changedBy"], event["reason"]) == ("updated", "ops-bot", "test")
    assert event["oldContent"].endswith("15") and event["newContent"].endswith("16")
    # Recall finds the new text, and only it.
    hits = recall(client, "PostgreSQL 16 staging")["results"]
    assert hits[0]["id"] == memory["id"] and hits[0]["content"].endswith("16")


def test_a_patch_without_a_difference_changes_nothing(client):
    memory = remember(client, "Deploys happen on Tuesdays", importance=0.5)
    response = patch(client, memory["id"], importance=0.5)
    assert response.status_code == 200 and response.json()["status"] == "no_changes"
    assert response.json()["newVersion"] == 1 and client.get(f"/api/memory/{memory['id']}").json()["version"] == 1


@pytest.mark.parametrize("body, status", [
    ({"importance": 0.3}, 422),  # no reason
    ({"reason": "x"}, 422),  # nothing to change
    ({"reason": "x", "importance": 3}, 422),
    ({"reason": "x", "content": "   "}, 422),  # blank: refused by the request model, as the schema says
])
def test_bad_patches_are_client_errors(client, body, status):
    memory = remember(client, "Backups run nightly at 2am")
    response = client.patch(f"/api/memory/{memory['id']}", json=body)
    assert response.status_code == status and response.json()["error"]["code"] in ("invalid_request", "empty_content")


def test_patch_refusals_carry_the_spec_status(client):
    first = remember(client, "Alice leads the search team")
    second = remember(client, "Bob leads the billing team")
    cases = [
        (patch(client, "no-such-id", importance=0.1), 404, "not_found"),
        (patch(client, first["id"], importance=0.1, if_version=7), 409, "version_conflict"),
        (patch(client, second["id"], content="alice leads the search team."), 409, "duplicate_content_hash"),
    ]
    client.delete(f"/api/memory/{second['id']}", params={"reason": "gone"})
    cases.append((patch(client, second["id"], importance=0.1), 409, "deleted"))
    for response, code, status in cases:
        assert response.status_code == code and response.json()["error"]["code"] == status


def test_two_patches_with_the_same_version_exactly_one_wins(svc):
    with TestClient(create_app(service=svc)) as client:
        memory = remember(client, "The API rate limit is 600 requests per minute")
        codes: list[int] = []
        barrier = threading.Barrier(8)

        def attempt(i):
            barrier.wait()
            codes.append(patch(client, memory["id"], importance=round(0.1 + i / 100, 2), if_version=1).status_code)

        threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(codes) == [200] + [409] * 7
        assert client.get(f"/api/memory/{memory['id']}").json()["version"] == 2
        assert [e["event"] for e in history(client, memory["id"])].count("updated") == 1


def test_delete_and_recover_round_trip(client):
    memory = remember(client, "Feature flags live in a Redis cluster")
    deleted = client.request("DELETE", f"/api/memory/{memory['id']}", json={"reason": "moved", "if_version": 1})
    assert deleted.status_code == 200 and deleted.json() == {"success": True, "id": memory["id"], "status": "deleted",
                                                             "currentVersion": 1, "newVersion": 2}
    assert client.get(f"/api/memory/{memory['id']}").status_code == 404
    assert recall(client, "Redis feature flags")["results"] == []
    again = client.delete(f"/api/memory/{memory['id']}", params={"reason": "again"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_deleted"
    recovered = client.post(f"/api/memory/{memory['id']}/recover", json={"reason": "oops", "if_version": 2})
    assert recovered.status_code == 200 and recovered.json() == {
        "id": memory["id"], "status": "recovered", "currentVersion": 2, "newVersion": 3, "retentionDays": 30}
    assert recall(client, "Redis feature flags")["results"][0]["id"] == memory["id"]
    assert [e["event"] for e in history(client, memory["id"])] == ["created", "deleted", "recovered"]
    not_deleted = client.post(f"/api/memory/{memory['id']}/recover", json={"reason": "twice"})
    assert not_deleted.status_code == 409 and not_deleted.json()["error"]["code"] == "not_deleted"


def test_delete_refusals(client, svc):
    pinned = remember(client, "critical: Never deploy on Fridays")
    assert client.delete(f"/api/memory/{pinned['id']}").status_code == 422  # reason is required
    refused = client.delete(f"/api/memory/{pinned['id']}", params={"reason": "cleanup"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "pinned_requires_force"
    agent = client.delete(f"/api/memory/{pinned['id']}", params={"reason": "cleanup", "force": "true"},
                          headers={"x-signet-actor-type": "agent"})
    assert agent.status_code == 403 and agent.json()["error"]["code"] == "autonomous_force_denied"
    conflict = client.delete(f"/api/memory/{pinned['id']}", params={"reason": "x", "force": "true", "if_version": 9})
    assert conflict.status_code == 409 and conflict.json()["error"]["code"] == "version_conflict"
    # Body and query combine field by field (the reference clients use either for each field).
    mixed = client.request("DELETE", f"/api/memory/{pinned['id']}", params={"reason": "x"}, json={"force": True})
    assert mixed.status_code == 200
    assert client.delete("/api/memory/nope", params={"reason": "x"}).status_code == 404
    other = remember(client, "critical: Rotate the deploy keys quarterly")
    body_reason = client.request("DELETE", f"/api/memory/{other['id']}", params={"force": "true"},
                                 json={"reason": "rotated"})
    assert body_reason.status_code == 200


def test_recover_outside_the_window_or_over_a_live_twin(client, svc):
    old = remember(client, "The design system uses an 8 pixel grid")
    client.delete(f"/api/memory/{old['id']}", params={"reason": "x"})
    with svc.db.write() as conn:
        conn.execute("UPDATE memories SET deleted_at = '2020-01-01T00:00:00.000Z' WHERE id = ?", (old["id"],))
    expired = client.post(f"/api/memory/{old['id']}/recover", json={"reason": "late"})
    assert expired.status_code == 409 and expired.json()["error"]["code"] == "retention_expired"
    twin = remember(client, "Support tickets are triaged within four hours")
    client.delete(f"/api/memory/{twin['id']}", params={"reason": "x"})
    remember(client, "Support tickets are triaged within four hours")  # the same text again, live
    clash = client.post(f"/api/memory/{twin['id']}/recover", json={"reason": "x"})
    assert clash.status_code == 409 and clash.json()["error"]["code"] == "duplicate_content_hash"


def test_another_agents_private_memory_is_not_found(client):
    private = remember(client, "Ana's salary review is in March", agentId="ana", visibility="private")
    for response in (patch(client, private["id"], importance=0.1),
                     client.delete(f"/api/memory/{private['id']}", params={"reason": "x"})):
        assert response.status_code == 404
    assert client.patch(f"/api/memory/{private['id']}", json={"reason": "x", "importance": 0.2},
                        headers={"x-signet-agent-id": "ana"}).status_code == 200


def test_mutations_frozen_answers_503(make_service):
    svc = make_service(memory={"pipelineV2": {"mutationsFrozen": True}})
    with TestClient(create_app(service=svc)) as client:
        for response in (client.patch("/api/memory/x", json={"reason": "r", "importance": 0.1}),
                         client.delete("/api/memory/x", params={"reason": "r"}),
                         client.post("/api/memory/x/recover", json={"reason": "r"}),
                         client.post("/api/memory/modify", json={"reason": "r", "patches": [{"id": "x", "pinned": 1}]}),
                         client.post("/api/memory/forget", json={"mode": "execute", "ids": ["x"], "reason": "r"})):
            assert response.status_code == 503 and response.json()["error"]["code"] == "mutations_frozen"


def test_null_fields_mean_not_given_except_tags(client):
    memory = remember(client, "The retro is on Thursdays", tags="team")
    response = patch(client, memory["id"], content=None, type=None, pinned=None, importance=0.4)
    assert response.status_code == 200 and response.json()["contentChanged"] is False
    cleared = patch(client, memory["id"], tags=None)
    assert cleared.json()["status"] == "updated"
    assert client.get(f"/api/memory/{memory['id']}").json()["tags"] in ("", None)
