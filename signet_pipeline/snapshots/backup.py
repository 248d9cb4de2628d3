"""Daily backups under `<workspace>/backups/<day>/`: a copy of the database taken with SQLite's
online backup (restore by copying it back) and a Parquet snapshot (portable; `signet import`),
profiled by duckdb (snapshots/profile.py).

The copy is built in `.<day>.partial` and renamed when whole, so a crash never leaves a backup
that looks complete; the newest `keep` days stay, older ones are removed.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import apsw
from pydantic import BaseModel

from signet_pipeline.snapshots.export import export_snapshot
from signet_pipeline.snapshots.profile import ProfileTable, profile
from signet_pipeline.store.db import Database, scalar

DB_FILE = "memories.db"
SNAPSHOT_DIR = "snapshot"
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class BackupReport(BaseModel):
    day: str
    path: str
    db_bytes: int
    integrity: str
    snapshot_rows: dict[str, int]
    snapshot_bytes: int
    profile: dict[str, ProfileTable] = {}
    seconds: float
    kept: list[str]
    removed: list[str]


def _copy_database(db: Database, dest: Path) -> str:
    """Copy the live database page by page in one step (a read snapshot: writers go on under WAL);
    return SQLite's quick_check verdict on the copy."""
    target = apsw.Connection(str(dest))
    try:
        with target.backup("main", db.reader(), "main") as copy:
            copy.step(-1)
        target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        return str(scalar(target, "PRAGMA quick_check"))
    finally:
        target.close()


def _prune(root: Path, keep: int) -> tuple[list[str], list[str]]:
    days = sorted(p.name for p in root.iterdir() if p.is_dir() and _DAY.match(p.name))
    removed = days[:-keep] if len(days) > keep else []
    for day in removed:
        shutil.rmtree(root / day)
    return days[len(removed):], removed


def backup_store(db: Database, root: str | Path, day: str, *, keep: int, parquet: bool = True) -> BackupReport:
    if not _DAY.match(day):
        raise ValueError(f"backup day must be YYYY-MM-DD, not {day!r}")
    started = time.perf_counter()
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    work = root / f".{day}.partial"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    integrity = _copy_database(db, work / DB_FILE)
    rows: dict[str, int] = {}
    snapshot_bytes = 0
    tables: dict[str, ProfileTable] = {}
    if parquet:
        manifest = export_snapshot(db, work / SNAPSHOT_DIR)
        rows = {t.table: t.rows for t in manifest.tables}
        snapshot_bytes = sum(t.bytes for t in manifest.tables)
        tables = profile(work / SNAPSHOT_DIR, manifest)
    target = root / day
    if target.exists():  # the day backed up again (a re-run or a backfill): the newer copy wins
        shutil.rmtree(target)
    work.rename(target)
    kept, removed = _prune(root, keep)
    return BackupReport(day=day, path=str(target), db_bytes=(target / DB_FILE).stat().st_size, integrity=integrity,
                        snapshot_rows=rows, snapshot_bytes=snapshot_bytes, profile=tables,
                        seconds=round(time.perf_counter() - started, 2), kept=kept, removed=removed)
