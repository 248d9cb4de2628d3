"""SQL for the memories table family: memories, memories_fts and their read filters."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import apsw

from signet_pipeline.store.agents import READ_POLICY_SQL
from signet_pipeline.store.db import Row, one, rows, scalar
from signet_pipeline.store.temporal import Window, window_sql
from signet_pipeline.timeutil import now_iso

# Columns written on insert (everything else takes its default).
INSERT_COLUMNS = (
    "id", "type", "category", "content", "normalized_content", "content_hash", "confidence", "importance",
    "tags", "who", "why", "project", "session_id", "source_id", "source_type", "source_path", "runtime_path",
    "idempotency_key", "pinned", "agent_id", "visibility", "extraction_status", "embedding_model",
    "occurred_at", "observed_at", "source_created_at", "valid_from", "valid_until",
    "created_at", "updated_at", "updated_by", "extraction_model", "source_memory_id",
)
_INSERT_SQL = (
    f"INSERT INTO memories ({', '.join(INSERT_COLUMNS)}) "
    f"VALUES ({', '.join(':' + c for c in INSERT_COLUMNS)})"
)

# Importance after decay: base x rate^days_since_access; pinned memories never decay (spec).
# A memory never recalled decays from when it was stored or last changed (updated_at), not from a
# back-dated createdAt of an import.
DECAYED_IMPORTANCE_SQL = (
    "(CASE WHEN m.pinned THEN 1.0 ELSE m.importance * pow(:decay_rate, "
    "max(0.0, julianday(:now) - julianday(coalesce(m.last_accessed, m.updated_at)))) END)"
)


@dataclass
class MemoryFilter:
    """Read filters shared by recall, search and listing. What the agent may see follows its
    read policy (store/agents.py): its own memories (not archived) and, by policy, global ones."""

    agent_id: str = "default"
    types: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)  # all must be present
    who: str | None = None
    pinned: bool | None = None
    importance_min: float | None = None
    since: str | None = None
    until: str | None = None
    project: str | None = None
    source_type: str | None = None
    window: Window | None = None  # temporal recall: some facet of the memory falls in it
    include_superseded: bool = False  # superseded memories stay readable by id and in history
    decay_rate: float = 0.95
    now: str = field(default_factory=now_iso)

    @property
    def selective(self) -> bool:
        """True when the filter may drop many rows (vector search then over-fetches)."""
        return bool(self.types or self.tags or self.who or self.pinned or self.importance_min
                    or self.since or self.until or self.project or self.source_type or self.window)

    def sql(self) -> tuple[str, dict[str, Any]]:
        clauses = ["m.is_deleted = 0", READ_POLICY_SQL]
        params: dict[str, Any] = {"agent_id": self.agent_id}
        if not self.include_superseded:
            clauses.append("m.superseded_by IS NULL")
        if self.types:
            names = [f":type{i}" for i in range(len(self.types))]
            clauses.append(f"m.type IN ({', '.join(names)})")
            params.update({n[1:]: t for n, t in zip(names, self.types)})
        for i, tag in enumerate(self.tags):
            clauses.append(f"EXISTS (SELECT 1 FROM json_each(m.tags) WHERE json_each.value = :tag{i})")
            params[f"tag{i}"] = tag
        if self.who is not None:
            clauses.append("m.who = :who")
            params["who"] = self.who
        if self.pinned:  # spec: `pinned` true filters to pinned memories; false means no filter
            clauses.append("m.pinned = 1")
        if self.since:
            clauses.append("m.created_at >= :since")
            params["since"] = self.since
        if self.until:
            clauses.append("m.created_at <= :until")
            params["until"] = self.until
        if self.project is not None:
            clauses.append("m.project = :project")
            params["project"] = self.project
        if self.source_type is not None:
            clauses.append("m.source_type = :source_type")
            params["source_type"] = self.source_type
        if self.window is not None:
            clause, window_params = window_sql(self.window)
            clauses.append(clause)
            params.update(window_params)
        if self.importance_min is not None:
            clauses.append(f"{DECAYED_IMPORTANCE_SQL} >= :importance_min")
            params.update(importance_min=self.importance_min, decay_rate=self.decay_rate, now=self.now)
        return " AND ".join(clauses), params


def insert(conn: apsw.Connection, values: dict[str, Any]) -> None:
    conn.execute(_INSERT_SQL, {c: values.get(c) for c in INSERT_COLUMNS})


def get(conn: apsw.Connection, memory_id: str, *, include_deleted: bool = False) -> Row | None:
    sql = "SELECT * FROM memories WHERE id = ?" + ("" if include_deleted else " AND is_deleted = 0")
    return one(conn, sql, (memory_id,))


def find_live_by_hash(conn: apsw.Connection, agent_id: str, content_hash: str) -> Row | None:
    return one(conn, "SELECT * FROM memories WHERE agent_id = ? AND content_hash = ? AND is_deleted = 0",
               (agent_id, content_hash))


def find_by_idempotency_key(conn: apsw.Connection, *, agent_id: str, visibility: str, project: str | None,
                            key: str) -> Row | None:
    """The live memory written with this key in the same (agent, visibility, project) scope."""
    return one(
        conn,
        "SELECT * FROM memories WHERE agent_id = ? AND idempotency_key = ? AND visibility = ? AND project IS ? "
        "AND is_deleted = 0 ORDER BY rid LIMIT 1",
        (agent_id, key, visibility, project),
    )


def stem_doc_counts(conn: apsw.Connection, stems: set[str], *, table: str = "memories_fts") -> dict[str, int]:
    """How many indexed rows of `table` (content or hints) contain each term (0 for terms it has never seen)."""
    if table not in FTS_TABLES:
        raise ValueError(f"not a memory FTS table: {table}")
    counts = dict(conn.execute(f"SELECT term, doc FROM {table}_vocab WHERE term IN (SELECT value FROM json_each(?))",
                               (json.dumps(sorted(stems)),)))
    return {stem: int(counts.get(stem, 0)) for stem in stems}


def indexed_rows(conn: apsw.Connection) -> int:
    """Rows in the FTS index, near enough for IDF (rids only grow; tombstones stay indexed)."""
    return int(scalar(conn, "SELECT coalesce(max(rid), 0) FROM memories") or 0)


FTS_TABLES = ("memories_fts", "memory_hints_fts")  # both keyed by memories.rid


def fts_search(conn: apsw.Connection, match: str, flt: MemoryFilter, limit: int, *,
               table: str = "memories_fts", weights: str | None = None) -> list[tuple[str, float]]:
    """(memory id, raw bm25) best first, from the content index or the hints index (one document
    per memory). bm25 is negative; more negative is a better match.

    FTS5 ranks its matches alone first and only the best few are checked against the filter:
    joining every match of a frequent word to memories costs more than the ranking itself. When
    the filter rejects so many that the first cut runs short, the filter is applied to all matches.
    With `weights` (content index only: each phrase's IDF, a JSON array) agent_bm25 ranks instead
    (store/fulltext/functions.py), and only over the rows the filter admits: it runs in Python, and
    scoring every other agent's match cost more than the join (4.2 against 10.0 ms p50, 10k drained).
    """
    if table not in FTS_TABLES or (weights is not None and table != "memories_fts"):
        raise ValueError(f"not a memory FTS table for these weights: {table}")
    if weights is not None:
        return _admitted(conn, table, f"agent_bm25({table}, :weights)", match, flt, limit, weights)
    inner = limit * 4
    ranked = list(conn.execute(f"SELECT rowid, bm25({table}) AS raw FROM {table} "
                               f"WHERE {table} MATCH ? ORDER BY raw LIMIT ?", (match, inner)))
    if not ranked:
        return []
    where, params = flt.sql()
    params["rids"] = json.dumps([rid for rid, _ in ranked])
    visible = dict(conn.execute(
        f"SELECT m.rid, m.id FROM memories m WHERE m.rid IN (SELECT value FROM json_each(:rids)) AND {where}", params))
    hits = [(visible[rid], raw) for rid, raw in ranked if rid in visible][:limit]
    if len(hits) == limit or len(ranked) < inner:
        return hits
    return _admitted(conn, table, f"bm25({table})", match, flt, limit)


def _admitted(conn: apsw.Connection, table: str, score: str, match: str, flt: MemoryFilter, limit: int,
              weights: str | None = None) -> list[tuple[str, float]]:
    """The best `limit` matches among the rows the filter admits (every match joined to memories)."""
    where, params = flt.sql()
    params.update(match=match, limit=limit, weights=weights)
    return [(r[0], r[1]) for r in conn.execute(
        f"SELECT m.id, {score} AS raw FROM {table} "
        f"JOIN memories m ON m.rid = {table}.rowid WHERE {table} MATCH :match AND {where} "
        "ORDER BY raw LIMIT :limit", params)]


def live_ids_by_hashes(conn: apsw.Connection, hashes: list[str], flt: MemoryFilter) -> list[tuple[str, str]]:
    """(content_hash, memory id) for visible memories holding any of these hashes."""
    if not hashes:
        return []
    where, params = flt.sql()
    params["hashes"] = json.dumps(hashes)
    sql = (
        "SELECT m.content_hash, m.id FROM memories m "
        f"WHERE m.content_hash IN (SELECT value FROM json_each(:hashes)) AND {where}"
    )
    return [(r[0], r[1]) for r in conn.execute(sql, params)]


def visible_hashes(conn: apsw.Connection, flt: MemoryFilter, limit: int) -> list[str]:
    """Hashes of memories passing a filter (used to restrict vector search to a small set)."""
    where, params = flt.sql()
    params["limit"] = limit
    return [r[0] for r in conn.execute(f"SELECT m.content_hash FROM memories m WHERE {where} LIMIT :limit", params)]


def fetch_many(conn: apsw.Connection, ids: list[str]) -> dict[str, Row]:
    if not ids:
        return {}
    found = rows(conn, "SELECT * FROM memories WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(ids),))
    return {r["id"]: r for r in found}


def written_around(conn: apsw.Connection, *, agent_id: str, session_id: str | None, start: str,
                   end: str) -> list[Row]:
    """id and created_at of the live raw memories (not pipeline-derived) of an agent written in
    [start, end], in the order they were written; of one session when `session_id` is given."""
    return rows(conn, "SELECT id, created_at FROM memories WHERE created_at >= :start AND created_at <= :end "
                      "AND agent_id = :agent AND is_deleted = 0 AND source_memory_id IS NULL "
                      "AND (:session IS NULL OR session_id = :session) ORDER BY created_at, rid",
                {"start": start, "end": end, "agent": agent_id, "session": session_id})


def record_access(conn: apsw.Connection, counts: dict[str, int], accessed_at: str) -> None:
    conn.executemany(
        "UPDATE memories SET access_count = access_count + ?, last_accessed = ? WHERE id = ?",
        [(n, accessed_at, memory_id) for memory_id, n in counts.items()],
    )


def list_page(conn: apsw.Connection, flt: MemoryFilter, limit: int, offset: int) -> list[Row]:
    where, params = flt.sql()
    params.update(limit=limit, offset=offset)
    return rows(conn, f"SELECT m.* FROM memories m WHERE {where} ORDER BY m.created_at DESC, m.rid DESC "
                      "LIMIT :limit OFFSET :offset", params)


def stats(conn: apsw.Connection, flt: MemoryFilter) -> dict[str, int]:
    where, params = flt.sql()
    found = one(
        conn,
        "SELECT count(*) AS total, "
        "coalesce(sum(EXISTS (SELECT 1 FROM embeddings e WHERE e.content_hash = m.content_hash)), 0) "
        "AS with_embeddings, "
        f"coalesce(sum(m.pinned), 0) AS critical FROM memories m WHERE {where}",
        params,
    )
    assert found is not None
    return {"total": found["total"], "withEmbeddings": found["with_embeddings"], "critical": found["critical"]}


def distinct_who(conn: apsw.Connection, flt: MemoryFilter) -> list[str]:
    where, params = flt.sql()
    return [r[0] for r in conn.execute(
        f"SELECT DISTINCT m.who FROM memories m WHERE m.who IS NOT NULL AND {where} ORDER BY m.who", params)]


def count_live(conn: apsw.Connection) -> int:
    return int(scalar(conn, "SELECT count(*) FROM memories WHERE is_deleted = 0") or 0)


def supersede(conn: apsw.Connection, memory_id: str, *, by: str, now: str, actor: str) -> bool:
    """Mark a live memory as replaced by another (kept, hidden from recall, linked). False if it
    was already superseded or deleted meanwhile."""
    conn.execute(
        "UPDATE memories SET superseded_by = ?, superseded_at = ?, version = version + 1, "
        "update_count = update_count + 1, updated_at = ?, updated_by = ? "
        "WHERE id = ? AND superseded_by IS NULL AND is_deleted = 0",
        (by, now, now, actor, memory_id),
    )
    return conn.changes() > 0


def set_extraction_status(conn: apsw.Connection, memory_id: str, status: str, *, now: str,
                          model: str | None = None) -> None:
    """none -> pending -> completed | failed (spec); the model that did the extraction is kept."""
    conn.execute("UPDATE memories SET extraction_status = ?, extraction_model = coalesce(?, extraction_model) "
                 "WHERE id = ?", (status, model, memory_id))


def raw_created_between(conn: apsw.Connection, start: str, end: str, *, after_rid: int = 0,
                        limit: int) -> list[tuple[int, str]]:
    """(rid, id) of live memories written by callers (not derived by the pipeline) created in
    [start, end), in rid order from `after_rid` (keyset paging)."""
    return [(r[0], r[1]) for r in conn.execute(
        "SELECT rid, id FROM memories WHERE created_at >= ? AND created_at < ? AND rid > ? AND is_deleted = 0 "
        "AND source_memory_id IS NULL ORDER BY rid LIMIT ?", (start, end, after_rid, limit))]


def oldest_created_at(conn: apsw.Connection) -> str | None:
    """created_at of the oldest memory, tombstones included (imports may back-date it)."""
    return scalar(conn, "SELECT min(created_at) FROM memories")


def derived_count(conn: apsw.Connection) -> int:
    return int(scalar(conn, "SELECT count(*) FROM memories WHERE source_memory_id IS NOT NULL AND is_deleted = 0")
               or 0)


def orphaned_derived(conn: apsw.Connection, limit: int) -> list[Row]:
    """Derived facts whose source memory row no longer exists (provenance broken)."""
    return rows(conn, "SELECT d.id, d.source_memory_id, d.content FROM memories d WHERE d.source_memory_id IS NOT NULL "
                      "AND d.is_deleted = 0 AND NOT EXISTS (SELECT 1 FROM memories s WHERE s.id = d.source_memory_id) "
                      "LIMIT ?", (limit,))


def visible_ids(conn: apsw.Connection, ids: list[str], flt: MemoryFilter) -> set[str]:
    """The subset of these memory ids the filter admits (graph candidates join recall this way)."""
    if not ids:
        return set()
    where, params = flt.sql()
    params["ids"] = json.dumps(ids)
    return {r[0] for r in conn.execute(
        f"SELECT m.id FROM memories m WHERE m.id IN (SELECT value FROM json_each(:ids)) AND {where}", params)}


def expired_tombstones(conn: apsw.Connection, deleted_before: str, limit: int) -> list[Row]:
    """Soft-deleted memories past the tombstone window, oldest deletion first (id, content_hash, and
    what ties them to a session transcript: content, agent, session and source ids)."""
    return rows(conn, "SELECT id, content_hash, content, agent_id, session_id, source_id FROM memories "
                      "WHERE is_deleted = 1 AND deleted_at < ? ORDER BY deleted_at, id LIMIT ?",
                (deleted_before, limit))


def hash_users(conn: apsw.Connection, hashes: list[str], excluding: list[str]) -> set[str]:
    """The hashes still carried by a memory outside `excluding` (their vector must stay)."""
    return {r[0] for r in conn.execute(
        "SELECT DISTINCT content_hash FROM memories WHERE content_hash IN (SELECT value FROM json_each(?)) "
        "AND id NOT IN (SELECT value FROM json_each(?))", (json.dumps(hashes), json.dumps(excluding)))}


def hard_delete(conn: apsw.Connection, memory_ids: list[str]) -> int:
    """Remove tombstoned rows for good (the FTS trigger cleans the index); live rows are never touched."""
    return len(list(conn.execute(
        "DELETE FROM memories WHERE is_deleted = 1 AND id IN (SELECT value FROM json_each(?)) RETURNING 1",
        (json.dumps(memory_ids),))))


def storage_counts(conn: apsw.Connection) -> Row:
    """Rows, tombstones and FTS-indexed rows (the index's own docsize table) for diagnostics."""
    return one(conn, "SELECT count(*) AS total, coalesce(sum(is_deleted), 0) AS tombstones, "
                     "(SELECT count(*) FROM memories_fts_docsize) AS fts_rows FROM memories") or {}


def rebuild_fts(conn: apsw.Connection) -> None:
    """Rebuild the FTS index from the memories table (repair of a drifted index)."""
    conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('rebuild')")


def live_hashes(conn: apsw.Connection, hashes: list[str]) -> set[str]:
    """The subset of these hashes some live memory carries."""
    return {r[0] for r in conn.execute(
        "SELECT DISTINCT content_hash FROM memories WHERE content_hash IN (SELECT value FROM json_each(?)) "
        "AND is_deleted = 0", (json.dumps(hashes),))}


def mark_embedded(conn: apsw.Connection, hashes: list[str], model: str) -> int:
    """Record the model of the vector now stored for these hashes on every live memory carrying
    one (a vector is shared by hash). Not a content change: updated_at stays."""
    conn.execute("UPDATE memories SET embedding_model = ? WHERE content_hash IN (SELECT value FROM json_each(?)) "
                 "AND is_deleted = 0", (model, json.dumps(hashes)))
    return conn.changes()


def dedup_rows(conn: apsw.Connection) -> list[Row]:
    """Live, current (not superseded) memories with what duplicate detection and the keeper choice need."""
    return rows(conn, "SELECT rid, id, agent_id, visibility, project, content, normalized_content, content_hash, "
                      "pinned, importance, created_at FROM memories WHERE is_deleted = 0 AND superseded_by IS NULL "
                      "ORDER BY rid")


def graph_links_to_missing(conn: apsw.Connection, limit: int) -> list[str]:
    """Memory ids that entity mentions or attributes still point at but no memory row has (hard-deleted
    outside the retention sweep, which unlinks before it deletes)."""
    return [r[0] for r in conn.execute(
        "SELECT memory_id FROM (SELECT memory_id FROM memory_entity_mentions UNION "
        "SELECT memory_id FROM entity_attributes WHERE memory_id IS NOT NULL AND status = 'active') l "
        "WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = l.memory_id) LIMIT ?", (limit,))]
