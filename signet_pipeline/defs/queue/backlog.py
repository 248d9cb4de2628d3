"""The queue itself as an asset: `memory_jobs` (the job table in memories.db), observed by
`queue_backlog_sensor` (depth, drain rate, ETA per job type) and by every drain run as it starts and
ends (drain.py), whose metadata plots show the backlog over time where an operator looks. A burst
often drains between two sensor ticks: the drain run's own observations still record it."""

from typing import Any

import dagster as dg

from signet_pipeline.defs.metadata import Metadata
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.ops.backlog import Backlog, backlog
from signet_pipeline.stages.drain.loop import DrainReport
from signet_pipeline.store import jobs as job_store

MEMORY_JOBS = dg.AssetSpec(
    "memory_jobs", group_name="queue", kinds={"sqlite"},
    description="The job queue in memories.db (memory_jobs): every background job the API and the stages enqueue. "
                "Observed by queue_backlog_sensor and by each drain run at its start and end: depth, due, leased "
                "and dead jobs, drain rate and ETA per job type, the drain workers alive; a drain run's end adds "
                "what it drained (drain_jobs, drain_jobs_per_s, drain_seconds).",
)
BACKLOG_EVERY_S = 30


def backlog_observation(view: Backlog, observed_by: str = "queue_backlog_sensor") -> dg.AssetObservation:
    metadata: dict[str, Any] = {"observed_by": observed_by, "depth": view.total.depth, "due": view.total.due,
                                "leased": view.total.leased, "dead": view.total.dead,
                                "drain_rate_per_s": view.total.ratePerS, "workers": len(view.workers)}
    if view.total.etaS is not None:
        metadata["eta_s"] = view.total.etaS
    for job_type, q in view.queues.items():
        metadata[f"{job_type}_depth"] = q.depth
        metadata[f"{job_type}_rate_per_s"] = q.ratePerS
    metadata["per_type"] = dg.MetadataValue.md("\n".join(
        ["| job type | depth | due | waiting | leased | dead | jobs/s | ETA s |",
         "|---|---:|---:|---:|---:|---:|---:|---:|"]
        + [f"| {t} | {q.depth} | {q.due} | {q.waiting} | {q.leased} | {q.dead} | {q.ratePerS} | "
           f"{'-' if q.etaS is None else q.etaS} |" for t, q in view.queues.items()]))
    return dg.AssetObservation(asset_key=MEMORY_JOBS.key, metadata=metadata)


def drain_observation(view: Backlog, job_types: tuple[str, ...], *, started: Backlog | None = None,
                      report: DrainReport | None = None) -> dg.AssetObservation:
    """What a drain run saw of the queue as it started or, given the backlog it `started` with and its
    `report`, as it ended: the backlog under the sensor's keys (both feed the same plots), the depth of
    the run's own queues, and at the end that depth at the start and what the run drained, how fast
    and why it stopped."""
    def depth(of: Backlog) -> int:
        return sum(of.queues[t].depth for t in job_types if t in of.queues)

    observed = backlog_observation(view, "drain run end" if report else "drain run start")
    metadata: Metadata = {**observed.metadata, "drain_queues": "+".join(job_types), "drain_depth": depth(view)}
    if started is not None and report is not None:
        metadata |= {"drain_start_depth": depth(started), **report.as_metadata()}
    return dg.AssetObservation(asset_key=MEMORY_JOBS.key, metadata=metadata)


@dg.sensor(name="queue_backlog_sensor", minimum_interval_seconds=BACKLOG_EVERY_S,
           default_status=dg.DefaultSensorStatus.RUNNING,
           description="Every 30 s while the queue holds work (and once when it empties): an observation of the "
                       "memory_jobs asset with its depth, due and leased jobs, drain rate and ETA per job type "
                       "(each drain run adds its own at its start and end). Read the backlog on the memory_jobs "
                       "asset page (its metadata plots) or in GET /api/pipeline/status.")
def queue_backlog_sensor(context: dg.SensorEvaluationContext, signet: SignetStoreResource) -> dg.SensorResult:
    with signet.database() as db:
        if db is None or not job_store.queue_ready(db.reader()):
            return dg.SensorResult(skip_reason="no memory store yet")
        view = backlog(db)
    was_empty = context.cursor in (None, "0")
    if view.total.depth == 0 and was_empty:
        return dg.SensorResult(skip_reason="the queue is empty", cursor="0")
    return dg.SensorResult(asset_events=[backlog_observation(view)], cursor=str(view.total.depth))
