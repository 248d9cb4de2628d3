"""What a snapshot holds, as tables a person reads: memories per agent and type, growth per
month, the most used tags, entities per type and history events. DuckDB computes them straight
from the snapshot's files (columnar, both cores, no SQLite reader held), so profiling the backup
costs the live store nothing (docs/BENCHMARKS.md compares it with the same SQL on SQLite)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
from pydantic import BaseModel

from signet_pipeline.snapshots.manifest import Manifest

QUERIES: dict[str, tuple[str, str]] = {
    # name: (table the query reads, SQL over `t`, that table's file)
    "memories_by_agent_and_type": ("memories", """
        SELECT agent_id, type, count(*) FILTER (WHERE is_deleted = 0) AS live,
               count(*) FILTER (WHERE is_deleted = 1) AS deleted,
               count(*) FILTER (WHERE pinned = 1 AND is_deleted = 0) AS pinned,
               round(avg(length(content)) FILTER (WHERE is_deleted = 0)) AS mean_chars
        FROM t GROUP BY ALL ORDER BY live DESC, agent_id, type LIMIT 50"""),
    "growth_by_month": ("memories", """
        SELECT substr(created_at, 1, 7) AS month, count(*) AS created FROM t
        GROUP BY month ORDER BY month DESC LIMIT 24"""),
    "top_tags": ("memories", """
        SELECT tag, count(*) AS memories FROM (
            SELECT unnest(from_json(tags, '["VARCHAR"]')) AS tag FROM t WHERE is_deleted = 0 AND tags <> '[]')
        GROUP BY tag ORDER BY memories DESC, tag LIMIT 20"""),
    "entities_by_type": ("entities", """
        SELECT entity_type, count(*) AS entities, sum(mentions) AS mentions FROM t
        GROUP BY entity_type ORDER BY entities DESC LIMIT 20"""),
    "history_events": ("memory_history", """
        SELECT event, count(*) AS events, max(created_at) AS latest FROM t GROUP BY event ORDER BY events DESC"""),
}


class ProfileTable(BaseModel):
    columns: list[str]
    rows: list[list[Any]]


def profile(root: str | Path, manifest: Manifest) -> dict[str, ProfileTable]:
    """Each profile table the snapshot has the data for (a table it left out is skipped)."""
    root = Path(root)
    reader = "read_parquet" if manifest.file_format == "parquet" else "read_ndjson_auto"
    out: dict[str, ProfileTable] = {}
    with duckdb.connect() as con:
        for name, (table, sql) in QUERIES.items():
            entry = manifest.table(table)
            if entry is None or entry.rows == 0:
                continue
            result = con.execute(f"WITH t AS (SELECT * FROM {reader}(?)) {sql}", [str(root / entry.file)])
            out[name] = ProfileTable(columns=[d[0] for d in result.description],
                                     rows=[list(r) for r in result.fetchall()])
    return out
