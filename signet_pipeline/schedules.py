"""Schedules: periodic graph and maintenance work."""

import dagster as dg

from signet_pipeline.config import load_settings
from signet_pipeline.jobs import communities_job, retention_job

communities_schedule = dg.ScheduleDefinition(
    job=communities_job, cron_schedule="15 3 * * *", default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Entity communities once a day (03:15); materialize entity_communities by hand for an update now.",
)


def retention_cron(interval_hours: int) -> str:
    return "0 * * * *" if interval_hours == 1 else f"0 */{interval_hours} * * *"


# The interval comes from the workspace's settings when the code location loads (a change needs a
# reload of the location in the UI, as any code change does).
retention_schedule = dg.ScheduleDefinition(
    job=retention_job, cron_schedule=retention_cron(load_settings().pipeline.retention.interval_hours),
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Retention sweep every memory.pipelineV2.retention.intervalHours (default 6 h); purges nothing "
                "inside its window.",
)
