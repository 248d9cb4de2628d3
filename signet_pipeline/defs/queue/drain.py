"""The drain shell of queue-driven assets and the jobs that run them.

`drain_queue` works a queue batch after batch as one registered, beating worker
(stages/drain/loop.py) and observes memory_jobs as it starts and ends (backlog.py); `DrainConfig` is
the run config every drain asset takes. `drain_job` defines a drain asset's job with the tag
`signet/queue: <queue>` (`memory` for the extract, structural_classify and prospective_index
queues, else the job type); dagster.yaml limits runs to one per value of that tag
(tag_concurrency_limits), so a queue has at most one drain run at a time even when an operator
launches one by hand beside the sensor's.
"""

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import dagster as dg
from pydantic import Field

from signet_pipeline.defs.queue.backlog import drain_observation
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.ops.backlog import backlog
from signet_pipeline.stages.drain.loop import DrainPolicy, DrainReport, Worker, drain_lanes
from signet_pipeline.store.queue import JobQueue

QUEUE_TAG = "signet/queue"
PROGRESS_EVERY_S = 15.0
pipeline_log = logging.getLogger("signet.pipeline")
_DRAIN = ("Launched by {sensor} when jobs are due and no drain run of the queue is in flight; launch it by hand "
          "to drain now (config: max_jobs, budget_s, idle_s).")


class DrainConfig(dg.Config):
    max_jobs: int = Field(default=0, ge=0, le=10_000_000,
                          description="stop after this many jobs; 0 = until nothing is due (or the time budget passes)")
    budget_s: int = Field(default=0, ge=0, le=86_400,
                          description="stop leasing after this many seconds; 0 = memory.pipelineV2.worker.runBudgetMs")
    idle_s: float | None = Field(default=None, ge=0, le=300,
                                 description="wait this long for new jobs before ending; empty = worker.runIdleMs")


def drain_job(name: str, asset: Any, *, queue: str, sensor: str, description: str,
              note: str = "") -> Any:
    """The job that materializes drain asset `asset`, tagged with its queue; its description says
    which sensor launches it (`note` follows that sentence)."""
    return dg.define_asset_job(name, selection=dg.AssetSelection.assets(asset), tags={QUEUE_TAG: queue},
                               description=description + _DRAIN.format(sensor=sensor) + note)


Lane = Callable[[JobQueue], Callable[[int], int]]


def drain_queue(context: dg.AssetExecutionContext, config: DrainConfig, signet: SignetStoreResource,
                job_types: tuple[str, ...], lanes: Sequence[Lane]) -> DrainReport:
    """Work the queues of `job_types` batch after batch as one registered, beating worker named by
    the run id (stages/drain/loop.py); each lane, given the queue, is a function that leases and does
    one batch; several lanes drain at once."""
    svc = signet.service()
    worker_cfg = svc.settings.pipeline.worker
    policy = DrainPolicy.from_settings(worker_cfg, max_jobs=config.max_jobs, budget_s=config.budget_s or None,
                                       idle_s=config.idle_s)
    queue = signet.queue(owner=context.run.run_id)
    name = "+".join(job_types)
    # The run records the backlog it meets and leaves on memory_jobs: a burst drained between two
    # ticks of queue_backlog_sensor would otherwise never reach Dagster.
    start = backlog(svc.db)
    context.log_event(drain_observation(start, job_types))
    started, progress = time.monotonic(), {"last": time.monotonic(), "done": 0}
    lock = threading.Lock()

    def logged(step: Callable[[int], int]) -> Callable[[int], int]:
        def run(limit: int) -> int:
            leased = step(limit)
            with lock:
                progress["done"] += leased
                due_to_log = time.monotonic() - progress["last"] >= PROGRESS_EVERY_S
                if due_to_log:
                    progress["last"] = time.monotonic()
            if due_to_log:
                elapsed = time.monotonic() - started
                context.log.info("%s: %d jobs in %.0f s (%.1f/s), %d due", name, progress["done"], elapsed,
                                 progress["done"] / elapsed, queue.due_count(*job_types))
            return leased
        return run

    def others_queued() -> bool:  # lingering is free only while no other run waits for a slot
        return bool(context.instance.get_run_records(dg.RunsFilter(statuses=[dg.DagsterRunStatus.QUEUED]), limit=1))

    with Worker(svc.db, name, context.run.run_id) as worker:
        report = drain_lanes([logged(lane(queue)) for lane in lanes], policy, batch_size=worker_cfg.batch_size,
                             worker=worker, yield_when=others_queued)
    context.log_event(drain_observation(backlog(svc.db), job_types, started=start, report=report))
    context.log.info("%s: %d jobs in %d batches, %.1f s (%.1f jobs/s); stopped: %s", name, report.jobs,
                     report.batches, report.seconds, report.jobs_per_s, report.stopped)
    # The same line in the service's own log (/api/logs), beside the API's entries.
    pipeline_log.info("%s: %d jobs in %d batches, %.1f s; stopped: %s", name, report.jobs, report.batches,
                      report.seconds, report.stopped,
                      extra={"queue": name, "jobs": report.jobs, "batches": report.batches, "stopped": report.stopped})
    return report
