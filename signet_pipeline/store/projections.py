"""SQL for the UMAP projection: the projected set (live memories with a vector of the configured
model and dimension), the cache (`umap_cache`, one row per output dimension) and the pending
requests the API records for the pipeline (`umap_requests`)."""

from __future__ import annotations

import json
from dataclasses import dataclass

import apsw
import numpy as np

from signet_pipeline.store import embeddings
from signet_pipeline.store.agents import READ_POLICY_SQL
from signet_pipeline.store.db import Row, one, rows, scalar

# The projected set. Superseded memories drop out (as from recall and listing); archived ones are
# visible to nobody; private ones are kept and filtered per reader when served.
_SOURCE = ("FROM memories m JOIN embeddings e ON e.content_hash = m.content_hash "
           "WHERE m.is_deleted = 0 AND m.superseded_by IS NULL AND m.visibility <> 'archived' "
           "AND e.model = :model AND e.dimensions = :dims")


@dataclass(frozen=True)
class SourceState:
    """What a cached projection must have been computed from to still be fresh."""

    count: int  # projected memories (the spec's embedding count)
    fingerprint: str
    visible: int  # of them, visible to the reading agent


def source_state(conn: apsw.Connection, model: str, dims: int | None, agent_id: str = "") -> SourceState:
    """One aggregate over the projected set. The sums of memory and vector row ids change when a
    memory is replaced by another, which the count alone would not show; the sum over private rows
    when a memory's visibility changes (the cache must not show it to other agents); the newest
    updated_at of memories and vectors when node metadata is edited or a vector re-embedded."""
    if dims is None:  # no embedder has written vectors yet
        return SourceState(0, f"{model}/-:0", 0)
    found = one(conn, "SELECT count(*) AS n, coalesce(sum(m.rid), 0) AS rids, coalesce(sum(e.id), 0) AS eids, "
                      "coalesce(sum(CASE WHEN m.visibility <> 'global' THEN m.rid END), 0) AS private, "
                      f"coalesce(sum({READ_POLICY_SQL}), 0) AS visible, "
                      "coalesce(max(m.updated_at), '') AS edited, coalesce(max(e.updated_at), '') AS embedded "
                      + _SOURCE,
                {"model": model, "dims": dims, "agent_id": agent_id}) or {}
    fingerprint = (f"{model}/{dims}:{found['n']}:{found['rids']}:{found['eids']}:{found['private']}:"
                   f"{found['edited']}:{found['embedded']}")
    return SourceState(found["n"], fingerprint, found["visible"])


_NODE_COLUMNS = ("SELECT m.id, m.content, m.who, m.importance, m.type, m.tags, m.pinned, m.source_type, m.source_id, "
                 "m.created_at, m.agent_id, m.visibility ")


def source_rows(conn: apsw.Connection, model: str, dims: int) -> tuple[list[Row], np.ndarray]:
    """Node metadata (oldest first) and the matching float32 matrix (n x dims)."""
    found = rows(conn, _NODE_COLUMNS + ", e.vector " + _SOURCE + " ORDER BY m.rid", {"model": model, "dims": dims})
    matrix = embeddings.decode([r.pop("vector") for r in found], dims)
    return found, matrix


def source_rows_by_id(conn: apsw.Connection, model: str, dims: int, ids: list[str]) -> dict[str, Row]:
    """Node metadata of those of `ids` still in the projected set, by id (no vectors)."""
    found = rows(conn, _NODE_COLUMNS + _SOURCE + " AND m.id IN (SELECT value FROM json_each(:ids))",
                 {"model": model, "dims": dims, "ids": json.dumps(ids)})
    return {r["id"]: r for r in found}


def ready(conn: apsw.Connection) -> bool:
    """The tables exist (sensors open a store without migrating it)."""
    return scalar(conn, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'umap_requests'") is not None


def cached(conn: apsw.Connection, dims: int) -> Row | None:
    return one(conn, "SELECT dimensions, embedding_count, fingerprint, result_json, private_json, cached_at "
                     "FROM umap_cache WHERE dimensions = ?", (dims,))


def cached_fingerprints(conn: apsw.Connection) -> dict[int, str]:
    return {r[0]: r[1] for r in conn.execute("SELECT dimensions, fingerprint FROM umap_cache")}


def write_cache(conn: apsw.Connection, *, dims: int, state: SourceState, result_json: str, private_json: str,
                elapsed_ms: float, now: str) -> None:
    conn.execute(
        "INSERT INTO umap_cache(dimensions, embedding_count, fingerprint, result_json, private_json, elapsed_ms, "
        "cached_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(dimensions) DO UPDATE SET "
        "embedding_count = excluded.embedding_count, fingerprint = excluded.fingerprint, "
        "result_json = excluded.result_json, private_json = excluded.private_json, "
        "elapsed_ms = excluded.elapsed_ms, cached_at = excluded.cached_at",
        (dims, state.count, state.fingerprint, result_json, private_json, round(elapsed_ms, 1), now))


def requested_at(conn: apsw.Connection, dims: int) -> str | None:
    found = one(conn, "SELECT requested_at FROM umap_requests WHERE dimensions = ?", (dims,))
    return found["requested_at"] if found else None


def record_request(conn: apsw.Connection, dims: int, *, now: str, renew_before: str) -> None:
    """Idempotent: a pending request keeps its time (and so its run key) unless it is older than
    `renew_before`, which only happens when no run ever claimed it (launch failure, sensor off)."""
    conn.execute("INSERT INTO umap_requests(dimensions, requested_at) VALUES (?, ?) ON CONFLICT(dimensions) "
                 "DO UPDATE SET requested_at = excluded.requested_at WHERE umap_requests.requested_at < ?",
                 (dims, now, renew_before))


def pending_requests(conn: apsw.Connection) -> dict[int, str]:
    return {r[0]: r[1] for r in conn.execute("SELECT dimensions, requested_at FROM umap_requests ORDER BY dimensions")}


def claim_requests(conn: apsw.Connection) -> dict[int, str]:
    """Take every pending request (the run that claims them serves them, or fails and leaves none)."""
    return {r[0]: r[1] for r in conn.execute("DELETE FROM umap_requests RETURNING dimensions, requested_at")}
