"""Maintenance assets: the retention sweep (schedule every `retention.intervalHours`), the
maintenance cycle (diagnose, repair through the gate; schedule every
`autonomous.maintenanceIntervalMs`) and the daily backup, one partition per day, a database copy and
a Parquet snapshot (snapshots/backup.py)."""

import dagster as dg

from signet_pipeline.defs.metadata import bullet_list, table
from signet_pipeline.defs.queue.backlog import MEMORY_JOBS
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.defs.store import BACKUP_DAYS, EMBEDDINGS, ENTITY_GRAPH, MEMORIES, TABLES
from signet_pipeline.snapshots.backup import backup_store
from signet_pipeline.stages.maintenance import run_cycle
from signet_pipeline.stages.retention import sweep

GROUP = "maintenance"
BACKUPS_GROUP = "backups"


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"}, deps=[MEMORIES, EMBEDDINGS, ENTITY_GRAPH, MEMORY_JOBS],
    description="Retention sweep: purges, in order, graph links, vectors and rows of tombstones past the tombstone "
                "window (default 30 d), history older than 180 d, completed jobs older than 14 d, dead jobs older "
                "than 30 d, and the oldest embedding change-log entries. Each step is one short transaction capped "
                "at batchLimit (500) rows; a capped step says so and the next sweep continues.",
)
def retention_sweep(context: dg.AssetExecutionContext, signet: SignetStoreResource) -> dg.MaterializeResult:
    settings = signet.settings()
    cfg = settings.pipeline.retention
    if not cfg.enabled:
        context.log.info("retention is disabled (memory.pipelineV2.retention.enabled = false)")
        return dg.MaterializeResult(metadata={"enabled": False, "rows_purged": 0})
    with signet.database(migrated=True) as db:
        if db is None:
            return dg.MaterializeResult(metadata={"enabled": True, "rows_purged": 0, "note": "no store yet"})
        report = sweep(db, cfg)
    if report.backlog:
        context.log.warning("batch limit reached in %s: the next sweep continues", ", ".join(report.backlog))
    return dg.MaterializeResult(metadata={
        "enabled": True, "rows_purged": report.total_rows, **{f"purged_{k}": v for k, v in report.counts().items()},
        "backlog_steps": dg.MetadataValue.json(report.backlog),
        "elapsed_ms": round(sum(s.elapsed_ms for s in report.steps), 1),
        "steps": table(["step", "rows", "ms", "older than", "details", "capped"],
                       [[s.name, s.rows, s.elapsed_ms, s.cutoff or "-",
                         ", ".join(f"{k} {v}" for k, v in s.details.items()) or "-", s.capped]
                        for s in report.steps]),
    })


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"}, deps=[MEMORIES, EMBEDDINGS, MEMORY_JOBS],
    description="Maintenance cycle: diagnostics, then repairs they call for (requeue dead jobs above a 1% dead rate, "
                "release stale leases, rebuild a drifted FTS index, sweep when tombstones pass 30%, re-embed when "
                "vector coverage is low). Observe mode only "
                "lists them; execute mode runs them through the repair gate and records the score change. An action "
                "that did not raise the score 3 runs in a row is halted until the store is healthy again.",
)
def maintenance_cycle(context: dg.AssetExecutionContext, signet: SignetStoreResource) -> dg.MaterializeResult:
    cycle = run_cycle(signet.service())
    if cycle.skipped:
        context.log.info("maintenance skipped: %s", cycle.skipped)
    if cycle.halted:
        context.log.warning("halted (3 runs without improvement): %s", ", ".join(cycle.halted))
    return dg.MaterializeResult(metadata={
        "mode": cycle.mode, "skipped": cycle.skipped or "no", "score_before": cycle.score_before,
        "score_after": cycle.score_after if cycle.score_after is not None else cycle.score_before,
        "recommended": bullet_list(cycle.recommended), "halted": bullet_list(cycle.halted),
        "denied": dg.MetadataValue.json(cycle.denied),
        "executed": table(["action", "result"], [[a, r] for a, r in cycle.executed.items()], empty="nothing run"),
    })


def store_backup_over(days: dg.PartitionsDefinition) -> dg.AssetsDefinition:
    """The daily backup with a partition per day of `days` (BACKUP_DAYS in the code location)."""

    @dg.asset(
        group_name=BACKUPS_GROUP, kinds={"sqlite", "parquet"}, partitions_def=days, deps=[*TABLES, MEMORY_JOBS],
        description="Daily backup under <workspace>/backups/<day>/: memories.db, a consistent copy made with "
                    "SQLite's online backup while the service runs (restore: stop Signet, copy it to "
                    "memory/memories.db), and snapshot/, the Parquet export (`signet import` restores it into a new "
                    "or live workspace). The newest backup.keep (7) days are kept. A backfill of a past day snapshots "
                    "the store as it is at run time.",
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

    return store_backup


store_backup = store_backup_over(BACKUP_DAYS)
