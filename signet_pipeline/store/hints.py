"""SQL for prospective hints: memory_hints and its FTS5 index memory_hints_fts."""

from __future__ import annotations

import json

import apsw

from signet_pipeline.store.db import Row, rows, scalar
from signet_pipeline.store.memories import MemoryFilter


def replace(conn: apsw.Connection, *, memory_id: str, content_hash: str, hints: list[str], model: str,
            now: str) -> int:
    """The memory's hints become `hints` (a re-run replaces, never accumulates). Returns how many
    were written; nothing is written for a memory that is gone, deleted, or whose content changed
    since the hints were generated from `content_hash`."""
    conn.execute("DELETE FROM memory_hints WHERE memory_id = ?", (memory_id,))
    if not hints or scalar(conn, "SELECT 1 FROM memories WHERE id = ? AND is_deleted = 0 AND content_hash = ?",
                           (memory_id, content_hash)) is None:
        return 0
    conn.executemany("INSERT OR IGNORE INTO memory_hints(memory_id, hint, model, created_at) VALUES (?, ?, ?, ?)",
                     [(memory_id, hint, model, now) for hint in hints])
    return int(scalar(conn, "SELECT count(*) FROM memory_hints WHERE memory_id = ?", (memory_id,)) or 0)


def for_memories(conn: apsw.Connection, memory_ids: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for memory_id, hint in conn.execute(
            "SELECT memory_id, hint FROM memory_hints WHERE memory_id IN (SELECT value FROM json_each(?)) ORDER BY id",
            (json.dumps(memory_ids),)):
        out.setdefault(memory_id, []).append(hint)
    return out


def search(conn: apsw.Connection, match: str, flt: MemoryFilter, limit: int, *,
           per_memory: int = 5) -> list[tuple[str, float]]:
    """(memory id, best raw bm25 of its hints) best first, for memories the filter admits. A
    memory is ranked by its best-matching hint (max, never a sum over its hints).

    As fts_search: the best hint matches are ranked alone, one per memory, and only those are
    checked against the filter; when the filter rejects so many that the cut runs short (other
    agents' private memories, tombstones awaiting retention), it is applied to all matches.
    `per_memory` (hints.max) sizes the first cut: its best inner x per_memory hint rows hold at
    least `inner` memories when that many match."""
    inner = limit * 4
    ranked = list(conn.execute(
        "WITH hits AS MATERIALIZED (SELECT rowid, bm25(memory_hints_fts) AS raw FROM memory_hints_fts "
        "WHERE memory_hints_fts MATCH ? ORDER BY raw LIMIT ?) SELECT h.memory_id, min(hits.raw) AS best FROM hits "
        "JOIN memory_hints h ON h.id = hits.rowid GROUP BY h.memory_id ORDER BY best LIMIT ?",
        (match, inner * per_memory, inner)))
    if not ranked:
        return []
    where, params = flt.sql()
    params["ids"] = json.dumps([memory_id for memory_id, _ in ranked])
    visible = {r[0] for r in conn.execute(
        f"SELECT m.id FROM memories m WHERE m.id IN (SELECT value FROM json_each(:ids)) AND {where}", params)}
    hits = [(memory_id, raw) for memory_id, raw in ranked if memory_id in visible][:limit]
    if len(hits) == limit or len(ranked) < inner:
        return hits
    params.update(match=match, limit=limit)
    return [(r[0], r[1]) for r in conn.execute(
        "WITH hits AS MATERIALIZED (SELECT rowid, bm25(memory_hints_fts) AS raw FROM memory_hints_fts "
        "WHERE memory_hints_fts MATCH :match) SELECT m.id, min(hits.raw) AS best FROM hits "
        f"JOIN memory_hints h ON h.id = hits.rowid JOIN memories m ON m.id = h.memory_id WHERE {where} "
        "GROUP BY m.id ORDER BY best LIMIT :limit", params)]


def counts(conn: apsw.Connection) -> Row:
    found = rows(conn, "SELECT count(*) AS hints, count(DISTINCT memory_id) AS memories FROM memory_hints")
    return found[0]


def live_without_hints(conn: apsw.Connection, limit: int) -> list[str]:
    """Live memories that have no hints yet (oldest first): what a hints backfill enqueues."""
    return [r[0] for r in conn.execute(
        "SELECT m.id FROM memories m WHERE m.is_deleted = 0 AND NOT EXISTS "
        "(SELECT 1 FROM memory_hints h WHERE h.memory_id = m.id) ORDER BY m.rid LIMIT ?", (limit,))]
