"""Backups: one partition per day, a database copy and a Parquet snapshot (snapshots/backup.py)."""

import dagster as dg

from signet_pipeline.defs.assets.metadata import table
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.snapshots.backup import backup_store

GROUP = "backups"
# Partitions from the first day this code shipped; a backfill of a past day snapshots the store as
# it is when the run executes (a backup cannot travel back in time), under that day's name.
DAILY = dg.DailyPartitionsDefinition(start_date="2026-11-01")


@dg.asset(
    group_name=GROUP, kinds={"sqlite", "parquet"}, partitions_def=DAILY,
    description="Daily backup under <workspace>/backups/<day>/: memories.db, a consistent copy made with SQLite's "
                "online backup while the service runs (restore: stop Signet, copy it to memory/memories.db), and "
                "snapshot/, the Parquet export (`signet import` restores it into a new or live workspace). The newest "
                "backup.keep (7) days are kept. A backfill of a past day snapshots the store as it is at run time.",
)
def store_backup(context: dg.AssetExecutionContext, signet: SignetStoreResource) -> dg.MaterializeResult:
    settings = signet.settings()
    if not settings.backup.enabled:
        context.log.info("backups are disabled (backup.enabled = false)")
        return dg.MaterializeResult(metadata={"enabled": False})
    with signet.database(migrated=True) as db:
        if db is None:
            return dg.MaterializeResult(metadata={"enabled": True, "note": "no store yet: nothing to back up"})
        report = backup_store(db, settings.backups_dir, context.partition_key, keep=settings.backup.keep,
                              parquet=settings.backup.parquet)
    if report.integrity != "ok":
        raise dg.Failure(f"the backup copy failed SQLite's quick_check: {report.integrity}",
                         metadata={"path": dg.MetadataValue.path(report.path)})
    if report.removed:
        context.log.info("removed backups older than the newest %d days: %s", settings.backup.keep,
                         ", ".join(report.removed))
    return dg.MaterializeResult(metadata={
        "path": dg.MetadataValue.path(report.path),
        "database_mb": round(report.db_bytes / 1e6, 2),
        "integrity": report.integrity,
        "snapshot_mb": round(report.snapshot_bytes / 1e6, 2),
        "memories": report.snapshot_rows.get("memories", 0),
        "seconds": report.seconds,
        "kept_days": dg.MetadataValue.json(report.kept),
        "removed_days": dg.MetadataValue.json(report.removed),
        "snapshot_tables": table(["table", "rows"], [[k, v] for k, v in report.snapshot_rows.items()],
                                 empty="Parquet snapshot off (backup.parquet = false)"),
        # What the backup holds, computed by duckdb from its Parquet files.
        **{name: table(t.columns, t.rows) for name, t in report.profile.items()},
    })
