"""Embedding assets: the refresh (spec "Embedding Tracker") and its daily-partitioned backfill.

`embedding_refresh` re-embeds, newest-updated first, live memories whose vector is missing, under
an old content hash or of another model/dimension, up to 5,000 rows or 120 s per run.
`embedding_refresh_sensor` requests a run only when there is work and no refresh run is in flight:
the spec's 5 s poll (embeddingTracker.pollMs) would launch a Dagster run (seconds of overhead) every
5 s whether or not anything changed; a 60 s tick costs one indexed query that stops at the first
memory needing a vector, and each run drains many batches.
`embedding_backfill` lets an operator re-embed chosen days of history (memory created_at) from the
UI, optionally every memory of those days (`force`).
"""

import time
from datetime import datetime, timedelta, timezone

import dagster as dg
from pydantic import Field

from signet_pipeline.defs.assets.metadata import IN_FLIGHT, table
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.stages.embedding_refresh import MAX_ROWS, TIME_BUDGET_S, RefreshReport, run_backfill, run_refresh
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.timeutil import to_iso

GROUP = "embeddings"
BACKFILL_START = "2020-01-01"  # imports carry back-dated createdAt; the live refresh covers any date
SENSOR_INTERVAL_S = 60
PROVIDER_BACKOFF_S = 600
class RefreshConfig(dg.Config):
    max_rows: int = Field(MAX_ROWS, ge=1, le=1_000_000, description="memories re-embedded at most in this run")
    time_budget_s: float = Field(TIME_BUDGET_S, gt=0, le=3600, description="no new batch starts after this")
    batch_size: int = Field(0, ge=0, le=512, description="texts per provider call; 0 = embeddingTracker.batchSize")


class BackfillConfig(dg.Config):
    force: bool = Field(False, description="re-embed every memory of the days, not only missing/stale ones")
    batch_size: int = Field(0, ge=0, le=512, description="texts per provider call; 0 = embeddingTracker.batchSize")


def _metadata(report: RefreshReport) -> dict:
    return {
        "model": report.model, "dimensions": report.dimensions or 0, "skipped": report.skipped or "no",
        "found_missing": report.found.get("missing", 0), "found_stale": report.found.get("stale", 0),
        "found_model_switch": report.found.get("model_switch", 0),
        "refreshed": report.refreshed, "vectors_written": report.vectors, "failed": report.failed,
        "orphan_vectors_removed": report.orphans_removed, "remaining": report.remaining,
        "stopped": report.stopped or "done", "batches": report.batches, "rows_per_s": report.rows_per_s,
        "elapsed_s": report.elapsed_s, "embed_ms": report.embed_ms, "write_ms": report.write_ms,
        "errors": dg.MetadataValue.json(report.errors[:10]),
        "preview": table(["memory", "reason", "content"], [list(p) for p in report.preview], empty="nothing refreshed"),
    }


def _log(context: dg.AssetExecutionContext, report: RefreshReport) -> None:
    if report.skipped:
        context.log.warning("refresh skipped: %s", report.skipped)
    if report.failed:
        context.log.warning("%d memories not re-embedded (provider failure): %s", report.failed, report.errors[-1])
    if report.remaining:
        context.log.info("%d memories still need a vector (%s); the sensor requests the next run",
                         report.remaining, report.stopped or "done")


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"},
    description="Embedding refresh: re-embeds live memories whose vector is missing, was written under an older "
                "content hash, or is of another model or dimension (model switch), most recently updated first, in "
                "provider calls of embeddingTracker.batchSize, one short write per batch (vectors, vec0 index, "
                "memories.embedding_model; orphaned old-hash vectors removed). Up to 5,000 memories or 120 s per run; "
                "a provider failure ends the run and is counted.",
)
def embedding_refresh(context: dg.AssetExecutionContext, config: RefreshConfig,
                      signet: SignetStoreResource) -> dg.MaterializeResult:
    if not signet.settings().pipeline.embedding_tracker.enabled:
        context.log.info("the tracker is disabled (memory.pipelineV2.embeddingTracker.enabled = false)")
        return dg.MaterializeResult(metadata={"enabled": False, "refreshed": 0})
    report = run_refresh(signet.service(), batch_size=config.batch_size or None, max_rows=config.max_rows,
                         time_budget_s=config.time_budget_s)
    _log(context, report)
    return dg.MaterializeResult(metadata={"enabled": True, **_metadata(report)})


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"},
    partitions_def=dg.DailyPartitionsDefinition(start_date=BACKFILL_START, end_offset=1),
    backfill_policy=dg.BackfillPolicy.single_run(),
    description="Embedding backfill over history: re-embeds the memories created in the selected days (UTC) that "
                "need a vector (missing, old hash, other model or dimension), or all of them with `force`. A range of "
                "days runs as one run; no row cap.",
)
def embedding_backfill(context: dg.AssetExecutionContext, config: BackfillConfig,
                       signet: SignetStoreResource) -> dg.MaterializeResult:
    window = context.partition_time_window
    start, end = (to_iso(t.astimezone(timezone.utc)) for t in (window.start, window.end))
    report = run_backfill(signet.service(), start, end, force=config.force, batch_size=config.batch_size or None)
    _log(context, report)
    return dg.MaterializeResult(metadata={"partition_range": f"{start} .. {end}", "force": config.force,
                                          **_metadata(report)})


embedding_refresh_job = dg.define_asset_job(
    "refresh_embeddings", selection=dg.AssetSelection.assets(embedding_refresh),
    description="One embedding refresh run (up to 5,000 memories or 120 s). Requested by embedding_refresh_sensor "
                "when memories need a vector; launch it by hand after switching the embedding model.",
)

embedding_backfill_job = dg.define_asset_job(
    "backfill_embeddings", selection=dg.AssetSelection.assets(embedding_backfill),
    description="Re-embed the memories of chosen days (daily partitions by created_at); `force` re-embeds all of them.",
)


def _provider_backoff(instance: dg.DagsterInstance) -> str | None:
    """Why to wait: the last refresh found the provider down less than PROVIDER_BACKOFF_S ago
    (a run a minute would only repeat the health check)."""
    event = instance.get_latest_materialization_event(embedding_refresh.key)
    materialization = event.asset_materialization if event else None
    if materialization is None or time.time() - event.timestamp > PROVIDER_BACKOFF_S:
        return None
    meta = materialization.metadata
    skipped, stopped = meta.get("skipped"), meta.get("stopped")
    down = (skipped is not None and skipped.value != "no") or (stopped is not None and stopped.value == "provider failure")
    return f"the last refresh found the embedding provider down; next try after {PROVIDER_BACKOFF_S // 60} min" \
        if down else None


@dg.sensor(name="embedding_refresh_sensor", job=embedding_refresh_job, minimum_interval_seconds=SENSOR_INTERVAL_S,
           default_status=dg.DefaultSensorStatus.RUNNING,
           description="Every 60 s: requests a refresh_embeddings run when a live memory lacks a vector of the "
                       "configured model (missing, old hash, model switch) and no refresh run is queued or running; "
                       "waits 10 min after a run that found the embedding provider down.")
def embedding_refresh_sensor(context: dg.SensorEvaluationContext, signet: SignetStoreResource) -> dg.SensorResult:
    settings = signet.settings()
    if not settings.pipeline.embedding_tracker.enabled:
        return dg.SensorResult(skip_reason="memory.pipelineV2.embeddingTracker.enabled is false")
    if settings.embedding.provider == "none":
        return dg.SensorResult(skip_reason="embeddings are disabled (embedding.provider: none)")
    in_flight = context.instance.get_runs_count(dg.RunsFilter(job_name=embedding_refresh_job.name, statuses=IN_FLIGHT))
    if in_flight:
        return dg.SensorResult(skip_reason="a refresh run is already queued or running")
    backoff = _provider_backoff(context.instance)
    if backoff:
        return dg.SensorResult(skip_reason=backoff)
    with signet.database() as db:
        if db is None or not job_store.queue_ready(db.reader()):
            return dg.SensorResult(skip_reason=f"no memory store yet at {settings.db_path}")
        # A memory younger than a minute may have its vector on its way (written behind remember).
        work = emb_store.has_backlog(db.reader(), model=settings.embedding.model,
                                     dimensions=settings.embedding.dimensions,
                                     updated_before=to_iso(datetime.now(timezone.utc) - timedelta(seconds=60)))
    if not work:
        return dg.SensorResult(skip_reason=f"every live memory has a {settings.embedding.model} vector (or changed "
                                           "within the last minute: its vector may be on its way)")
    return dg.SensorResult(run_requests=[dg.RunRequest(tags={"signet/trigger": "embedding-backlog"})])
