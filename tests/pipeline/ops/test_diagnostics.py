"""Diagnostics: every domain flips on a constructed bad state; the API serves the same report the
asset checks evaluate; provider outcomes come from real pipeline calls."""

import time

import pytest

from signet_pipeline.analytics import ProviderCalls
from signet_pipeline.errors import ProviderError
from signet_pipeline.models import RememberRequest
from signet_pipeline.ops import diagnostics
from signet_pipeline.providers.llm import OllamaLlm
from signet_pipeline.stages.extraction.batch import run_jobs
from signet_pipeline.store import history as history_store
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import remember
from tests.fakes import FakeServer

OLD = "2020-01-01T00:00:00.000Z"


@pytest.fixture
def stocked(svc):
    for i in range(10):
        remember(svc, RememberRequest(content=f"Note {i}: the quarterly report for region {i} is due Friday"))
    with svc.db.write() as conn:
        conn.execute("UPDATE memory_jobs SET status = 'completed', completed_at = ?", (now_iso(),))
    return svc


def health(svc, domain):
    return diagnostics.domain_health(svc.db, svc.settings, domain)


def test_a_healthy_store_is_healthy_everywhere(client, stocked):
    body = client.get("/api/diagnostics").json()
    assert body["status"] == "healthy" and body["score"] == pytest.approx(1.0)
    assert set(body["domains"]) == {"queue", "storage", "index", "provider", "mutation", "connector"}
    assert sum(d["weight"] for d in body["domains"].values()) == pytest.approx(1.0)
    assert client.get("/api/diagnostics/index").json()["signals"]["embeddingCoverage"] == 1.0
    missing = client.get("/api/diagnostics/bogus")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_domain"


def test_queue_flips_on_depth_age_dead_jobs_and_stale_leases(stocked):
    svc = stocked
    with svc.db.write() as conn:
        conn.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60) "
                     "INSERT INTO memory_jobs(job_type, status, created_at, updated_at) "
                     "SELECT 'extract', 'pending', ?, ? FROM n", (OLD, OLD))
    degraded = health(svc, "queue")
    assert degraded.status == "degraded" and degraded.score == pytest.approx(0.5)  # depth 0.2 + age 0.3
    with svc.db.write() as conn:
        conn.execute("UPDATE memory_jobs SET status = 'dead', failed_at = ? WHERE id IN "
                     "(SELECT id FROM memory_jobs WHERE status = 'pending' LIMIT 5)", (OLD,))
        conn.execute("UPDATE memory_jobs SET status = 'leased', leased_at = ? WHERE id IN "
                     "(SELECT id FROM memory_jobs WHERE status = 'pending' LIMIT 1)", (OLD,))
    worse = health(svc, "queue")
    assert worse.score == 0.0 and worse.signals["staleLeases"] == 1 and len(worse.issues) == 4


def test_storage_flips_past_thirty_percent_tombstones(stocked):
    with stocked.db.write() as conn:
        conn.execute("UPDATE memories SET is_deleted = 1, deleted_at = ? WHERE rid % 10 < 3", (now_iso(),))
    assert health(stocked, "storage").status == "healthy"  # exactly 30%: not above
    with stocked.db.write() as conn:
        conn.execute("UPDATE memories SET is_deleted = 1, deleted_at = ? WHERE rid % 10 < 4", (now_iso(),))
    flipped = health(stocked, "storage")
    assert flipped.status == "degraded" and flipped.score == pytest.approx(0.6)


def test_index_flips_on_fts_drift_and_missing_vectors(stocked):
    with stocked.db.write() as conn:
        conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('delete-all')")
    assert health(stocked, "index").score == pytest.approx(0.5)
    with stocked.db.write() as conn:
        conn.execute("DELETE FROM embeddings")
    both = health(stocked, "index")
    assert both.status == "unhealthy" and both.signals["embeddingCoverage"] == 0.0


def test_provider_health_comes_from_the_pipeline_calls(stocked):
    svc = stocked
    remember(svc, RememberRequest(content="Ana moved the standup to 9:30 on Mondays"))
    with FakeServer(lambda path, body: (503, {"error": "model is loading"})) as server:
        llm = OllamaLlm(base_url=server.url, model="qwen3:4b")
        batch = run_jobs(svc, JobQueue(svc.db), llm, 10)
    assert batch.items and all(i.error for i in batch.items)
    flipped = health(svc, "provider")
    assert flipped.status == "unhealthy" and flipped.score == 0.0
    assert "ollama" in flipped.signals["providers"] and "503" in flipped.issues[0]


def test_provider_timeouts_are_told_apart(stocked):
    def slow(path, body):
        time.sleep(1.0)
        return 200, {"response": "{}", "done": True}

    calls = ProviderCalls()
    with FakeServer(slow) as server:
        llm = OllamaLlm(base_url=server.url, model="m")
        with pytest.raises(ProviderError):
            calls.call(llm.generate, "hello", timeout=0.2)
    calls.flush(stocked.db, provider=llm.name, model=llm.model)
    signals = health(stocked, "provider").signals["providers"]["ollama"]
    assert (signals["timeouts"], signals["failures"]) == (1, 0)


def test_mutation_flips_after_many_recoveries(client, stocked):
    with stocked.db.write() as conn:
        for _ in range(6):
            history_store.record(conn, memory_id="m", event="recovered", now=now_iso())
    assert health(stocked, "mutation").status == "degraded"
    status = client.get("/api/pipeline/status").json()
    assert status["health"]["domains"]["mutation"] == "degraded"
    assert status["mode"] == "controlled" and status["queues"]["extract"]["completed"] == 10


def test_the_outcome_ring_keeps_the_newest_hundred_per_provider(stocked):
    calls = ProviderCalls()
    for i in range(150):
        calls.outcomes.append(("failure" if i < 50 else "success", 1.0, "boom" if i < 50 else None))
    calls.flush(stocked.db, provider="p", model="m")
    signals = health(stocked, "provider").signals["providers"]["p"]
    assert (signals["calls"], signals["successes"]) == (100, 100)  # the 50 old failures fell out


def test_embedding_health_counts_missing_and_stale_vectors(client, svc):
    ids = [remember(svc, RememberRequest(content=f"Vector coverage probe number {i}")).id for i in range(3)]
    with svc.db.write() as conn:
        hashes = [conn.execute("SELECT content_hash FROM memories WHERE id = ?", (i,)).fetchall()[0][0] for i in ids]
        conn.execute("DELETE FROM embeddings WHERE content_hash = ?", (hashes[0],))
        conn.execute("UPDATE embeddings SET model = 'an-older-model' WHERE content_hash = ?", (hashes[1],))
    body = client.get("/api/embeddings/health").json()
    assert (body["live"], body["embedded"], body["missing"], body["stale"]) == (3, 1, 2, 1)
    assert body["coveragePct"] == pytest.approx(33.33) and body["provider"]["available"]
    gaps = client.get("/api/repair/embedding-gaps").json()
    assert (gaps["total"], gaps["unembedded"], gaps["coverage"], gaps["stale"], gaps["model"]) == (
        3, 2, "33.3%", 1, body["model"])
