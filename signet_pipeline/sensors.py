"""Sensors: the queue in memory_jobs becomes Dagster runs (plan in pipeline/batching.py).

One factory, one sensor per job type: `extract` jobs -> extract_memories runs, `structural_classify`
jobs -> classify_entities runs, `prospective_index` jobs -> generate_hints runs, `document_ingest`
jobs -> ingest_documents runs, `session_summary` jobs -> summarize_sessions runs. Each tick also reaps
stale leases of its job type.
"""

from datetime import datetime, timedelta, timezone
from typing import Any, Callable

import dagster as dg

from signet_pipeline.config import load_settings
from signet_pipeline.config_sections import PipelineV2Config
from signet_pipeline.errors import ConfigError
from signet_pipeline.jobs import classify_entities_job, documents_job, extract_memories_job, hints_job, sessions_job
from signet_pipeline.pipeline.batching import plan_runs
from signet_pipeline.pipeline.queue import DOCUMENT_INGEST, EXTRACT, PROSPECTIVE_INDEX, SESSION_SUMMARY, \
    STRUCTURAL_CLASSIFY, JobQueue
from signet_pipeline.resources import SignetStoreResource
from signet_pipeline.store import jobs as job_store
from signet_pipeline.timeutil import to_iso

DUE_SCAN_BATCHES = 10  # one tick plans at most this many batches


def _interval_s(poll_ms: Callable[[PipelineV2Config], int]) -> int:
    """The configured poll interval, at least 1 s (a tick is a gRPC call plus one query)."""
    try:
        return max(1, poll_ms(load_settings().pipeline) // 1000)
    except ConfigError:
        return 2  # the code location still loads; the sensor reports the config error on its tick


def _worker_poll(pipeline: PipelineV2Config) -> int:
    return pipeline.worker.poll_ms


def queue_sensor(*, name: str, job_type: str, job: Any, first_asset: str, description: str,
                 poll_ms: Callable[[PipelineV2Config], int] = _worker_poll) -> dg.SensorDefinition:
    """`job`: what dg.define_asset_job returns; `first_asset` receives the batch's job ids;
    `poll_ms`: the setting that paces the sensor (default memory.pipelineV2.worker.pollMs)."""
    @dg.sensor(name=name, job=job, minimum_interval_seconds=_interval_s(poll_ms),
               default_status=dg.DefaultSensorStatus.RUNNING, description=description)
    def _sensor(context: dg.SensorEvaluationContext, signet: SignetStoreResource) -> dg.SensorResult:
        settings = signet.settings()
        pipeline = settings.pipeline
        cursor = int(context.cursor or 0)
        if not pipeline.enabled:
            return dg.SensorResult(skip_reason="memory.pipelineV2.enabled is false", cursor=str(cursor))
        with signet.database() as db:
            if db is None or not job_store.queue_ready(db.reader()):
                return dg.SensorResult(skip_reason=f"no memory store yet at {settings.db_path}", cursor=str(cursor))
            queue = JobQueue(db, max_attempts=pipeline.worker.max_retries,
                             lease_timeout_ms=pipeline.worker.lease_timeout_ms)
            reaped = queue.reap_stale_leases(job_type)
            due = queue.due(job_type, limit=pipeline.worker.batch_size * DUE_SCAN_BATCHES)
        if reaped:
            context.log.warning("reaped %d stale %s lease(s)", reaped, job_type)
        stranded = to_iso(datetime.now(timezone.utc) - timedelta(milliseconds=pipeline.worker.lease_timeout_ms))
        plans, new_cursor = plan_runs(due, cursor=cursor, batch_size=pipeline.worker.batch_size,
                                      stranded_before=stranded, prefix=job_type.replace("_", "-"))
        if not plans:
            return dg.SensorResult(skip_reason=f"no due {job_type} jobs (reaped {reaped} stale leases)",
                                   cursor=str(new_cursor))
        return dg.SensorResult(
            run_requests=[
                dg.RunRequest(
                    run_key=plan.run_key,
                    run_config=dg.RunConfig(ops={first_asset: {"config": {"job_ids": list(plan.job_ids)}}}),
                    tags={"signet/batch": plan.kind, "signet/jobs": str(len(plan.job_ids))},
                )
                for plan in plans
            ],
            cursor=str(new_cursor),
        )

    return _sensor


extract_jobs_sensor = queue_sensor(
    name="extract_jobs_sensor", job_type=EXTRACT, job=extract_memories_job, first_asset="memory_extractions",
    description="Watches memory_jobs for due `extract` jobs and requests one extract_memories run per batch "
                "(cursor = highest job id planned; run_key per batch, so a batch is never launched twice). Also "
                "the stale-lease reaper: leases older than worker.leaseTimeoutMs go back to pending (or dead).",
)

structural_jobs_sensor = queue_sensor(
    name="structural_jobs_sensor", job_type=STRUCTURAL_CLASSIFY, job=classify_entities_job,
    first_asset="entity_structure",
    description="Watches memory_jobs for due `structural_classify` jobs (one per entity with new facts) and "
                "requests one classify_entities run per batch; reaps their stale leases.",
)

hints_jobs_sensor = queue_sensor(
    name="hints_jobs_sensor", job_type=PROSPECTIVE_INDEX, job=hints_job, first_asset="memory_hints",
    poll_ms=lambda pipeline: pipeline.hints.poll,
    description="Watches memory_jobs for due `prospective_index` jobs (enqueued on write while hints.enabled) and "
                "requests one generate_hints run per batch; reaps their stale leases.",
)

document_jobs_sensor = queue_sensor(
    name="document_jobs_sensor", job_type=DOCUMENT_INGEST, job=documents_job, first_asset="document_ingest",
    poll_ms=lambda pipeline: pipeline.documents.worker_interval_ms,
    description="Watches memory_jobs for due `document_ingest` jobs (queued by POST /api/documents) and requests "
                "one ingest_documents run per batch; reaps their stale leases.",
)

session_jobs_sensor = queue_sensor(
    name="session_jobs_sensor", job_type=SESSION_SUMMARY, job=sessions_job, first_asset="session_summaries",
    description="Watches memory_jobs for due `session_summary` jobs (queued by the session-end hook when it stores a "
                "transcript) and requests one summarize_sessions run per batch; reaps their stale leases.",
)
