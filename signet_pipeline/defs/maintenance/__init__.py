"""Maintenance domain: keeping the store small, healthy and backed up.

- assets.py: `retention_sweep` (purges past their windows, batch-limited) and `maintenance_cycle`
  (diagnose, then repair through the gate), group maintenance; `store_backup` (daily partitions: a
  database copy and a Parquet snapshot), group backups.
- jobs.py: `retention`, `maintenance`, `backup`.
- schedules.py: `retention_schedule` (retention.intervalHours), `maintenance_schedule`
  (autonomous.maintenanceIntervalMs), `backup_schedule` (backup.hour:backup.minute).
"""

import dagster as dg

from signet_pipeline.defs.maintenance.assets import maintenance_cycle, retention_sweep, store_backup
from signet_pipeline.defs.maintenance.jobs import backup_job, maintenance_job, retention_job
from signet_pipeline.defs.maintenance.schedules import backup_schedule, maintenance_schedule, retention_schedule

defs = dg.Definitions(assets=[retention_sweep, maintenance_cycle, store_backup],
                      jobs=[retention_job, maintenance_job, backup_job],
                      schedules=[retention_schedule, maintenance_schedule, backup_schedule])
