"""The sensor factory that turns a queue in memory_jobs into drain runs (stages/drain/loop.py);
each queue-driven domain builds its sensor with `queue_sensor` beside its job.

A tick:
1. releases the leases of drain workers that stopped beating and fails their Dagster runs (the
   default run launcher cannot tell Dagster that a run worker died);
2. reaps leases older than the lease timeout (a worker that died before it registered);
3. requests one drain run when jobs are due and no run of its queue (tag signet/queue) is queued or
   in flight; run keys count drain runs, so a tick retried after a daemon crash never launches a
   second one.
"""

from collections.abc import Callable
from typing import Any

import dagster as dg

from signet_pipeline.config import load_settings
from signet_pipeline.config_sections import PipelineV2Config
from signet_pipeline.defs.queue.drain import QUEUE_TAG
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.errors import ConfigError
from signet_pipeline.ops import pipeline_health
from signet_pipeline.stages.drain.loop import release_dead_workers, release_worker
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.queue import JobQueue

# dagster/max_runtime of a drain run: its longest life (worker.runMaxMs) plus this, after which run
# monitoring fails a run that never reached its drain loop (its worker never registered, so no
# heartbeat can go stale).
RUNTIME_GRACE_S = 900
# Runs that still hold (or will take) a slot: a sensor waits for these before requesting another.
IN_FLIGHT = [dg.DagsterRunStatus.QUEUED, dg.DagsterRunStatus.NOT_STARTED, dg.DagsterRunStatus.STARTING,
             dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.CANCELING]


def _interval_s(poll_ms: Callable[[PipelineV2Config], int]) -> int:
    """The configured poll interval, at least 1 s (a tick is a gRPC call plus one query)."""
    try:
        return max(1, poll_ms(load_settings().pipeline) // 1000)
    except ConfigError:
        return 2  # the code location still loads; the sensor reports the config error on its tick


def _worker_poll(pipeline: PipelineV2Config) -> int:
    return pipeline.worker.poll_ms


def fail_dead_runs(instance: dg.DagsterInstance, owners: list[str], log: Any) -> None:
    """Mark the Dagster runs of workers that stopped beating as failed, so the UI tells the truth
    and the queue's next drain run may start."""
    for owner in owners:
        run = instance.get_run_by_id(owner)
        if run is not None and run.status in IN_FLIGHT:
            instance.report_run_failed(run, message="its drain worker stopped beating (process gone); "
                                                    "its leases were released for the next run")
            log.warning("run %s failed: its worker stopped beating", owner)


def fail_orphaned_runs(instance: dg.DagsterInstance, records: list[Any], signet: SignetStoreResource,
                       log: Any) -> list[Any]:
    """Runs started by an earlier `signet up` whose Dagster status still says they run: their worker
    processes died with that stack, so they are failed and their leases released now (Dagster's
    default run launcher cannot see a dead run worker). Returns the records still in flight."""
    started_at = pipeline_health.stack_started_at()
    alive = []
    for record in records:
        run = record.dagster_run
        began = record.start_time or record.create_timestamp.timestamp()
        if started_at is None or run.status == dg.DagsterRunStatus.QUEUED or began >= started_at:
            alive.append(record)
            continue
        instance.report_run_failed(run, message="started by an earlier `signet up` whose processes are gone; "
                                                "its leases were released for the next run")
        with signet.database() as db:
            released = release_worker(db, run.run_id, "run left by an earlier signet up") if db else 0
        log.warning("run %s belonged to an earlier stack: failed, %d lease(s) released", run.run_id, released)
    return alive


def queue_sensor(*, name: str, job_types: tuple[str, ...], job: Any, description: str,
                 poll_ms: Callable[[PipelineV2Config], int] = _worker_poll) -> dg.SensorDefinition:
    """`job`: what drain_job returns (its signet/queue tag names the queue); `poll_ms`: the setting
    that paces the sensor (default memory.pipelineV2.worker.pollMs)."""
    queue_tag = job.tags[QUEUE_TAG]
    names = "/".join(job_types)

    @dg.sensor(name=name, job=job, minimum_interval_seconds=_interval_s(poll_ms),
               default_status=dg.DefaultSensorStatus.RUNNING, description=description)
    def _sensor(context: dg.SensorEvaluationContext, signet: SignetStoreResource) -> dg.SensorResult:
        settings = signet.settings()
        pipeline = settings.pipeline
        cursor = int(context.cursor or 0)
        with signet.database() as db:
            if db is None or not job_store.queue_ready(db.reader()):
                return dg.SensorResult(skip_reason=f"no memory store yet at {settings.db_path}", cursor=str(cursor))
            pipeline_health.beat(db, name)  # /health says the pipeline is down when no sensor beats
            if not pipeline.enabled:
                return dg.SensorResult(skip_reason="memory.pipelineV2.enabled is false", cursor=str(cursor))
            if pipeline_health.stopping():
                return dg.SensorResult(skip_reason="signet up is stopping: no new drain run", cursor=str(cursor))
            dead = release_dead_workers(db)
            queue = JobQueue(db, max_attempts=pipeline.worker.max_retries,
                             lease_timeout_ms=pipeline.worker.lease_timeout_ms)
            reaped = sum(queue.reap_stale_leases(t) for t in job_types)
            due = queue.due_count(*job_types)
        fail_dead_runs(context.instance, dead, context.log)
        if reaped:
            context.log.warning("reaped %d stale %s lease(s)", reaped, names)
        if not due:
            return dg.SensorResult(skip_reason=f"no due {names} jobs", cursor=str(cursor))
        live = fail_orphaned_runs(context.instance, list(context.instance.get_run_records(
            filters=dg.RunsFilter(tags={QUEUE_TAG: queue_tag}, statuses=IN_FLIGHT), limit=10)), signet, context.log)
        if live:
            run = live[0].dagster_run
            return dg.SensorResult(skip_reason=f"{due} {names} jobs due; run {run.run_id[:8]} "
                                               f"({run.status.value}) is draining the queue", cursor=str(cursor))
        max_runtime_s = max(pipeline.worker.run_budget_ms, pipeline.worker.run_max_ms) // 1000 + RUNTIME_GRACE_S
        return dg.SensorResult(
            run_requests=[dg.RunRequest(run_key=f"{queue_tag.replace('_', '-')}-drain-{cursor + 1}",
                                        tags={"signet/due": str(due), "dagster/max_runtime": str(max_runtime_s)})],
            cursor=str(cursor + 1),
        )

    return _sensor
