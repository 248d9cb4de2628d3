"""The graph domain's schedule: entity communities once a day."""

import dagster as dg

from signet_pipeline.defs.graph.jobs import communities_job

communities_schedule = dg.ScheduleDefinition(
    job=communities_job, cron_schedule="15 3 * * *", default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Entity communities once a day (03:15); materialize entity_communities by hand for an update now.",
)
