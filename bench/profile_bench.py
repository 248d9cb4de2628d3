"""Store profile aggregates three ways, on one store: SQLite SQL on the live database (what the
API's own aggregates do), duckdb over the Parquet snapshot (what the backup asset does), and
duckdb over Arrow streams of polars frames read from SQLite (duckdb "over Arrow frames from the
store"). Prints a table; median of `--repeat` runs each.

    .venv/bin/python -m bench.profile_bench --workspace WS [--snapshot DIR] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import duckdb
import polars as pl

from bench.report import markdown
from signet_pipeline.config import DB_RELATIVE_PATH
from signet_pipeline.snapshots.export import export_snapshot
from signet_pipeline.snapshots.profile import QUERIES, profile
from signet_pipeline.snapshots.restore import check
from signet_pipeline.store.db import Database

# The same five aggregates in SQLite's dialect (tags through json_each).
SQLITE = {
    "memories_by_agent_and_type": """
        SELECT agent_id, type, sum(is_deleted = 0), sum(is_deleted = 1), sum(pinned = 1 AND is_deleted = 0),
               round(avg(CASE WHEN is_deleted = 0 THEN length(content) END))
        FROM memories GROUP BY agent_id, type ORDER BY 3 DESC LIMIT 50""",
    "growth_by_month": "SELECT substr(created_at, 1, 7) m, count(*) FROM memories GROUP BY m ORDER BY m DESC LIMIT 24",
    "top_tags": """SELECT j.value, count(*) n FROM memories, json_each(memories.tags) j
                   WHERE is_deleted = 0 AND tags <> '[]' GROUP BY j.value ORDER BY n DESC LIMIT 20""",
    "entities_by_type": "SELECT entity_type, count(*), sum(mentions) FROM entities GROUP BY 1 ORDER BY 2 DESC LIMIT 20",
    "history_events": "SELECT event, count(*), max(created_at) FROM memory_history GROUP BY event ORDER BY 2 DESC",
}
_COLUMNS = {"memories": ["agent_id", "type", "is_deleted", "pinned", "content", "created_at", "tags"],
            "entities": ["entity_type", "mentions"], "memory_history": ["event", "created_at"]}


class _Stream:
    """Hands duckdb a polars frame through the Arrow C stream interface (no pyarrow needed)."""

    def __init__(self, frame: pl.DataFrame):
        self.frame = frame

    def __arrow_c_stream__(self, requested_schema=None):
        return self.frame.__arrow_c_stream__(requested_schema)


def _median(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def run(workspace: Path, snapshot: Path | None, repeat: int) -> None:
    db = Database(workspace / DB_RELATIVE_PATH)
    with tempfile.TemporaryDirectory() as tmp:
        export_ms = None
        if snapshot is None:
            snapshot = Path(tmp) / "snap"
            started = time.perf_counter()
            export_snapshot(db, snapshot)
            export_ms = (time.perf_counter() - started) * 1000
        manifest = check(snapshot)
        rows = []
        sqlite_total = parquet_total = arrow_total = 0.0
        conn = db.reader()
        for name, (table, sql) in QUERIES.items():
            sqlite_ms = _median(lambda: conn.execute(SQLITE[name]).fetchall(), repeat)

            def over_arrow(table=table, sql=sql):
                cur = conn.execute(f"SELECT {', '.join(_COLUMNS[table])} FROM {table}")
                frame = pl.DataFrame(list(cur), schema=_COLUMNS[table], orient="row")
                stream = _Stream(frame)  # noqa: F841 - read by name from the SQL below
                with duckdb.connect() as con:
                    con.execute(f"WITH t AS (SELECT * FROM stream) {sql}").fetchall()

            arrow_ms = _median(over_arrow, repeat)
            rows.append([name, round(sqlite_ms, 1), round(arrow_ms, 1)])
            sqlite_total += sqlite_ms
            arrow_total += arrow_ms
        parquet_total = _median(lambda: profile(snapshot, manifest), repeat)
    db.close()
    n = next(t.rows for t in manifest.tables if t.table == "memories")
    print(f"store profile, {n:,} memories (median of {repeat})")
    print(markdown(["aggregate", "SQLite SQL ms", "SQLite -> polars -> duckdb ms"], rows))
    print()
    print(markdown(["path", "all five, ms"], [
        ["SQLite SQL on the live store", round(sqlite_total, 1)],
        ["duckdb over the Parquet snapshot", round(parquet_total, 1)],
        ["SQLite -> polars frames -> duckdb (Arrow stream)", round(arrow_total, 1)],
        ["export of the snapshot itself", round(export_ms, 1) if export_ms is not None else "given"],
    ]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspace", type=Path, required=True)
    parser.add_argument("--snapshot", type=Path, help="a snapshot of that store (default: export one now)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    run(args.workspace, args.snapshot, args.repeat)
