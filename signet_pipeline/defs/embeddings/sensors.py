"""The embeddings domain's sensors.

`embedding_refresh_sensor` requests a refresh run only when there is work and no refresh run is in
flight: the spec's 5 s poll (embeddingTracker.pollMs) would launch a Dagster run (seconds of
overhead) every 5 s whether or not anything changed; a 60 s tick costs one indexed query that stops
at the first memory needing a vector, and each run drains many batches.
`projection_request_sensor` turns the projection requests the API recorded into runs.
"""

import time

import dagster as dg

from signet_pipeline.defs.embeddings.assets import embedding_refresh
from signet_pipeline.defs.embeddings.jobs import embedding_refresh_job, projection_job
from signet_pipeline.defs.queue.sensors import IN_FLIGHT
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.stages.embedding_refresh import grace_cutoff
from signet_pipeline.stages.projection import outstanding
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import jobs as job_store

SENSOR_INTERVAL_S = 60
PROVIDER_BACKOFF_S = 600


def _provider_backoff(instance: dg.DagsterInstance) -> str | None:
    """Why to wait: the last refresh found the provider down less than PROVIDER_BACKOFF_S ago
    (a run a minute would only repeat the health check)."""
    event = instance.get_latest_materialization_event(embedding_refresh.key)
    if event is None or event.asset_materialization is None or time.time() - event.timestamp > PROVIDER_BACKOFF_S:
        return None
    materialization = event.asset_materialization
    meta = materialization.metadata
    skipped, stopped = meta.get("skipped"), meta.get("stopped")
    down = ((skipped is not None and skipped.value != "no")
            or (stopped is not None and stopped.value == "provider failure"))
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
        # A younger memory may have its vector on its way (written behind remember).
        work = emb_store.has_backlog(db.reader(), model=settings.embedding.model,
                                     dimensions=settings.embedding.dimensions,
                                     updated_before=grace_cutoff())
    if not work:
        return dg.SensorResult(skip_reason=f"every live memory has a {settings.embedding.model} vector (or changed "
                                           "within the last minute: its vector may be on its way)")
    return dg.SensorResult(run_requests=[dg.RunRequest(tags={"signet/trigger": "embedding-backlog"})])


@dg.sensor(name="projection_request_sensor", job=projection_job, minimum_interval_seconds=5,
           default_status=dg.DefaultSensorStatus.RUNNING,
           description="Watches umap_requests (recorded when GET /api/embeddings/projection answers 202) and requests "
                       "one project_embeddings run for the requested dimensions whose cache is not fresh; run key = "
                       "dimensions + request time, and nothing new while a projection run is queued or running.")
def projection_request_sensor(context: dg.SensorEvaluationContext, signet: SignetStoreResource) -> dg.SensorResult:
    settings = signet.settings()
    with signet.database() as db:
        if db is None:
            return dg.SensorResult(skip_reason=f"no memory store yet at {settings.db_path}")
        requested = outstanding(db, settings.embedding.model).requested
    if not requested:
        return dg.SensorResult(skip_reason="no projection requested that is not fresh")
    if context.instance.get_run_records(dg.RunsFilter(job_name=projection_job.name, statuses=IN_FLIGHT), limit=1):
        return dg.SensorResult(skip_reason="a projection run is in flight; pending requests wait for it to finish")
    return dg.SensorResult(run_requests=[dg.RunRequest(
        run_key="projection-" + "-".join(f"{d}d@{at}" for d, at in sorted(requested.items())),
        tags={"signet/projection": ",".join(f"{d}d" for d in sorted(requested))})])
