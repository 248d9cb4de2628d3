"""Whether anything drains the queue: the sensors' heartbeat as /health and /api/status report it,
the stop marker that keeps sensors from launching while `signet up` stops, and a canceled drain
that gives its leases back without spending an attempt."""

import threading
import time
from datetime import UTC, datetime, timedelta

import dagster as dg
import pytest

from signet_pipeline.defs.extraction.sensors import memory_jobs_sensor
from signet_pipeline.defs.resources import EmbedderResource, SignetStoreResource
from signet_pipeline.ops import pipeline_health
from signet_pipeline.stages.drain.loop import DrainPolicy, Worker, drain_lanes
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.db import rows
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.timeutil import to_iso
from tests.conftest import remember


@pytest.fixture(autouse=True)
def fresh_beats(monkeypatch):
    monkeypatch.setattr(pipeline_health, "_last_beat", {})  # the per-process throttle
    monkeypatch.delenv(pipeline_health.STACK_STARTED_ENV, raising=False)


def tick(workspace, instance):
    signet = SignetStoreResource(workspace=str(workspace), embedder=EmbedderResource())
    with dg.build_sensor_context(instance=instance, resources={"signet": signet}) as ctx:
        return memory_jobs_sensor(ctx)


def extract_jobs(svc) -> list[dict]:
    return rows(svc.db.reader(), "SELECT * FROM memory_jobs WHERE job_type = 'extract' ORDER BY id")


def beat_at(svc, seconds_ago: float) -> None:
    when = to_iso(datetime.now(UTC) - timedelta(seconds=seconds_ago))
    with svc.db.write() as conn:
        job_store.record_heartbeat(conn, component="memory_jobs_sensor", pid=1, host="h", now=when)


def test_a_sensor_tick_is_the_heartbeat_health_reports(client, svc, workspace):
    assert client.get("/health").json()["pipeline"]["status"] == "absent"
    with dg.instance_for_test() as instance:
        tick(workspace, instance)
    health = client.get("/health").json()
    assert health["status"] == "healthy"  # the API serves whatever the pipeline does
    assert health["pipeline"]["status"] == "up" and health["pipeline"]["heartbeatAgeS"] < 30
    assert client.get("/api/pipeline/status").json()["drain"]["status"] == "up"


def test_a_silent_pipeline_is_down_in_health_and_status(client, svc):
    beat_at(svc, 600)
    health = client.get("/health").json()
    assert health["pipeline"]["status"] == "down"
    assert "nothing drains memory_jobs" in health["pipeline"]["message"]
    assert client.get("/api/status").json()["pipeline"]["drain"]["status"] == "down"


def test_signet_up_without_a_beat_is_starting_then_down(client, svc, monkeypatch):
    monkeypatch.setenv(pipeline_health.STACK_STARTED_ENV, str(time.time() - 5))
    assert client.get("/health").json()["pipeline"]["status"] == "starting"
    beat_at(svc, 3600)  # a beat from an earlier stack does not make this one up
    assert client.get("/health").json()["pipeline"]["status"] == "starting"
    monkeypatch.setenv(pipeline_health.STACK_STARTED_ENV, str(time.time() - pipeline_health.START_GRACE_S - 1))
    assert client.get("/health").json()["pipeline"]["status"] == "down"


def test_no_drain_run_is_requested_while_signet_up_stops(client, svc, workspace, tmp_path, monkeypatch):
    remember(client, "a memory with an extract job due")
    home = tmp_path / "dagster-home"
    home.mkdir()
    with dg.instance_for_test() as instance:
        monkeypatch.setenv("DAGSTER_HOME", str(home))  # as `signet up` sets it (instance_for_test sets its own)
        pipeline_health.stop_marker(home).touch()
        stopping = tick(workspace, instance)
        assert not stopping.run_requests and "stopping" in stopping.skip_reason.skip_message
        pipeline_health.stop_marker(home).unlink()
        assert len(tick(workspace, instance).run_requests) == 1


def test_a_canceled_drain_gives_its_leases_back_without_spending_an_attempt(client, svc):
    remember(client, "first memory")
    remember(client, "second memory")
    queue = JobQueue(svc.db, max_attempts=3, owner="run-1")
    with pytest.raises(KeyboardInterrupt):
        with Worker(svc.db, "extract", "run-1"):
            assert len(queue.lease(["extract"], limit=2)) == 2
            raise KeyboardInterrupt  # what Dagster raises in a run it was asked to cancel is no Exception either
    jobs = extract_jobs(svc)
    assert [(j["status"], j["attempts"], j["lease_owner"]) for j in jobs] == [("pending", 0, None)] * 2
    assert all(j["error"] == "run canceled mid-job" for j in jobs)


def test_a_crashed_drain_still_spends_the_attempt(client, svc):
    remember(client, "a memory")
    queue = JobQueue(svc.db, max_attempts=3, owner="run-2")
    with pytest.raises(RuntimeError):
        with Worker(svc.db, "extract", "run-2"):
            queue.lease(["extract"], limit=1)
            raise RuntimeError("bug")
    [job] = extract_jobs(svc)
    assert (job["status"], job["attempts"]) == ("pending", 1)


def test_an_interrupted_lane_stops_the_other_lanes_of_its_run():
    other_batches = []
    first_batch_done = threading.Event()

    def main_lane(limit: int) -> int:
        first_batch_done.wait(5)
        raise KeyboardInterrupt

    def other_lane(limit: int) -> int:
        other_batches.append(limit)
        first_batch_done.set()
        time.sleep(0.01)
        return 1  # always work to do: without the halt this lane would run for the whole budget

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        drain_lanes([main_lane, other_lane], DrainPolicy(budget_s=120, idle_s=1), batch_size=10)
    assert time.monotonic() - started < 60  # it returned long before the 120 s budget ran out
    assert other_batches
