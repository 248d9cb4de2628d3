"""The extraction pipeline on real Dagster: materialize, sensor ticks, drain runs, dead workers,
checks, backfill, end to end."""

import time
from datetime import UTC, datetime, timedelta

import dagster as dg
import pytest
from dagster._core.remote_origin import InProcessCodeLocationOrigin, RemoteJobOrigin, RemoteRepositoryOrigin
from dagster._core.test_utils import create_run_for_test
from dagster._core.types.loadable_target_origin import LoadableTargetOrigin

from signet_pipeline.defs.definitions import defs
from signet_pipeline.defs.extraction.assets import memory_pipeline, reextracted_facts
from signet_pipeline.defs.extraction.sensors import memory_jobs_sensor
from signet_pipeline.defs.resources import EmbedderResource, LlmResource, SignetStoreResource
from signet_pipeline.models import RememberRequest
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.db import scalar
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import remember
from tests.conftest import recall as api_recall
from tests.conftest import remember as api_remember

NOTHING_DUE = "no due extract/structural_classify/prospective_index jobs"
FACTS = "Nicholai prefers tabs over spaces. We decided to use PostgreSQL for Signet."


@pytest.fixture
def instance():
    with dg.instance_for_test() as inst:
        yield inst


@pytest.fixture
def resources(workspace):
    return {"signet": SignetStoreResource(workspace=str(workspace), embedder=EmbedderResource()),
            "llm": LlmResource()}


def drain_run(instance, event: str, **tags) -> dg.DagsterRun:
    """A run of process_memories moved to a state as the daemon would (PIPELINE_ENQUEUED: queued,
    PIPELINE_START: started)."""
    location = InProcessCodeLocationOrigin(LoadableTargetOrigin(module_name="signet_pipeline.defs.definitions"))
    origin = RemoteJobOrigin(RemoteRepositoryOrigin(location, "__repository__"), "process_memories")
    run = create_run_for_test(instance, job_name="process_memories", tags={"signet/queue": "memory", **tags},
                              remote_job_origin=origin)
    instance.handle_run_event(run.run_id, dg.DagsterEvent(event_type_value=event, job_name="process_memories"))
    return instance.get_run_by_id(run.run_id)


def tick(resources, instance, cursor=None):
    with dg.build_sensor_context(instance=instance, cursor=cursor, resources={"signet": resources["signet"]}) as ctx:
        return memory_jobs_sensor(ctx)


def test_materializing_the_extraction_assets_writes_facts_and_reports_metadata(svc, resources, instance):
    sources = [remember(svc, RememberRequest(content=FACTS)).id,
               remember(svc, RememberRequest(content="Alice works at Google in Berlin. She likes tea.")).id]
    result = dg.materialize([memory_pipeline], resources=resources, instance=instance)
    assert result.success
    meta = {m.asset_key.path[-1]: m.metadata for m in result.get_asset_materialization_events()
            for m in [m.event_specific_data.materialization]}
    assert meta["memory_extractions"]["jobs_leased"].value == 2
    every_job = job_store.counts_by_type(svc.db.reader())  # extract, then the hints and classification it led to
    assert meta["memory_extractions"]["drain_jobs"].value == sum(n.get("completed", 0) for n in every_job.values()) > 2
    assert meta["memory_extractions"]["drain_stopped"].value == "empty"
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


def test_sensor_requests_one_drain_run_and_none_while_it_is_queued_or_running(svc, resources, instance):
    skipped = tick(resources, instance)
    assert not skipped.run_requests and NOTHING_DUE in skipped.skip_reason.skip_message
    for i in range(5):
        remember(svc, RememberRequest(content=f"Service number {i} listens on port {3000 + i}"))
    first = tick(resources, instance)
    assert [r.run_key for r in first.run_requests] == ["memory-drain-1"] and first.cursor == "1"
    assert first.run_requests[0].tags["signet/due"] == "10"  # 5 extract + 5 hints jobs
    run = drain_run(instance, "PIPELINE_ENQUEUED")
    for event in ("PIPELINE_ENQUEUED", "PIPELINE_START"):
        instance.handle_run_event(run.run_id, dg.DagsterEvent(event_type_value=event, job_name="process_memories"))
        assert instance.get_run_by_id(run.run_id).status.value == {"PIPELINE_ENQUEUED": "QUEUED",
                                                                   "PIPELINE_START": "STARTED"}[event]
        waiting = tick(resources, instance, cursor=first.cursor)
        assert not waiting.run_requests and waiting.cursor == "1"
        assert f"run {run.run_id[:8]}" in waiting.skip_reason.skip_message
    instance.report_run_failed(instance.get_run_by_id(run.run_id), message="gone")
    again = tick(resources, instance, cursor=first.cursor)  # that run ended with jobs still due: a new one
    assert [r.run_key for r in again.run_requests] == ["memory-drain-2"]


def test_a_worker_that_stops_beating_has_its_leases_released_and_its_run_failed(svc, resources, instance):
    job_id = remember(svc, RememberRequest(content="The nightly backup runs at 02:00 UTC")).jobId
    run = drain_run(instance, "PIPELINE_START")
    JobQueue(svc.db, owner=run.run_id).lease(["extract"])
    with svc.db.write() as conn:  # its worker registered, then went silent (kill -9)
        job_store.register_worker(conn, owner=run.run_id, job_type="extract", pid=1, host="h",
                                  now="2000-01-01T00:00:00.000Z")
    result = tick(resources, instance, cursor="1")
    job = job_store.get(svc.db.reader(), job_id)
    assert (job["status"], job["lease_owner"], job["attempts"]) == ("pending", None, 1)
    assert job_store.workers(svc.db.reader()) == []
    assert instance.get_run_by_id(run.run_id).status == dg.DagsterRunStatus.FAILURE
    assert [r.run_key for r in result.run_requests] == ["memory-drain-2"]


def test_a_run_left_by_an_earlier_stack_is_failed_and_its_leases_released(svc, resources, instance, monkeypatch):
    job_id = remember(svc, RememberRequest(content="The nightly backup runs at 02:00 UTC")).jobId
    run = drain_run(instance, "PIPELINE_START")
    JobQueue(svc.db, owner=run.run_id).lease(["extract"])
    with svc.db.write() as conn:  # it beat a moment ago: only the stack's start tells it is gone
        job_store.register_worker(conn, owner=run.run_id, job_type="extract", pid=1, host="h",
                                  now=now_iso())
    monkeypatch.setenv("SIGNET_UP_STARTED_AT", str(time.time() + 60))  # `signet up` restarted after that run began
    result = tick(resources, instance, cursor="4")
    assert instance.get_run_by_id(run.run_id).status == dg.DagsterRunStatus.FAILURE
    assert job_store.get(svc.db.reader(), job_id)["status"] == "pending"
    assert job_store.workers(svc.db.reader()) == []
    assert [r.run_key for r in result.run_requests] == ["memory-drain-5"]
    monkeypatch.setenv("SIGNET_UP_STARTED_AT", str(time.time() - 60))  # a run of this stack is left alone
    live = drain_run(instance, "PIPELINE_START")
    assert f"run {live.run_id[:8]}" in tick(resources, instance, cursor="5").skip_reason.skip_message


def test_sensor_reaps_leases_past_the_timeout_and_skips_without_a_store(svc, resources, instance, tmp_path):
    job_id = remember(svc, RememberRequest(content="The nightly backup runs at 02:00 UTC")).jobId
    JobQueue(svc.db).lease(["extract"])
    with svc.db.write() as conn:
        conn.execute("UPDATE memory_jobs SET leased_at = '2000-01-01T00:00:00.000Z' WHERE id = ?", (job_id,))
    result = tick(resources, instance, cursor="3")
    assert job_store.get(svc.db.reader(), job_id)["status"] == "pending"
    assert [r.run_key for r in result.run_requests] == ["memory-drain-4"]
    empty = {"signet": SignetStoreResource(workspace=str(tmp_path / "nothing-here"))}
    assert "no memory store yet" in tick(empty, instance).skip_reason.skip_message


def test_a_long_backlog_is_one_run_that_processes_every_job_once(svc, resources, monkeypatch):
    monkeypatch.setenv("SIGNET_MEMORY__PIPELINEV2__WORKER__BATCH_SIZE", "10")
    coordinator = {"module": "dagster.core.run_coordinator", "class": "QueuedRunCoordinator",
                   "config": {"max_concurrent_runs": 1}}
    sources = [remember(svc, RememberRequest(content=f"Team {i} deploys service{i} to region eu-{i}. "
                                                     f"The on-call rotation for team {i} changes weekly.")).id
               for i in range(60)]
    with dg.instance_for_test(overrides={"run_coordinator": coordinator}) as instance:
        [request] = tick(resources, instance).run_requests
        queued = drain_run(instance, "PIPELINE_ENQUEUED", **request.tags)
        assert not tick(resources, instance, cursor="1").run_requests  # queued behind the limit: not planned again
        run = dg.materialize([memory_pipeline], resources=resources, instance=instance, tags=request.tags)
        instance.report_run_failed(queued, message="superseded by the materialize above")
        assert NOTHING_DUE in tick(resources, instance, cursor="1").skip_reason.skip_message
    meta = {m.asset_key.path[-1]: m.metadata for m in run.get_asset_materialization_events()
            for m in [m.event_specific_data.materialization]}
    assert meta["memory_extractions"]["jobs_leased"].value == 60
    conn = svc.db.reader()
    counts = job_store.counts_by_type(conn)
    assert set(counts) == {"extract", "prospective_index", "structural_classify"}, counts
    assert all(set(by_status) == {"completed"} for by_status in counts.values()), counts  # all in the one run
    assert meta["memory_extractions"]["drain_jobs"].value == sum(n["completed"] for n in counts.values())
    assert counts["extract"] == {"completed": 60}
    assert scalar(conn, "SELECT max(attempts) FROM memory_jobs WHERE job_type = 'extract'") == 1
    assert scalar(conn, "SELECT count(*) FROM (SELECT 1 FROM memories WHERE source_memory_id IS NOT NULL "
                        "GROUP BY source_memory_id, normalized_content HAVING count(*) > 1)") == 0
    # Each source's facts were judged once: one audit row per extracted fact, none twice.
    assert scalar(conn, "SELECT count(*) FROM (SELECT memory_id, new_content FROM memory_history WHERE "
                        "changed_by = 'pipeline-v2' GROUP BY 1, 2 HAVING count(*) > 1)") == 0
    assert {r[0] for r in conn.execute("SELECT DISTINCT source_memory_id FROM memories WHERE who = 'pipeline-v2'")} \
        == set(sources)


def test_remember_over_http_then_sensor_run_then_recall_shows_the_derived_fact(client, workspace, instance,
                                                                              monkeypatch):
    monkeypatch.setenv("SIGNET_WORKSPACE", str(workspace))  # the code location's resources read it, as in `signet up`
    source = api_remember(client, "Our team decided to deploy Signet on Fly.io in Frankfurt. Standups are at 9:30.")
    resources = defs.get_repository_def().get_top_level_resources()
    with dg.build_sensor_context(instance=instance, resources=resources) as ctx:
        sensor_result = defs.resolve_sensor_def("memory_jobs_sensor")(ctx)
    assert len(sensor_result.run_requests) == 1
    request = sensor_result.run_requests[0]
    job = defs.resolve_job_def("process_memories")
    run = job.execute_in_process(instance=instance, tags=request.tags)
    assert run.dagster_run.tags["signet/queue"] == "memory"
    assert run.success
    checks = {e.check_name: e.passed for e in run.get_asset_check_evaluations()}
    assert checks == {"derived_facts_provenance": True, "queue_health": True, "provider_health": True,
                      "index_health": True, "mutation_health": True}
    hits = api_recall(client, "where do we deploy signet")["results"]
    fact = next(h for h in hits if h["source_memory_id"] == source["id"])
    assert fact["content"] == "Our team decided to deploy Signet on Fly.io in Frankfurt."
    assert fact["who"] == "pipeline-v2"
    assert client.get(f"/api/memory/{source['id']}").json()["extraction_status"] == "completed"


def test_checks_fail_on_broken_provenance_and_dead_jobs(svc, resources, instance):
    source = remember(svc, RememberRequest(content=FACTS))
    dead = remember(svc, RememberRequest(content="The staging database lives in Frankfurt")).jobId
    with svc.db.write() as conn:
        conn.execute("UPDATE memory_jobs SET status = 'dead' WHERE id = ?", (dead,))
    assert dg.materialize([memory_pipeline], resources=resources, instance=instance).success
    with svc.db.write() as conn:  # a hard delete outside the API breaks provenance
        conn.execute("DELETE FROM memories WHERE id = ?", (source.id,))
    from signet_pipeline.defs.diagnostics.checks import queue_health
    from signet_pipeline.defs.extraction.checks import derived_facts_provenance

    result = dg.materialize([memory_pipeline, derived_facts_provenance, queue_health], resources=resources,
                            instance=instance)
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert not checks["derived_facts_provenance"].passed
    assert checks["derived_facts_provenance"].metadata["orphans_found"].value == 2
    assert not checks["queue_health"].passed  # 1 dead of 2 finished jobs: far above the 1% dead rate
    assert checks["queue_health"].metadata["deadJobs"].value == 1


def test_reextraction_backfill_partition_is_idempotent(svc, resources, instance):
    # Today: partitions start at the oldest memory of the workspace the code location loaded with.
    today = datetime.now(UTC)
    source = remember(svc, RememberRequest(content=FACTS, createdAt=today.isoformat()))
    remember(svc, RememberRequest(content="A memory from another day entirely",
                                  createdAt=(today - timedelta(days=1)).isoformat()))
    written = []
    for _ in range(2):
        result = dg.materialize([reextracted_facts], partition_key=today.date().isoformat(), resources=resources,
                                instance=instance)
        meta = result.get_asset_materialization_events()[0].event_specific_data.materialization.metadata
        assert meta["memories_reprocessed"].value == 1
        written.append(meta["facts_written"].value)
    assert written == [2, 0]
    events = [r[0] for r in svc.db.reader().execute(
        "SELECT event FROM memory_history WHERE memory_id = ? AND event = 'reextracted'", (source.id,))]
    assert len(events) == 2
