"""The sessions domain's schedule: MEMORY.md synthesis on memory.synthesis.schedule.

The cadence comes from the workspace's settings when the code location loads (a change needs a
reload of the location in the UI, as any code change does)."""

import dagster as dg

from signet_pipeline.config import load_settings
from signet_pipeline.defs.sessions.jobs import memory_md_job

_SYNTHESIS_CRON = {"daily": "0 4 * * *", "weekly": "0 4 * * 1", "on-demand": "0 4 * * *"}
_schedule = load_settings().memory.synthesis.schedule

memory_md_schedule = dg.ScheduleDefinition(
    job=memory_md_job, cron_schedule=_SYNTHESIS_CRON[_schedule],
    default_status=dg.DefaultScheduleStatus.STOPPED if _schedule == "on-demand" else dg.DefaultScheduleStatus.RUNNING,
    description="MEMORY.md synthesis at 04:00, daily or on Mondays (memory.synthesis.schedule); stopped when the "
                "schedule is on-demand (materialize memory_md by hand, or a harness uses /api/hooks/synthesis).",
)
