"""The extraction pipeline on real Dagster: materialize, sensor ticks, checks, backfill, end to end."""

from datetime import datetime, timezone

import dagster as dg
import pytest

from signet_pipeline.assets.extraction import (
    BATCH_IO, derived_facts, memory_decisions, memory_extractions, reextracted_facts,
)
from signet_pipeline.definitions import defs
from signet_pipeline.memory.models import RememberRequest
from signet_pipeline.memory.remember import remember
from signet_pipeline.pipeline.queue import JobQueue
from signet_pipeline.resources import EmbedderResource, LlmResource, SignetStoreResource
from signet_pipeline.sensors import extract_jobs_sensor
from signet_pipeline.store import jobs as job_store
from tests.conftest import recall as api_recall
from tests.conftest import remember as api_remember

FACTS = "Nicholai prefers tabs over spaces. We decided to use PostgreSQL for Signet."


@pytest.fixture
def instance():
    with dg.instance_for_test() as inst:
        yield inst


@pytest.fixture
def resources(workspace):
    return {"signet": SignetStoreResource(workspace=str(workspace), embedder=EmbedderResource()),
            "llm": LlmResource(), BATCH_IO: dg.InMemoryIOManager()}


def tick(resources, instance, cursor=None):
    with dg.build_sensor_context(instance=instance, cursor=cursor, resources={"signet": resources["signet"]}) as ctx:
        return extract_jobs_sensor(ctx)


def test_materializing_the_extraction_assets_writes_facts_and_reports_metadata(svc, resources, instance):
    sources = [remember(svc, RememberRequest(content=FACTS)).id,
               remember(svc, RememberRequest(content="Alice works at Google in Berlin. She likes tea.")).id]
    result = dg.materialize([memory_extractions, memory_decisions, derived_facts], resources=resources,
                            instance=instance)
    assert result.success
    meta = {m.asset_key.path[-1]: m.metadata for m in result.get_asset_materialization_events()
            for m in [m.event_specific_data.materialization]}
    assert meta["memory_extractions"]["jobs_leased"].value == 2
    assert meta["memory_extractions"]["facts_extracted"].value == 4
    assert meta["memory_extractions"]["provider"].value == "rules"
    assert meta["memory_decisions"]["proposed_add"].value == 4
    assert meta["derived_facts"]["facts_written"].value == 3  # "She likes tea." is below the write floor
    assert meta["derived_facts"]["skip_reasons"].value == {"low_fact_confidence": 1}
    assert "PostgreSQL" in meta["derived_facts"]["written_preview"].value
    statuses = job_store.counts_by_status(svc.db.reader(), "extract")
    assert statuses == {"completed": 2}
    assert {r[0] for r in svc.db.reader().execute("SELECT source_memory_id FROM memories WHERE who = 'pipeline-v2'")} \
        == set(sources)


def test_sensor_requests_one_run_per_batch_with_run_keys_and_a_cursor(svc, resources, instance, monkeypatch):
    skipped = tick(resources, instance)
    assert not skipped.run_requests and "no due extract jobs" in skipped.skip_reason.skip_message
    jobs = [remember(svc, RememberRequest(content=f"Service number {i} listens on port {3000 + i}")).jobId
            for i in range(5)]
    monkeypatch.setenv("SIGNET_MEMORY__PIPELINEV2__WORKER__BATCH_SIZE", "2")
    result = tick(resources, instance)
    assert [r.run_key for r in result.run_requests] == [
        f"extract-{jobs[0]}-{jobs[1]}", f"extract-{jobs[2]}-{jobs[3]}", f"extract-{jobs[4]}-{jobs[4]}"]
    assert result.run_requests[0].run_config["ops"]["memory_extractions"]["config"]["job_ids"] == jobs[:2]
    assert result.cursor == str(jobs[-1])
    # Same state, later tick: those jobs are planned already; nothing new to request.
    again = tick(resources, instance, cursor=result.cursor)
    assert not again.run_requests and again.cursor == result.cursor
    # A failed job is due again after its backoff: one retry run, keyed by its attempts.
    queue = JobQueue(svc.db)
    leased = queue.lease(["extract"], ids=[jobs[0]])[0]
    queue.fail(leased, "provider down")
    with svc.db.write() as conn:
        conn.execute("UPDATE memory_jobs SET not_before = NULL WHERE id = ?", (jobs[0],))
    retry = tick(resources, instance, cursor=result.cursor)
    assert len(retry.run_requests) == 1 and retry.run_requests[0].run_key.startswith("extract-retry-")
    assert tick(resources, instance, cursor=result.cursor).run_requests[0].run_key == retry.run_requests[0].run_key


def test_sensor_reaps_stale_leases_and_skips_without_a_store(svc, resources, instance, tmp_path):
    job_id = remember(svc, RememberRequest(content="The nightly backup runs at 02:00 UTC")).jobId
    JobQueue(svc.db).lease(["extract"])
    with svc.db.write() as conn:
        conn.execute("UPDATE memory_jobs SET leased_at = '2000-01-01T00:00:00.000Z' WHERE id = ?", (job_id,))
    result = tick(resources, instance, cursor=str(job_id))
    assert job_store.get(svc.db.reader(), job_id)["status"] == "pending"
    assert result.run_requests and result.run_requests[0].run_key.startswith("extract-retry-")
    empty = {"signet": SignetStoreResource(workspace=str(tmp_path / "nothing-here"))}
    assert "no memory store yet" in tick(empty, instance).skip_reason.skip_message


def test_remember_over_http_then_sensor_run_then_recall_shows_the_derived_fact(client, workspace, instance,
                                                                              monkeypatch):
    monkeypatch.setenv("SIGNET_WORKSPACE", str(workspace))  # the code location's resources read it, as in `signet up`
    source = api_remember(client, "Our team decided to deploy Signet on Fly.io in Frankfurt. Standups are at 9:30.")
    resources = defs.get_repository_def().get_top_level_resources()
    with dg.build_sensor_context(instance=instance, resources=resources) as ctx:
        sensor_result = defs.resolve_sensor_def("extract_jobs_sensor")(ctx)
    assert len(sensor_result.run_requests) == 1
    request = sensor_result.run_requests[0]
    job = defs.resolve_job_def("extract_memories")
    run = job.execute_in_process(run_config=request.run_config, instance=instance, tags=request.tags)
    assert run.success
    checks = {e.check_name: e.passed for e in run.get_asset_check_evaluations()}
    assert checks == {"derived_facts_provenance": True, "queue_health": True, "provider_health": True,
                      "index_health": True, "mutation_health": True}
    hits = api_recall(client, "where do we deploy signet")["results"]
    fact = next(h for h in hits if h["source_memory_id"] == source["id"])
    assert fact["content"] == "Our team decided to deploy Signet on Fly.io in Frankfurt." and fact["who"] == "pipeline-v2"
    assert client.get(f"/api/memory/{source['id']}").json()["extraction_status"] == "completed"


def test_checks_fail_on_broken_provenance_and_dead_jobs(svc, resources, instance):
    source = remember(svc, RememberRequest(content=FACTS))
    dead = remember(svc, RememberRequest(content="The staging database lives in Frankfurt")).jobId
    with svc.db.write() as conn:
        conn.execute("UPDATE memory_jobs SET status = 'dead' WHERE id = ?", (dead,))
    assert dg.materialize([memory_extractions, memory_decisions, derived_facts], resources=resources,
                          instance=instance).success
    with svc.db.write() as conn:  # a hard delete outside the API breaks provenance
        conn.execute("DELETE FROM memories WHERE id = ?", (source.id,))
    from signet_pipeline.checks import derived_facts_provenance, queue_health

    result = dg.materialize([memory_extractions, memory_decisions, derived_facts, derived_facts_provenance,
                             queue_health], resources=resources, instance=instance)
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert not checks["derived_facts_provenance"].passed
    assert checks["derived_facts_provenance"].metadata["orphans_found"].value == 2
    assert not checks["queue_health"].passed  # 1 dead of 2 finished jobs: far above the 1% dead rate
    assert checks["queue_health"].metadata["deadJobs"].value == 1


def test_reextraction_backfill_partition_is_idempotent(svc, resources, instance):
    source = remember(svc, RememberRequest(content=FACTS, createdAt="2025-03-14T10:00:00Z"))
    remember(svc, RememberRequest(content="A memory from another day entirely", createdAt="2025-03-15T10:00:00Z"))
    written = []
    for _ in range(2):
        result = dg.materialize([reextracted_facts], partition_key="2025-03-14", resources=resources,
                                instance=instance)
        meta = result.get_asset_materialization_events()[0].event_specific_data.materialization.metadata
        assert meta["memories_reprocessed"].value == 1
        written.append(meta["facts_written"].value)
    assert written == [2, 0]
    events = [r[0] for r in svc.db.reader().execute(
        "SELECT event FROM memory_history WHERE memory_id = ? AND event = 'reextracted'", (source.id,))]
    assert len(events) == 2
    assert datetime.now(timezone.utc).year >= 2025
