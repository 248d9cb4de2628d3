"""The maintenance domain's schedules: retention sweep, maintenance cycle and daily backup.

Their intervals come from the workspace's settings when the code location loads (a change needs a
reload of the location in the UI, as any code change does)."""

import dagster as dg

from signet_pipeline.config import load_settings
from signet_pipeline.defs.maintenance.jobs import backup_job, maintenance_job, retention_job


def every_minutes_cron(interval_ms: int) -> str:
    """Cron for an interval in ms: every N minutes below an hour, else every N hours (whole units)."""
    minutes = max(1, interval_ms // 60_000)
    if minutes < 60:
        return f"*/{minutes} * * * *"
    return "0 * * * *" if minutes < 120 else f"0 */{min(23, minutes // 60)} * * *"


_settings = load_settings()

retention_schedule = dg.ScheduleDefinition(
    job=retention_job, cron_schedule=every_minutes_cron(_settings.pipeline.retention.interval_hours * 3_600_000),
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Retention sweep every memory.pipelineV2.retention.intervalHours (default 6 h); purges nothing "
                "inside its window.",
)

maintenance_schedule = dg.ScheduleDefinition(
    job=maintenance_job, cron_schedule=every_minutes_cron(_settings.autonomous.maintenance_interval_ms),
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Maintenance cycle every autonomous.maintenanceIntervalMs (default 30 min); does nothing while "
                "autonomous.frozen or not autonomous.enabled.",
)

backup_schedule = dg.build_schedule_from_partitioned_job(
    backup_job, hour_of_day=_settings.backup.hour, minute_of_hour=_settings.backup.minute,
    default_status=dg.DefaultScheduleStatus.RUNNING if _settings.backup.enabled else dg.DefaultScheduleStatus.STOPPED,
    description="Backs up the day that ended, daily at backup.hour:backup.minute (default 02:30); keeps the newest "
                "backup.keep days under <workspace>/backups.",
)
