"""Embedding refresh: missing vectors, vectors under an old content hash, and a model switch to an
embedder of another dimension, with the real ONNX embedder on a real store."""

import dagster as dg
import numpy as np
import pytest

from signet_pipeline.defs.embeddings.assets import embedding_backfill_over, embedding_refresh
from signet_pipeline.defs.embeddings.jobs import embedding_backfill_job, embedding_refresh_job
from signet_pipeline.defs.embeddings.sensors import embedding_refresh_sensor
from signet_pipeline.defs.resources import EmbedderResource, SignetStoreResource
from signet_pipeline.errors import ProviderError
from signet_pipeline.models import RecallRequest, RememberRequest
from signet_pipeline.providers.embeddings.base import EmbeddingProvider
from signet_pipeline.recall.search import recall_memories
from signet_pipeline.service.vectors import MatrixIndex, SqliteVecIndex
from signet_pipeline.stages.embedding_refresh import run_backfill, run_refresh
from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.write.remember import remember, remember_many

FACTS = [
    "The staging database runs PostgreSQL 16 on a dedicated host",
    "Nicholai prefers tabs over spaces in every repository",
    "Deploys happen on Tuesdays after the weekly planning meeting",
    "The mobile app is written in Kotlin with Jetpack Compose",
    "Backups are copied to an offsite bucket every night at 2am",
    "Alice leads the search relevance team in Berlin",
    "The API rate limit is 600 requests per minute per token",
    "Our CI pipeline caches Docker layers between builds",
    "The design system uses an 8 pixel spacing grid",
    "Customer support tickets are triaged within four hours",
    "The recommendation model is retrained every Sunday",
    "Feature flags are stored in a Redis cluster",
]


class ProjectedMiniLM(EmbeddingProvider):
    """Another model of another dimension: MiniLM vectors through a fixed random projection
    (cosines roughly preserved, deterministic, offline)."""

    name = "projected"

    def __init__(self, base: EmbeddingProvider, dims: int = 96, seed: int = 7):
        super().__init__()
        self.model = f"minilm-projected-{dims}"
        self._base = base
        self._matrix = np.random.default_rng(seed).standard_normal((base.dimensions, dims)).astype(np.float32)

    @property
    def dimensions(self) -> int:
        return self._matrix.shape[1]

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self._base.embed(texts) @ self._matrix


class FlakyEmbedder(EmbeddingProvider):
    """The real embedder, failing every call once `fail_after` calls have succeeded."""

    name = "flaky"

    def __init__(self, base: EmbeddingProvider, fail_after: int):
        super().__init__()
        self.model = base.model
        self._base = base
        self.calls = 0
        self.fail_after = fail_after
        self.cooldown_s = 0.0

    @property
    def dimensions(self) -> int:
        return self._base.dimensions

    def _embed(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        if self.calls > self.fail_after:
            raise ProviderError("flaky: connection refused")
        return self._base.embed(texts)


class RejectingEmbedder(FlakyEmbedder):
    """Up, but rejects any call that contains `poison` (a content filter, a 400 on one text)."""

    def __init__(self, base: EmbeddingProvider, poison: str):
        super().__init__(base, fail_after=10**6)
        self.poison = poison

    def _embed(self, texts: list[str]) -> np.ndarray:
        if self.poison in texts:
            raise ProviderError("flaky: 400 input rejected")
        return super()._embed(texts)


def indexed(index) -> int:
    index.sync()
    return len(index)


def vector_only_hits(svc, index, text: str, k: int = 1) -> list[str]:
    return [h for h, _ in index.search(svc.embedder.embed_one(text), k)]


def hashes_by_content(svc) -> dict[str, str]:
    return dict(svc.db.reader().execute("SELECT content, content_hash FROM memories WHERE is_deleted = 0"))


def test_model_switch_to_another_dimension_leaves_every_memory_findable(make_service, embedder):
    old = make_service()
    remember_many(old, [RememberRequest(content=c) for c in FACTS])
    assert indexed(old.vector_index()) == len(FACTS)
    old.close()

    new = make_service(ProjectedMiniLM(embedder))
    conn = new.db.reader()
    # The store accepts the new dimension at once: vec0 rebuilt empty for 96 dims, nothing lost.
    assert emb_store.vec_dimensions(conn) == 96
    assert conn.execute("SELECT count(*) FROM vec_embeddings").fetchall() == [(0,)]
    assert indexed(new.vector_index()) == 0
    # During the re-embed every memory stays findable by keyword.
    for content in FACTS:
        hits = recall_memories(new, RecallRequest(query=content, limit=3)).results
        assert hits and hits[0].content == content and hits[0].source == "keyword"

    report = run_refresh(new, batch_size=5)
    assert report.found == {"missing": 0, "stale": 0, "model_switch": len(FACTS)}
    assert (report.refreshed, report.failed, report.remaining, report.batches) == (len(FACTS), 0, 0, 3)
    assert {r[1] for r in report.preview} == {"model_switch"}
    assert conn.execute("SELECT DISTINCT model, dimensions FROM embeddings").fetchall() == [("minilm-projected-96", 96)]
    assert conn.execute("SELECT DISTINCT embedding_model FROM memories").fetchall() == [("minilm-projected-96",)]

    # Every live memory is returned by a vector-only search, through the in-process matrix (which
    # followed the change log) and through vec0: rebuilt for 96 dims and filled by the upserts with
    # sign bits, then rebuilt from the stored vectors with float32 copies as the sqlite-vec backend does.
    assert conn.execute("SELECT count(*) FROM vec_embeddings").fetchall() == [(len(FACTS),)]
    with new.db.write() as w:
        assert emb_store.ensure_vec_table(w, 96, new.embedder.model, "float")
    matrix, vec0 = new.vector_index(), SqliteVecIndex(new.db, model=new.embedder.model, dimensions=96)
    assert isinstance(matrix, MatrixIndex) and indexed(matrix) == indexed(vec0) == len(FACTS)
    by_content = hashes_by_content(new)
    for content in FACTS:
        assert vector_only_hits(new, matrix, content) == [by_content[content]]
        assert vector_only_hits(new, vec0, content) == [by_content[content]]
    hit = recall_memories(new, RecallRequest(query="which language is the phone app built with", limit=1)).results[0]
    assert "Kotlin" in hit.content and hit.source in ("vector", "hybrid")
    assert run_refresh(new).refreshed == 0


def test_missing_vectors_of_writes_made_while_the_provider_was_down(make_service, embedder):
    down = FlakyEmbedder(embedder, fail_after=0)
    svc = make_service(down)
    ids = [remember(svc, RememberRequest(content=c)).id for c in FACTS[:4]]
    assert svc.db.reader().execute("SELECT count(*) FROM embeddings").fetchall() == [(0,)]

    down.fail_after = 10**6  # provider back
    down.status(refresh=True)
    report = run_refresh(svc)
    assert report.found == {"missing": 4, "stale": 0, "model_switch": 0}
    assert report.refreshed == 4 and report.remaining == 0
    models = dict(svc.db.reader().execute("SELECT id, embedding_model FROM memories"))
    assert all(models[i] == embedder.model for i in ids)
    assert indexed(svc.vector_index()) == 4


def test_changed_content_gets_a_new_vector_and_its_orphan_goes_unless_shared(svc):
    edited = remember(svc, RememberRequest(content="The cache TTL is five minutes")).id
    shared = remember(svc, RememberRequest(content="The queue holds at most 100 jobs")).id
    remember(svc, RememberRequest(content="The queue holds at most 100 jobs", agentId="other"))
    conn = svc.db.reader()
    old_hashes = dict(conn.execute("SELECT id, content_hash FROM memories WHERE id IN (?, ?)", (edited, shared)))
    with svc.db.write() as w:  # an edit path changes content and hash; the vector stays behind
        for memory_id, text in ((edited, "The cache TTL is ten minutes"), (shared, "The queue holds at most 500 jobs")):
            w.execute("UPDATE memories SET content = ?, normalized_content = lower(?), content_hash = ? WHERE id = ?",
                      (text, text, f"new-{memory_id}", memory_id))

    report = run_refresh(svc)
    assert report.found == {"missing": 0, "stale": 2, "model_switch": 0}
    assert report.refreshed == 2 and report.orphans_removed == 1
    stored = {r[0] for r in conn.execute("SELECT content_hash FROM embeddings")}
    assert f"new-{edited}" in stored and f"new-{shared}" in stored
    assert old_hashes[edited] not in stored  # nobody carries it any more
    assert old_hashes[shared] in stored  # the other agent's copy still does
    assert vector_only_hits(svc, svc.vector_index(), "The cache TTL is ten minutes") == [f"new-{edited}"]


def test_provider_failure_is_counted_and_ends_the_run_without_losing_written_batches(make_service, embedder):
    flaky = FlakyEmbedder(embedder, fail_after=10**6)
    svc = make_service(flaky)
    remember_many(svc, [RememberRequest(content=c) for c in FACTS])
    with svc.db.write() as conn:
        conn.execute("UPDATE embeddings SET model = 'retired-model'")
    flaky.status(refresh=True)  # the health check passes, then the second batch fails
    flaky.calls, flaky.fail_after = 0, 1

    report = run_refresh(svc, batch_size=4)
    assert (report.refreshed, report.failed, report.batches) == (4, 4, 1)
    assert report.stopped == "provider failure" and "connection refused" in report.errors[0]
    assert report.remaining == len(FACTS) - 4
    outcomes = {r["provider"]: r for r in analytics_store.provider_summary(svc.db.reader())}["flaky"]
    assert (outcomes["successes"], outcomes["failures"]) == (1, 5)  # the batch, then each of its texts alone

    flaky.fail_after = 10**6
    assert run_refresh(svc).remaining == 0


def test_a_text_the_provider_always_rejects_is_skipped_not_blocking(make_service, embedder):
    rejecting = RejectingEmbedder(embedder, poison=FACTS[-1])  # the newest: first in every run
    svc = make_service(rejecting)
    remember_many(svc, [RememberRequest(content=c) for c in FACTS])
    with svc.db.write() as conn:
        conn.execute("UPDATE embeddings SET model = 'retired-model'")
    report = run_refresh(svc, batch_size=4)
    assert (report.refreshed, report.failed, report.stopped) == (len(FACTS) - 1, 1, None)
    assert report.remaining == 1 and any("400 input rejected" in e for e in report.errors)


def test_the_sensor_waits_after_a_run_that_found_the_provider_down(svc, signet, instance, monkeypatch):
    remember(svc, RememberRequest(content=FACTS[0]))
    with svc.db.write() as conn:  # older than the write-behind grace
        conn.execute("UPDATE memories SET updated_at = '2000-01-01T00:00:00.000Z'")
    # The pipeline's embedder is an Ollama server that is not there.
    monkeypatch.setenv("SIGNET_EMBEDDING__PROVIDER", "ollama")
    monkeypatch.setenv("SIGNET_EMBEDDING__BASE_URL", "http://127.0.0.1:9")
    assert len(tick(signet, instance).run_requests) == 1
    done = dg.materialize([embedding_refresh], instance=instance, resources={"signet": signet})
    meta = done.get_asset_materialization_events()[0].event_specific_data.materialization.metadata
    assert "unavailable" in meta["skipped"].value
    assert "provider down" in tick(signet, instance).skip_reason.skip_message


def test_unavailable_provider_skips_the_cycle(make_service, embedder):
    flaky = FlakyEmbedder(embedder, fail_after=0)
    svc = make_service(flaky)
    remember(svc, RememberRequest(content=FACTS[0]))
    report = run_refresh(svc)
    assert report.skipped and "unavailable" in report.skipped and report.refreshed == 0 and report.batches == 0


def test_a_run_stops_at_its_row_cap_newest_first(svc):
    remember_many(svc, [RememberRequest(content=c) for c in FACTS])
    with svc.db.write() as conn:
        conn.execute("DELETE FROM embeddings")
        conn.execute("UPDATE memories SET updated_at = printf('2025-01-%02dT00:00:00.000Z', rid)")
    report = run_refresh(svc, max_rows=5, batch_size=2)
    assert report.refreshed == 5 and report.stopped == "rows cap" and report.remaining == len(FACTS) - 5
    newest = [r[0] for r in svc.db.reader().execute("SELECT id FROM memories ORDER BY updated_at DESC LIMIT 5")]
    assert [p[0] for p in report.preview] == newest
    assert run_refresh(svc, time_budget_s=0.0).refreshed == 0  # a spent budget writes nothing


def test_backfill_touches_only_its_window_and_force_reembeds_current_vectors(svc):
    remember_many(svc, [RememberRequest(content=c, createdAt=f"2025-03-{10 + i % 3:02d}T12:00:00Z")
                        for i, c in enumerate(FACTS[:9])])
    with svc.db.write() as conn:
        conn.execute("DELETE FROM embeddings")
    report = run_backfill(svc, "2025-03-11T00:00:00.000Z", "2025-03-12T00:00:00.000Z")
    assert report.found["missing"] == 3 and report.refreshed == 3
    assert svc.db.reader().execute("SELECT count(*) FROM embeddings").fetchall() == [(3,)]

    forced = run_backfill(svc, "2025-03-11T00:00:00.000Z", "2025-03-12T00:00:00.000Z", force=True)
    assert sum(forced.found.values()) == 0 and forced.refreshed == 3
    assert {p[1] for p in forced.preview} == {"current"}


def test_vec0_keeps_only_the_configured_model_at_the_same_dimension(svc):
    remember(svc, RememberRequest(content=FACTS[0]))
    with svc.db.write() as conn:
        assert emb_store.ensure_vec_table(conn, 384, "other-model")  # same dimension, new model: rebuilt
        assert conn.execute("SELECT count(*) FROM vec_embeddings").fetchall() == [(0,)]
        emb_store.upsert(conn, content_hash="h-old", vector=np.ones(384, np.float32), model="retired", source_id=None,
                         now="2025-01-01T00:00:00.000Z")
        emb_store.upsert(conn, content_hash="h-new", vector=np.ones(384, np.float32), model="other-model",
                         source_id=None, now="2025-01-01T00:00:00.000Z")
        held = [r[0] for r in conn.execute("SELECT e.content_hash FROM vec_embeddings v JOIN embeddings e "
                                           "ON e.id = v.rowid")]
        assert held == ["h-new"]
        assert not emb_store.ensure_vec_table(conn, 384, "other-model")


@pytest.mark.parametrize("size", [1, 20])
def test_batch_size_sets_the_provider_call_size(make_service, embedder, size):
    flaky = FlakyEmbedder(embedder, fail_after=10**6)
    svc = make_service(flaky)
    remember_many(svc, [RememberRequest(content=c) for c in FACTS])
    with svc.db.write() as conn:
        conn.execute("DELETE FROM embeddings")
    flaky.status(refresh=True)
    flaky.calls = 0
    report = run_refresh(svc, batch_size=size)
    assert report.batches == flaky.calls == -(-len(FACTS) // size)


# -- Dagster: assets, jobs, sensor ------------------------------------------------------------------

@pytest.fixture
def instance():
    with dg.instance_for_test() as inst:
        yield inst


@pytest.fixture
def signet(workspace):
    return SignetStoreResource(workspace=str(workspace), embedder=EmbedderResource())


def metadata(result) -> dict:
    (event,) = result.get_asset_materialization_events()
    return {k: v.value for k, v in event.event_specific_data.materialization.metadata.items()}


def tick(signet, instance):
    with dg.build_sensor_context(instance=instance, resources={"signet": signet}) as ctx:
        return embedding_refresh_sensor(ctx)


def test_refresh_asset_after_a_model_switch_reports_readable_metadata(svc, signet, instance):
    remember_many(svc, [RememberRequest(content=c) for c in FACTS])
    with svc.db.write() as conn:  # the vectors were made by a model no longer configured
        conn.execute("UPDATE embeddings SET model = 'retired-model'")
        conn.execute("DELETE FROM embeddings WHERE rowid = 1")
        conn.execute("UPDATE memories SET updated_at = '2000-01-01T00:00:00.000Z'")  # past the write-behind grace
    result = dg.materialize([embedding_refresh], resources={"signet": signet}, instance=instance,
                            run_config=dg.RunConfig(ops={"embedding_refresh": {"config": {"batch_size": 4}}}))
    assert result.success
    meta = metadata(result)
    assert (meta["found_missing"], meta["found_model_switch"], meta["found_stale"]) == (1, len(FACTS) - 1, 0)
    assert (meta["refreshed"], meta["failed"], meta["remaining"], meta["batches"]) == (len(FACTS), 0, 0, 3)
    assert meta["model"] == "all-MiniLM-L6-v2" and meta["dimensions"] == 384 and meta["stopped"] == "done"
    assert meta["rows_per_s"] > 0 and "model_switch" in meta["preview"]
    assert svc.db.reader().execute("SELECT DISTINCT model FROM embeddings").fetchall() == [("all-MiniLM-L6-v2",)]


def test_the_scheduled_refresh_leaves_memories_of_the_last_minute_to_the_write_behind_embedder(
        svc, signet, instance):
    """During an ingest the API writes vectors behind its answers; the scheduled run re-embedded those
    memories too, newest first, spending the drain's CPU on vectors about to land anyway."""
    old, young = (remember(svc, RememberRequest(content=c)).id for c in FACTS[:2])
    with svc.db.write() as conn:
        conn.execute("DELETE FROM embeddings")
        conn.execute("UPDATE memories SET embedding_model = NULL")
        conn.execute("UPDATE memories SET updated_at = '2000-01-01T00:00:00.000Z' WHERE id = ?", (old,))
    meta = metadata(dg.materialize([embedding_refresh], resources={"signet": signet}, instance=instance))
    assert (meta["refreshed"], meta["remaining"]) == (1, 1)
    models = dict(svc.db.reader().execute("SELECT id, embedding_model FROM memories"))
    assert models[old] == svc.embedder.model and models[young] is None
    assert run_refresh(svc).refreshed == 1  # an operator's re-embed takes every one


def test_refresh_asset_does_nothing_while_the_tracker_is_disabled(svc, signet, instance, monkeypatch):
    remember(svc, RememberRequest(content=FACTS[0]))
    with svc.db.write() as conn:
        conn.execute("DELETE FROM embeddings")
    monkeypatch.setenv("SIGNET_MEMORY__PIPELINEV2__EMBEDDING_TRACKER__ENABLED", "false")
    meta = metadata(dg.materialize([embedding_refresh], resources={"signet": signet}, instance=instance))
    assert meta == {"enabled": False, "refreshed": 0}
    assert "enabled is false" in tick(signet, instance).skip_reason.skip_message


def test_sensor_requests_a_run_only_for_work_and_never_beside_one_in_flight(svc, signet, instance):
    remember(svc, RememberRequest(content=FACTS[0]))
    idle = tick(signet, instance)
    assert not idle.run_requests and "every live memory has" in idle.skip_reason.skip_message
    with svc.db.write() as conn:
        conn.execute("UPDATE embeddings SET model = 'retired-model'")
    # A memory changed within the last minute may have its vector on its way (write-behind): no run.
    assert "every live memory has" in tick(signet, instance).skip_reason.skip_message
    with svc.db.write() as conn:
        conn.execute("UPDATE memories SET updated_at = '2000-01-01T00:00:00.000Z'")
    wanted = tick(signet, instance)
    assert len(wanted.run_requests) == 1 and wanted.run_requests[0].job_name in (None, "refresh_embeddings")

    instance.add_run(dg.DagsterRun(job_name=embedding_refresh_job.name, status=dg.DagsterRunStatus.STARTED))
    assert "already queued or running" in tick(signet, instance).skip_reason.skip_message


def test_backfill_partition_reembeds_only_that_day(svc, signet, instance):
    remember_many(svc, [RememberRequest(content=c, createdAt=f"2025-03-{10 + i % 3:02d}T12:00:00Z")
                        for i, c in enumerate(FACTS[:6])])
    with svc.db.write() as conn:
        conn.execute("DELETE FROM embeddings")
    # The days since this store's oldest memory, as a code location loaded on it defines them.
    embedding_backfill = embedding_backfill_over(dg.DailyPartitionsDefinition(start_date="2025-03-10", end_offset=1))
    defs = dg.Definitions(assets=[embedding_backfill], jobs=[embedding_backfill_job], resources={"signet": signet})
    result = defs.resolve_job_def("backfill_embeddings").execute_in_process(partition_key="2025-03-11",
                                                                            instance=instance)
    assert result.success
    meta = metadata(result)
    assert meta["partition_range"] == "2025-03-11T00:00:00.000Z .. 2025-03-12T00:00:00.000Z"
    assert (meta["found_missing"], meta["refreshed"], meta["remaining"]) == (2, 2, 0)
    forced = dg.materialize([embedding_backfill], partition_key="2025-03-11", resources={"signet": signet},
                            instance=instance, run_config=dg.RunConfig(ops={"embedding_backfill": {"config": {
                                "force": True}}}))
    assert metadata(forced)["refreshed"] == 2 and metadata(forced)["force"] is True
    assert svc.db.reader().execute("SELECT count(*) FROM embeddings").fetchall() == [(2,)]
