"""The maintenance domain's jobs: retention, maintenance, backup."""

import dagster as dg

from signet_pipeline.defs.maintenance.assets import maintenance_cycle, retention_sweep, store_backup

retention_job = dg.define_asset_job(
    "retention", selection=dg.AssetSelection.assets(retention_sweep),
    description="One retention sweep (six ordered purge steps, batch-limited). Scheduled every "
                "memory.pipelineV2.retention.intervalHours; launch it by hand to sweep now.",
)

maintenance_job = dg.define_asset_job(
    "maintenance", selection=dg.AssetSelection.assets(maintenance_cycle),
    description="One maintenance cycle: diagnose, then (execute mode) repair through the gate.",
)

backup_job = dg.define_asset_job(
    "backup", selection=dg.AssetSelection.assets(store_backup),
    description="Back up one day (database copy + Parquet snapshot). Scheduled daily at backup.hour:backup.minute "
                "for the day that ended; launch a partition or a backfill by hand for a backup now.",
)
