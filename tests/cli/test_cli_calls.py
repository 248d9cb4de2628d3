"""What the reference's CLI and adapters call besides the hooks: `signet agent` (/api/agents),
`signet embed audit|backfill` (/api/repair/embedding-gaps, /api/repair/re-embed), the OpenClaw
adapter's heartbeat (/api/diagnostics/openclaw), and `success` on PATCH / DELETE of a memory."""

from __future__ import annotations

from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret
from tests.cli.response_fields import carries
from tests.conftest import remember

# The reference SDK's and CLI's reads: field -> JSON type of the fields every answer carries.
GAPS = {"total": "number", "unembedded": "number", "coverage": "string"}
REPAIR = {"action": "string", "success": "boolean", "affected": "number", "message": "string"}
AGENT = {"id": "string", "name": "string", "read_policy": "string"}


def test_agents_are_listed_created_and_read_with_their_policy(agents_client):
    client, svc, _ = agents_client
    listed = client.get("/api/agents").json()["agents"]
    for agent in listed:
        carries(agent, AGENT)
    assert {(a["name"], a["read_policy"], a["policy_group"], a["source"]) for a in listed} == {
        ("alice", "isolated", None, "roster"), ("bob", "shared", None, "roster"), ("carol", "group", "team", "roster"),
        ("dave", "group", "team", "roster"), ("eve", "shared", None, "seen")}
    created = client.post("/api/agents", json={"name": "gina", "read_policy": "isolated", "policy_group": None})
    assert created.status_code == 201 and created.json()["source"] == "api"
    carries(created.json(), AGENT)
    remember(client, "Gina keeps the design notes", agentId="gina")
    # isolated: gina reads her own memories, not the others' global ones.
    seen = client.get("/api/memories", params={"agentId": "gina"}).json()["memories"]
    assert [m["content"] for m in seen] == ["Gina keeps the design notes"]
    again = client.post("/api/agents", json={"name": "gina", "read_policy": "group", "policy_group": "team"})
    assert again.status_code == 200 and (again.json()["read_policy"], again.json()["policy_group"]) == ("group", "team")
    info = client.get("/api/agents/gina").json()
    assert info["memory_count"] == 1 and info["name"] == "gina"
    assert client.get("/api/agents/nobody").status_code == 404
    # The roster of agent.yaml decides its agents: the API does not change or remove them.
    roster = client.post("/api/agents", json={"name": "alice", "read_policy": "shared"})
    assert roster.status_code == 409 and roster.json()["error"]["code"] == "agent_in_roster"
    assert client.delete("/api/agents/alice").json()["error"]["code"] == "agent_in_roster"
    assert client.delete("/api/agents/default").json()["error"]["code"] == "default_agent"
    assert client.delete("/api/agents/eve").json() == {"success": True, "purged": False, "archived": 1, "deleted": 0}
    group = client.post("/api/agents", json={"name": "dave", "read_policy": "group"})
    assert group.status_code == 422
    assert client.post("/api/agents", json={"name": "bad name!"}).status_code == 422


def test_removing_an_agent_archives_its_memories_and_purge_deletes_them(agents_client):
    client, svc, _ = agents_client
    client.post("/api/agents", json={"name": "erin"}).raise_for_status()
    kept = remember(client, "Erin's notes on the payment gateway", agentId="erin")
    removed = client.delete("/api/agents/erin")
    assert removed.json() == {"success": True, "purged": False, "archived": 1, "deleted": 0}
    assert client.get("/api/agents/erin").status_code == 404
    assert client.get(f"/api/memory/{kept['id']}", params={"agentId": "erin"}).status_code == 404
    assert svc.db.reader().execute("SELECT visibility, is_deleted FROM memories WHERE id = ?",
                                   (kept["id"],)).fetchall() == [("archived", 0)]

    client.post("/api/agents", json={"name": "frank"}).raise_for_status()
    ids = [remember(client, f"Frank's runbook step {i} for the billing cutover", agentId="frank")["id"]
           for i in range(3)]
    pinned = remember(client, "Frank pinned the on-call number", agentId="frank", pinned=True)["id"]
    purged = client.delete("/api/agents/frank", params={"purge": "true"}).json()
    assert purged == {"success": True, "purged": True, "archived": 0, "deleted": 4}
    history = svc.db.reader().execute(
        "SELECT count(*) FROM memory_history WHERE event = 'deleted' AND reason = 'agent frank purged'").fetchone()[0]
    assert history == 4
    # Deleted as forget deletes: recoverable within the retention window.
    back = client.post(f"/api/memory/{pinned}/recover", json={"reason": "kept"}, params={"agent_id": "frank"})
    assert back.status_code == 200 and ids


def test_agent_writes_need_an_operator_and_refuse_while_frozen(make_service):
    svc = make_service(auth={"mode": "team"})
    secret = load_or_create_secret(svc.settings.auth_secret_path)
    agent = {"authorization": f"Bearer {issue(secret, sub='bot', role='agent', ttl_s=60)[0]}"}
    operator = {"authorization": f"Bearer {issue(secret, sub='ops', role='operator', ttl_s=60)[0]}"}
    with TestClient(create_app(service=svc)) as client:
        assert client.get("/api/agents", headers=agent).status_code == 200
        denied = client.post("/api/agents", json={"name": "gina"}, headers=agent)
        assert denied.status_code == 403 and denied.json()["error"]["code"] == "permission_denied"
        assert client.post("/api/agents", json={"name": "gina"}, headers=operator).status_code == 201
        gina_only = issue(secret, sub="ops", role="operator", scope=TokenScope(agent="gina"), ttl_s=60)[0]
        scoped = {"authorization": f"Bearer {gina_only}"}
        assert client.delete("/api/agents/ivan", headers=scoped).json()["error"]["code"] == "scope_denied"
        assert client.delete("/api/agents/gina", headers=scoped).status_code == 200
    frozen = make_service(memory={"pipelineV2": {"mutationsFrozen": True}})
    with TestClient(create_app(service=frozen)) as client:
        refused = client.post("/api/agents", json={"name": "hank"})
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "mutations_frozen"


def test_embedding_gaps_and_re_embed_answer_what_the_cli_reads(client, svc):
    for text in ("The nightly export writes Parquet", "Standups are at 9:30", "The VPN needs a hardware key"):
        remember(client, text)
    with svc.db.write() as conn:
        conn.execute("DELETE FROM embeddings WHERE rowid = (SELECT min(rowid) FROM embeddings)")
    gaps = client.get("/api/repair/embedding-gaps").json()
    carries(gaps, GAPS)
    assert (gaps["total"], gaps["unembedded"], gaps["coverage"]) == (3, 1, "66.6%")  # floored, never rounded up
    assert isinstance(gaps["oldestUnembedded"], str)
    before = svc.db.reader().execute("SELECT count(*) FROM embeddings").fetchone()[0]
    dry = client.post("/api/repair/re-embed", json={"batchSize": 50, "dryRun": True})
    assert dry.status_code == 200, dry.text
    carries(dry.json(), REPAIR)
    assert (dry.json()["success"], dry.json()["affected"]) == (True, 0) and "1 memor" in dry.json()["message"]
    assert dry.json()["result"]["wouldReembed"] == 1
    conn = svc.db.reader()
    assert conn.execute("SELECT count(*) FROM embeddings").fetchone()[0] == before  # nothing written
    assert conn.execute("SELECT count(*) FROM repair_runs").fetchone()[0] == 0  # no run, no cooldown
    assert client.post("/api/repair/re-embed", json={"batchSize": 0}).status_code == 422
    assert client.post("/api/repair/re-embed", json={"batchSize": 10**6}).status_code == 422
    done = client.post("/api/repair/re-embed", json={"batchSize": 50, "dryRun": False}).json()
    carries(done, REPAIR)
    assert (done["success"], done["affected"]) == (True, 1)
    assert client.get("/api/repair/embedding-gaps").json()["coverage"] == "100.0%"
    # A dry run of an action that has none is refused, never run for real.
    assert client.post("/api/repair/deduplicate", json={"dryRun": True}).status_code == 422


def test_openclaw_heartbeat_is_kept_and_reported(client):
    never = client.get("/api/diagnostics/openclaw").json()
    assert never["status"] == "never-seen" and never["lastHeartbeat"] is None and never["hooksRegistered"] == []
    beat = {"pluginVersion": "2.1.0", "hooksRegistered": ["before_prompt_build", "agent_end"], "lastHookCall": None,
            "lastError": None, "latencyMs": 12, "hooksSucceeded": 5, "hooksFailed": 1}
    assert client.post("/api/diagnostics/openclaw/heartbeat", json=beat).json() == {"ok": True}
    assert client.post("/api/diagnostics/openclaw/heartbeat", json={**beat, "lastError": "x" * 2000}).json()["ok"]
    seen = client.get("/api/diagnostics/openclaw").json()
    assert seen["status"] == "connected" and seen["pluginVersion"] == "2.1.0"
    assert (seen["hooksSucceeded"], seen["hooksFailed"], seen["lastLatencyMs"]) == (10, 2, 12)
    assert seen["hooksRegistered"] == beat["hooksRegistered"] and len(seen["lastError"]) == 512
    missing = client.post("/api/diagnostics/openclaw/heartbeat", json={"hooksRegistered": []})
    assert missing.status_code == 422


def test_patch_and_delete_of_a_memory_answer_success(client):
    saved = remember(client, "The retro moved to Thursdays")
    patched = client.patch(f"/api/memory/{saved['id']}", json={"reason": "typo", "importance": 0.3}).json()
    assert patched["success"] is True and patched["status"] == "updated"
    deleted = client.delete(f"/api/memory/{saved['id']}", params={"reason": "stale"}).json()
    assert deleted["success"] is True and deleted["status"] == "deleted"
