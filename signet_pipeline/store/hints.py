"""SQL for prospective hints: memory_hints (one row per hint) and memory_hints_fts (one document
per memory, rowid = memories.rid, kept in step by triggers)."""

from __future__ import annotations

import json

import apsw

from signet_pipeline.store.db import Row, rows, scalar
from signet_pipeline.store.memories import MemoryFilter, fts_search


def replace(conn: apsw.Connection, *, memory_id: str, content_hash: str, hints: list[str], model: str,
            now: str) -> int:
    """The memory's hints become `hints` (a re-run replaces, never accumulates). Returns how many
    were written; nothing is written for a memory that is gone, deleted, or whose content changed
    since the hints were generated from `content_hash`."""
    conn.execute("DELETE FROM memory_hints WHERE memory_id = ?", (memory_id,))
    if not hints or scalar(conn, "SELECT 1 FROM memories WHERE id = ? AND is_deleted = 0 AND content_hash = ?",
                           (memory_id, content_hash)) is None:
        return 0
    # ON CONFLICT, not OR IGNORE: an outer OR IGNORE overrides the OR REPLACE of the trigger that keeps the
    # memory's hints document, and FTS5 then counted every replaced document as one more row (BM25's IDF
    # and average length drifted: 55,258 rows for 15,126 documents on a drained 10k store).
    conn.executemany("INSERT INTO memory_hints(memory_id, hint, model, created_at) VALUES (?, ?, ?, ?) "
                     "ON CONFLICT DO NOTHING", [(memory_id, hint, model, now) for hint in hints])
    return int(scalar(conn, "SELECT count(*) FROM memory_hints WHERE memory_id = ?", (memory_id,)) or 0)


def rows_now(conn: apsw.Connection) -> int:
    """The hints table's highest row id: how far it has grown (the document counts' freshness)."""
    return int(scalar(conn, "SELECT coalesce(max(id), 0) FROM memory_hints") or 0)


def documents(conn: apsw.Connection) -> int:
    """Hint documents (memories with hints): a scan of the index, ~17 ms at 300k."""
    return int(scalar(conn, "SELECT count(*) FROM memory_hints_fts") or 0)


def for_memories(conn: apsw.Connection, memory_ids: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for memory_id, hint in conn.execute(
            "SELECT memory_id, hint FROM memory_hints WHERE memory_id IN (SELECT value FROM json_each(?)) ORDER BY id",
            (json.dumps(memory_ids),)):
        out.setdefault(memory_id, []).append(hint)
    return out


def search(conn: apsw.Connection, match: str, flt: MemoryFilter, limit: int) -> list[tuple[str, float]]:
    """(memory id, raw bm25 of its hints document) best first, for memories the filter admits."""
    return fts_search(conn, match, flt, limit, table="memory_hints_fts")


def counts(conn: apsw.Connection) -> Row:
    found = rows(conn, "SELECT count(*) AS hints, count(DISTINCT memory_id) AS memories FROM memory_hints")
    return found[0]


def live_without_hints(conn: apsw.Connection, limit: int) -> list[str]:
    """Live memories that have no hints yet (oldest first): what a hints backfill enqueues."""
    return [r[0] for r in conn.execute(
        "SELECT m.id FROM memories m WHERE m.is_deleted = 0 AND NOT EXISTS "
        "(SELECT 1 FROM memory_hints h WHERE h.memory_id = m.id) ORDER BY m.rid LIMIT ?", (limit,))]
