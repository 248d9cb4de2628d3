"""Timelines show only what the caller may read: in team mode, another agent's private memories are
absent from an entity's timeline (ids, times, mention text), an entity known only from them is a
404, and a deleted memory's events go to exactly those who may read its history."""

import json

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret


@pytest.fixture
def team(make_service):
    svc = make_service(auth={"mode": "team"})
    secret = load_or_create_secret(svc.settings.auth_secret_path)

    def token(role: str, sub: str) -> dict[str, str]:
        return {"authorization": f"Bearer {issue(secret, sub=sub, role=role, scope=TokenScope(), ttl_s=600)[0]}"}

    with TestClient(create_app(service=svc)) as client:
        yield client, token("agent", "alice"), token("agent", "bob"), token("readonly", "auditor")


def _remember(client, headers, content: str, visibility: str = "global") -> str:
    response = client.post("/api/memory/remember", json={"content": content, "visibility": visibility},
                           headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["id"]


def _entity(client, headers, name: str) -> str:
    entities = client.get("/api/knowledge/entities", headers=headers).json()["entities"]
    return next(e["id"] for e in entities if e["name"] == name)


def _mentions(client, headers, entity_id: str) -> set[str]:
    response = client.get(f"/api/timeline/{entity_id}", headers=headers)
    assert response.status_code == 200, response.text
    return {e["ref"] for e in response.json()["events"] if e["type"] == "mention"}


def test_an_entity_timeline_lists_only_memories_the_caller_may_read(team):
    client, alice, bob, auditor = team
    shared = _remember(client, alice, "Priya Sharma maintains the billing service")
    private = _remember(client, alice, "Priya Sharma is interviewing at another company", "private")
    gone = _remember(client, alice, "Priya Sharma moved the billing service to Postgres")
    assert client.delete(f"/api/memory/{gone}?reason=posted+by+mistake", headers=alice).status_code == 200
    priya = _entity(client, alice, "Priya Sharma")

    assert _mentions(client, alice, priya) == {shared, private, gone}
    for reader in (bob, auditor):
        seen = _mentions(client, reader, priya)
        assert private not in seen and shared in seen
        # a deleted memory's mention shows to whoever may read its history, as that history does
        assert (gone in seen) == (client.get(f"/api/memory/{gone}/history", headers=reader).status_code == 200)
        body = client.get(f"/api/timeline/{priya}", headers=reader).text
        assert private not in body and "interviewing" not in body
        export = json.loads(client.get(f"/api/timeline/{priya}/export", headers=reader).text)
        assert {e.get("ref") for e in export["timeline"]["events"]}.isdisjoint({private})
        assert export["meta"]["counts"]["mention"] == len(seen)


def test_an_entity_known_only_from_private_memories_is_not_found(team):
    client, alice, bob, auditor = team
    _remember(client, alice, "Zora Quinlan from legal reviews the contract", "private")
    zora = _entity(client, alice, "Zora Quinlan")
    assert client.get(f"/api/timeline/{zora}", headers=alice).status_code == 200
    for reader in (bob, auditor):
        for path in (f"/api/timeline/{zora}", f"/api/timeline/{zora}/export"):
            response = client.get(path, headers=reader)
            assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_a_memory_timeline_follows_the_memory_read_rules(team):
    client, alice, bob, auditor = team
    private = _remember(client, alice, "Alice keeps the deploy key rotation notes", "private")
    deleted = _remember(client, alice, "Alice shares the staging database password rotation plan")
    assert client.delete(f"/api/memory/{deleted}?reason=contains+a+secret", headers=alice).status_code == 200
    assert client.get(f"/api/timeline/{private}", headers=alice).status_code == 200
    for reader in (bob, auditor):
        assert client.get(f"/api/timeline/{private}", headers=reader).status_code == 404
        assert client.get(f"/api/timeline/{private}/export", headers=reader).status_code == 404
        history = client.get(f"/api/memory/{deleted}/history", headers=reader).status_code
        for path in (f"/api/timeline/{deleted}", f"/api/timeline/{deleted}/export"):
            assert client.get(path, headers=reader).status_code == history
