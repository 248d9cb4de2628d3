"""POST /api/memory/modify (partial success) and /api/memory/forget (preview, confirm token,
execute) through HTTP."""

from tests.conftest import remember


def test_modify_applies_each_patch_alone(client):
    a = remember(client, "The mobile app is written in Kotlin")
    b = remember(client, "Our CI caches Docker layers")
    body = {"reason": "bulk fix", "changed_by": "ops", "patches": [
        {"id": a["id"], "content": "The mobile app is written in Kotlin with Compose", "if_version": 1},
        {"id": b["id"], "tags": ["ci"], "importance": 0.6, "reason": "tagging"},
        {"id": b["id"], "importance": 0.2, "if_version": 1},  # b is at version 2 by now
        {"id": "missing", "pinned": True},
        {"id": a["id"]},  # nothing to change
        {"importance": 0.5},  # no id
    ]}
    response = client.post("/api/memory/modify", json=body)
    assert response.status_code == 200
    out = response.json()
    assert (out["total"], out["updated"]) == (6, 2)
    assert [r["status"] for r in out["results"]] == ["updated", "updated", "version_conflict", "not_found",
                                                    "invalid_request", "invalid_request"]
    assert out["results"][0]["contentChanged"] is True and out["results"][1]["contentChanged"] is False
    assert "give at least one of" in out["results"][4]["error"]
    history = client.get(f"/api/memory/{b['id']}/history").json()["history"]
    assert (history[-1]["reason"], history[-1]["changedBy"]) == ("tagging", "ops")


def test_modify_rejects_an_oversized_or_empty_batch(client):
    assert client.post("/api/memory/modify", json={"reason": "r", "patches": []}).status_code == 422
    patches = [{"id": f"m{i}", "pinned": True} for i in range(201)]
    assert client.post("/api/memory/modify", json={"reason": "r", "patches": patches}).status_code == 422


def test_forget_previews_then_executes_with_the_token(client):
    ids = [remember(client, f"Sprint note {i}: the retro moved to room {i}", tags="retro")["id"] for i in range(30)]
    keep = remember(client, "critical: [retro]: The retro never runs over an hour")
    preview = client.post("/api/memory/forget", json={"mode": "preview", "tags": "retro", "limit": 200}).json()
    assert preview["count"] == 31 and preview["requiresConfirm"] is True
    assert {c["id"] for c in preview["candidates"]} == {*ids, keep["id"]}
    body = {"mode": "execute", "tags": "retro", "limit": 200, "reason": "retro cleanup"}
    missing = client.post("/api/memory/forget", json=body)
    assert missing.status_code == 400 and missing.json()["error"]["code"] == "confirm_token_required"
    remember(client, "Sprint note 99: the retro has snacks", tags="retro")  # the set changes after the preview
    stale = client.post("/api/memory/forget", json={**body, "confirm_token": preview["confirmToken"]})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "confirm_token_mismatch"
    fresh = client.post("/api/memory/forget", json={"mode": "preview", "tags": "retro", "limit": 200}).json()
    done = client.post("/api/memory/forget", json={**body, "confirm_token": fresh["confirmToken"]}).json()
    assert (done["requested"], done["deleted"]) == (32, 31)
    pinned = [r for r in done["results"] if r["id"] == keep["id"]]
    assert pinned[0]["status"] == "pinned_requires_force"
    assert client.get(f"/api/memory/{ids[0]}").status_code == 404
    assert client.get(f"/api/memory/{keep['id']}").status_code == 200


def test_forget_small_sets_need_no_token_and_ids_respect_visibility(client):
    mine = remember(client, "The old VPN host is vpn1.internal")
    theirs = remember(client, "Bo's VPN password hint is his cat", agentId="bo", visibility="private")
    body = {"mode": "execute", "ids": [mine["id"], theirs["id"]], "reason": "rotate"}
    preview = client.post("/api/memory/forget", json={**body, "mode": "preview"}).json()
    assert preview["count"] == 1 and preview["notFound"] == [theirs["id"]]
    done = client.post("/api/memory/forget", json=body).json()
    # Another agent's private memory answers like an unknown id: not_found, and it is kept.
    assert (done["requested"], done["deleted"]) == (2, 1)
    assert {r["id"]: r["status"] for r in done["results"]} == {mine["id"]: "deleted", theirs["id"]: "not_found"}
    assert client.get(f"/api/memory/{theirs['id']}", headers={"x-signet-agent-id": "bo"}).status_code == 200


def test_forget_by_ids_takes_every_listed_id_not_the_default_limit(client):
    ids = [remember(client, f"Temporary build note number {i} for the cleanup")["id"] for i in range(24)]
    preview = client.post("/api/memory/forget", json={"mode": "preview", "ids": ids}).json()
    assert preview["count"] == 24 and "notFound" not in preview
    done = client.post("/api/memory/forget", json={"mode": "execute", "ids": ids, "reason": "cleanup",
                                                   "confirm_token": preview["confirmToken"]}).json()
    assert (done["requested"], done["deleted"]) == (24, 24)


def test_forget_by_query_and_bad_requests(client):
    target = remember(client, "The payments webhook secret rotates monthly")
    remember(client, "Lunch is at noon on Fridays")
    preview = client.post("/api/memory/forget", json={"mode": "preview", "query": "webhook secret rotation",
                                                      "limit": 1}).json()
    assert [c["id"] for c in preview["candidates"]] == [target["id"]] and preview["candidates"][0]["score"] > 0
    for body in ({"mode": "preview"}, {"mode": "execute", "ids": [target["id"]]}, {"mode": "erase", "ids": ["x"]},
                 {"ids": ["x"] * 201}):
        response = client.post("/api/memory/forget", json=body)
        assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"
