"""Repair actions through the API: what each does, and the policy gate (frozen, role, cooldown,
hourly budget) with its audit trail."""

import json

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from tests.conftest import remember


def test_requeue_dead_runs_once_then_cools_down_and_is_audited(client, svc):
    job_id = remember(client, "The nightly export failed twice")["jobId"]
    with svc.db.write() as conn:
        conn.execute("UPDATE memory_jobs SET status = 'dead', attempts = 3 WHERE id = ?", (job_id,))
    done = client.post("/api/repair/requeue-dead", json={"reason": "provider is back"})
    assert done.status_code == 200 and done.json()["result"] == {"requeued": 1}
    assert client.get(f"/api/memory/jobs/{job_id}").json()["status"] == "pending"
    audit = svc.db.reader().execute("SELECT event, reason, changed_by FROM memory_history WHERE memory_id = 'system'")
    assert list(audit) == [("repair", "provider is back", "api")]

    again = client.post("/api/repair/requeue-dead")
    assert again.status_code == 429
    error = again.json()["error"]
    assert error["code"] == "repair_cooldown" and 0 < error["retryAfterS"] <= 60
    outcomes = [r["outcome"] for r in client.get("/api/repair").json()["runs"]]
    assert outcomes == ["denied", "executed"]


def test_hourly_budget_counts_runs_across_processes(make_service):
    svc = make_service(repair={"defaultCooldownMs": 1000, "defaultHourlyBudget": 2})
    with svc.db.write() as conn:  # two runs by another process ten minutes ago
        for _ in range(2):
            conn.execute("INSERT INTO repair_runs(action, outcome, created_at) VALUES ('check-fts', 'executed', "
                         "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-10 minutes'))")
    with TestClient(create_app(service=svc)) as client:
        denied = client.post("/api/repair/check-fts")
    assert denied.status_code == 429 and denied.json()["error"]["code"] == "repair_budget_exhausted"


def test_frozen_stops_everything_and_agents_need_autonomy(make_service):
    frozen = make_service(autonomous={"frozen": True})
    with TestClient(create_app(service=frozen)) as client:
        response = client.post("/api/repair/release-leases")
    assert response.status_code == 503 and response.json()["error"]["code"] == "repair_frozen"

    closed = make_service(autonomous={"enabled": False})
    with TestClient(create_app(service=closed)) as client:
        as_agent = client.post("/api/repair/release-leases", headers={"x-signet-actor-type": "agent"})
        as_operator = client.post("/api/repair/release-leases")
    assert as_agent.status_code == 403 and as_agent.json()["error"]["code"] == "repair_forbidden"
    assert as_operator.status_code == 200


def test_check_fts_reports_drift_and_rebuilds_only_when_asked(client, svc):
    for i in range(5):
        remember(client, f"Searchable note number {i} about the harbour ferry")
    with svc.db.write() as conn:
        conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('delete-all')")
    report = client.post("/api/repair/check-fts").json()["result"]
    assert report["mismatch"] == 1.0 and not report["rebuilt"]
    with svc.db.write() as conn:  # let the cooldown pass
        conn.execute("UPDATE repair_runs SET created_at = ?", ("2020-01-01T00:00:00.000Z",))
    fixed = client.post("/api/repair/check-fts", json={"repair": True}).json()["result"]
    assert fixed["rebuilt"]
    assert client.post("/api/memory/recall", json={"query": "harbour ferry"}).json()["results"]
    assert client.get("/api/diagnostics/index").json()["status"] == "healthy"


def test_unknown_action_and_bad_body(client):
    assert client.post("/api/repair/format-disk").json()["error"]["code"] == "unknown_repair"
    bad = client.post("/api/repair/check-fts", json={"repair": "maybe"})
    assert bad.status_code == 422


# -- re-embed, clean-orphans, dedup-stats, deduplicate ------------------------------------------------

def let_cooldowns_pass(svc):
    with svc.db.write() as conn:
        conn.execute("UPDATE repair_runs SET created_at = '2020-01-01T00:00:00.000Z'")


def test_reembed_refreshes_missing_and_stale_vectors_under_its_own_limits(client, svc):
    for text in ("The nightly export writes Parquet", "Standups are at 9:30", "The VPN needs a hardware key"):
        remember(client, text)
    with svc.db.write() as conn:
        conn.execute("DELETE FROM embeddings WHERE rowid = (SELECT min(rowid) FROM embeddings)")
        conn.execute("UPDATE embeddings SET model = 'retired-model'")
    assert client.get("/api/repair/embedding-gaps").json()["unembedded"] == 3
    result = client.post("/api/repair/re-embed").json()["result"]
    assert result["found"] == {"missing": 1, "stale": 0, "model_switch": 2}
    assert (result["refreshed"], result["failed"], result["remaining"]) == (3, 0, 0)
    assert client.get("/api/embeddings/health").json()["coveragePct"] == 100.0
    again = client.post("/api/repair/re-embed")
    assert again.status_code == 429
    assert 60 < again.json()["error"]["retryAfterS"] <= 300  # reembedCooldownMs (5 min), not the 60 s default


def test_clean_orphans_drops_unused_vectors_and_links_to_vanished_memories(client, svc):
    from signet_pipeline.store import embeddings as emb_store

    keep = remember(client, "Alice likes green tea")
    gone = remember(client, "Alice works at Google in Berlin")
    tombstone = remember(client, "The old office was in Hamburg")
    with svc.db.write() as conn:
        emb_store.upsert(conn, content_hash="no-memory-has-this", vector=svc.embedder.embed_one("orphan"),
                         model=svc.embedder.model, source_id=None, now="2025-01-01T00:00:00.000Z")
        conn.execute("UPDATE memories SET is_deleted = 1, deleted_at = '2025-01-01T00:00:00.000Z' WHERE id = ?",
                     (tombstone["id"],))
        conn.execute("DELETE FROM memories WHERE id = ?", (gone["id"],))  # outside retention: links dangle
    result = client.post("/api/repair/clean-orphans").json()["result"]
    # The vanished memory's vector and the stray one go; the tombstone's stays for retention.
    assert result == {"vectorsRemoved": 2, "memoriesUnlinked": 1, "entitiesDecremented": 3,
                      "orphanEntitiesRemoved": 2, "capped": False}
    conn = svc.db.reader()
    stored = {r[0] for r in conn.execute("SELECT m.id FROM embeddings e JOIN memories m USING (content_hash)")}
    assert stored == {keep["id"], tombstone["id"]}
    assert dict(conn.execute("SELECT name, mentions FROM entities")) == {"Alice": 1, "Hamburg": 1}
    assert conn.execute("SELECT count(*) FROM memory_entity_mentions WHERE memory_id = ?",
                        (gone["id"],)).fetchall() == [(0,)]


def test_dedup_stats_reports_exact_groups_and_near_pairs_per_agent(client, svc):
    first = remember(client, "Use tabs, not spaces.", importance=0.4)
    second = remember(client, "use tabs - not spaces")
    remember(client, "Use tabs not spaces", agentId="other")  # another agent: not a duplicate of ours
    remember(client, "The API listens on port 3000")
    remember(client, "The API listens on port 3001")  # cosine 0.92: near, never merged
    remember(client, "Standups are at 9:30 every weekday")
    stats = client.get("/api/repair/dedup-stats").json()["result"]
    assert stats["live"] == 6
    exact = stats["exact"]
    assert (exact["groups"], exact["memories"], exact["removable"]) == (1, 2, 1)
    assert exact["samples"][0]["keep"]["id"] == second["id"]  # more important than the older one
    assert [d["id"] for d in exact["samples"][0]["duplicates"]] == [first["id"]]
    near = stats["near"]
    assert (near["pairs"], near["memories"], near["threshold"]) == (1, 2, 0.92)
    assert {near["samples"][0]["a"]["content"], near["samples"][0]["b"]["content"]} == {
        "The API listens on port 3000", "The API listens on port 3001"}
    assert stats["byAgent"] == {"default": {"exactGroups": 1, "nearPairs": 1}}
    assert client.get("/api/repair/dedup-stats").json()["result"] == stats  # a read: no gate, no cooldown
    assert client.get("/api/repair").json()["runs"] == []  # and no audit of other agents' samples


def test_deduplicate_keeps_the_best_tombstones_the_rest_and_moves_links(client, svc):
    oldest = remember(client, "Alice deploys Signet to Berlin on Tuesdays.", importance=0.9,
                      createdAt="2024-01-01T00:00:00Z")
    important = remember(client, "alice deploys signet to berlin, on tuesdays", importance=0.9)
    pinned = remember(client, "Alice deploys Signet - to Berlin on Tuesdays", pinned=True, importance=0.2)
    older = remember(client, "Bob reviews every migration!", createdAt="2024-06-01T00:00:00Z")
    newer = remember(client, "bob reviews every (!) migration")
    dropped = {oldest["id"], important["id"], newer["id"]}

    result = client.post("/api/repair/deduplicate", json={"reason": "weekly cleanup"}).json()["result"]
    assert (result["groupsMerged"], result["memoriesRemoved"], result["groupsRemaining"]) == (2, 3, 0)
    conn = svc.db.reader()
    live = {r[0] for r in conn.execute("SELECT id FROM memories WHERE is_deleted = 0")}
    assert live == {pinned["id"], older["id"]}  # pinned beats importance; equal importance: the oldest
    for memory_id in dropped:
        assert client.get(f"/api/memory/{memory_id}").status_code == 404
        events = list(conn.execute("SELECT event, reason, json_extract(metadata, '$.mergedInto') FROM memory_history "
                                   "WHERE memory_id = ? AND event = 'deleted'", (memory_id,)))
        assert events == [("deleted", "deduplicate", pinned["id"] if memory_id != newer["id"] else older["id"])]
    merged = conn.execute("SELECT json_extract(metadata, '$.mergedFrom') FROM memory_history WHERE memory_id = ? "
                          "AND event = 'merged'", (pinned["id"],)).fetchall()
    assert len(merged) == 1 and set(json.loads(merged[0][0])) == {oldest["id"], important["id"]}
    # Links: the keeper holds one mention per entity and the counts match the rows left.
    mentions = dict(conn.execute("SELECT e.name, count(*) FROM memory_entity_mentions mm JOIN entities e "
                                 "ON e.id = mm.entity_id WHERE mm.memory_id = ? GROUP BY e.name", (pinned["id"],)))
    assert mentions and set(mentions.values()) == {1}
    assert not list(conn.execute("SELECT 1 FROM entities e WHERE mentions <> (SELECT count(*) FROM "
                                 "memory_entity_mentions mm WHERE mm.entity_id = e.id)"))
    assert [h["id"] for h in client.post("/api/memory/recall", json={"query": "who deploys to Berlin"}).json()
            ["results"]][:1] == [pinned["id"]]
    let_cooldowns_pass(svc)
    assert client.post("/api/repair/deduplicate").json()["result"]["groupsMerged"] == 0


@pytest.mark.parametrize("action", ["deduplicate", "retention-sweep", "clean-orphans"])
def test_actions_that_change_memories_refuse_while_mutations_are_frozen(svc, make_service, action):
    with TestClient(create_app(service=svc)) as client:
        remember(client, "Use tabs, not spaces.")
        remember(client, "use tabs not spaces")
    frozen = make_service(memory={"pipelineV2": {"mutationsFrozen": True}})
    with TestClient(create_app(service=frozen)) as client:
        response = client.post(f"/api/repair/{action}")
        assert response.status_code == 503 and response.json()["error"]["code"] == "mutations_frozen"
        assert client.get("/api/repair").json()["runs"][0]["outcome"] == "denied"
        assert client.post("/api/repair/requeue-dead").status_code == 200  # queue upkeep goes on
    assert svc.db.reader().execute("SELECT count(*) FROM memories WHERE is_deleted = 0").fetchall() == [(2,)]


def test_deduplicate_never_makes_a_keeper_its_own_source(client, svc):
    source = remember(client, "Ravi moved the standup to 9:30.", importance=0.4)
    derived = remember(client, "ravi moved the standup to 9 30", importance=0.9)
    other = remember(client, "The standup notes live in the wiki.")
    with svc.db.write() as conn:  # the more important twin is a derived fact of the other
        conn.execute("UPDATE memories SET source_memory_id = ? WHERE id IN (?, ?)", (source["id"], derived["id"],
                                                                                  other["id"]))
    assert client.post("/api/repair/deduplicate").json()["result"]["groupsMerged"] == 1
    provenance = dict(svc.db.reader().execute("SELECT id, source_memory_id FROM memories WHERE id IN (?, ?)",
                                              (derived["id"], other["id"])))
    assert provenance == {derived["id"]: source["id"], other["id"]: derived["id"]}
