"""The embeddings domain's schedule: the daily recompute of stale cached projections."""

import dagster as dg

from signet_pipeline.defs.embeddings.jobs import projection_job
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.stages.projection import outstanding


@dg.schedule(name="projection_refresh_schedule", job=projection_job, cron_schedule="45 4 * * *",
             default_status=dg.DefaultScheduleStatus.RUNNING,
             description="Once a day (04:45), recompute cached projections whose set of memories changed, so the "
                         "next GET is served at once; skips when every cached projection is fresh.")
def projection_refresh_schedule(context: dg.ScheduleEvaluationContext, signet: SignetStoreResource):
    settings = signet.settings()
    with signet.database() as db:
        stale = outstanding(db, settings.embedding.model).stale_cached if db is not None else []
    if not stale:
        return dg.SkipReason("every cached projection is fresh (or none was ever requested)")
    return dg.RunRequest(tags={"signet/projection": ",".join(f"{d}d" for d in stale)})
