"""SQL for the embeddings table family: embeddings (keyed by content_hash), the vec0 index
`vec_embeddings` (cosine, dimension from the embedder) and the change log that in-memory
indexes follow."""

from __future__ import annotations

import json

import apsw
import numpy as np

from signet_pipeline.store.db import Row, one, rows, scalar

VEC_TABLE = "vec_embeddings"
_META_DIMS = "vec_dimensions"


def to_blob(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def from_blob(blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype="<f4")


def vec_dimensions(conn: apsw.Connection) -> int | None:
    value = scalar(conn, "SELECT value FROM store_meta WHERE key = ?", (_META_DIMS,))
    return int(value) if value is not None else None


def ensure_vec_table(conn: apsw.Connection, dimensions: int) -> bool:
    """Create (or rebuild for a new dimension) the vec0 table. Returns True if it was (re)built.

    Vectors of other dimensions stay in `embeddings` until the refresh stage re-embeds them.
    """
    exists = scalar(conn, "SELECT 1 FROM sqlite_master WHERE name = ?", (VEC_TABLE,))
    if exists and vec_dimensions(conn) == dimensions:
        return False
    conn.execute(f"DROP TABLE IF EXISTS {VEC_TABLE}")
    conn.execute(f"CREATE VIRTUAL TABLE {VEC_TABLE} USING vec0(embedding float[{int(dimensions)}] distance_metric=cosine)")
    conn.execute(f"INSERT INTO {VEC_TABLE}(rowid, embedding) SELECT id, vector FROM embeddings WHERE dimensions = ?",
                 (dimensions,))
    conn.execute("INSERT INTO store_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                 (_META_DIMS, str(dimensions)))
    return True


def upsert(conn: apsw.Connection, *, content_hash: str, vector: np.ndarray, model: str, source_id: str | None,
           source_type: str = "memory", now: str) -> int:
    """Insert or replace the vector for a content hash, keeping vec_embeddings in sync."""
    blob = to_blob(vector)
    dims = int(vector.shape[0])
    embedding_id = scalar(
        conn,
        "INSERT INTO embeddings(content_hash, vector, dimensions, model, source_type, source_id, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(content_hash) DO UPDATE SET vector = excluded.vector, dimensions = excluded.dimensions, "
        "model = excluded.model, updated_at = excluded.updated_at RETURNING id",
        (content_hash, blob, dims, model, source_type, source_id, now, now),
    )
    if vec_dimensions(conn) == dims:
        conn.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid = ?", (embedding_id,))
        conn.execute(f"INSERT INTO {VEC_TABLE}(rowid, embedding) VALUES (?, ?)", (embedding_id, blob))
    return int(embedding_id)


def exists_for_hash(conn: apsw.Connection, content_hash: str, model: str) -> bool:
    return scalar(conn, "SELECT 1 FROM embeddings WHERE content_hash = ? AND model = ?", (content_hash, model)) is not None


def vector_for_hash(conn: apsw.Connection, content_hash: str) -> tuple[np.ndarray, str] | None:
    found = one(conn, "SELECT vector, model FROM embeddings WHERE content_hash = ?", (content_hash,))
    return (from_blob(found["vector"]), found["model"]) if found else None


def vectors_for_hashes(conn: apsw.Connection, hashes: list[str], model: str, dimensions: int) -> dict[str, np.ndarray]:
    return {r[0]: from_blob(r[1]) for r in conn.execute(
        "SELECT content_hash, vector FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?)) "
        "AND model = ? AND dimensions = ?", (json.dumps(hashes), model, dimensions))}


def load_matching(conn: apsw.Connection, model: str, dimensions: int, after_id: int = 0) -> list[Row]:
    return rows(
        conn,
        "SELECT id, content_hash, vector FROM embeddings WHERE model = ? AND dimensions = ? AND id > ? ORDER BY id",
        (model, dimensions, after_id),
    )


def rows_by_ids(conn: apsw.Connection, ids: list[int]) -> list[Row]:
    return rows(conn, "SELECT id, content_hash, vector, model, dimensions FROM embeddings "
                      "WHERE id IN (SELECT value FROM json_each(?))", (str(list(ids)),))


def last_change_seq(conn: apsw.Connection) -> int:
    return int(scalar(conn, "SELECT coalesce(max(seq), 0) FROM embedding_changes") or 0)


def changes_since(conn: apsw.Connection, seq: int, limit: int = 50_000) -> list[tuple[int, int, str]]:
    """(seq, embedding_id, op) after seq, oldest first."""
    return [(r[0], r[1], r[2]) for r in conn.execute(
        "SELECT seq, embedding_id, op FROM embedding_changes WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit))]


def vec_knn(conn: apsw.Connection, query: np.ndarray, k: int) -> list[tuple[str, float]]:
    """(content_hash, cosine similarity) through sqlite-vec, best first."""
    return [(r[0], 1.0 - r[1]) for r in conn.execute(
        f"SELECT e.content_hash, v.distance FROM {VEC_TABLE} v JOIN embeddings e ON e.id = v.rowid "
        "WHERE v.embedding MATCH ? AND k = ? ORDER BY v.distance", (to_blob(query), k))]


def counts(conn: apsw.Connection, model: str) -> dict[str, int]:
    found = one(conn, "SELECT count(*) AS total, coalesce(sum(model = ?), 0) AS current FROM embeddings", (model,))
    assert found is not None
    return {"total": found["total"], "currentModel": found["current"]}


def delete_for_hashes(conn: apsw.Connection, hashes: list[str]) -> int:
    """Drop the vectors of these hashes from embeddings and vec_embeddings (the change log tells
    every in-process index)."""
    ids = [r[0] for r in conn.execute(
        "DELETE FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?)) RETURNING id",
        (json.dumps(hashes),))]
    if ids and vec_dimensions(conn) is not None:
        conn.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid IN (SELECT value FROM json_each(?))", (json.dumps(ids),))
    return len(ids)


def prune_change_log(conn: apsw.Connection, *, keep: int, limit: int) -> int:
    """Drop the oldest change-log entries beyond the newest `keep`; an index that had not read them
    notices the gap and reloads from the table."""
    return len(list(conn.execute(
        "DELETE FROM embedding_changes WHERE seq IN (SELECT seq FROM embedding_changes "
        "WHERE seq <= (SELECT max(seq) FROM embedding_changes) - ? ORDER BY seq LIMIT ?) RETURNING 1",
        (keep, limit))))


def coverage(conn: apsw.Connection, model: str) -> Row:
    """Live memories: in all, with a vector of `model`, and with only a vector of another model (stale)."""
    return one(conn, "SELECT count(*) AS live, coalesce(sum(e.model = ?), 0) AS embedded, "
                     "coalesce(sum(e.model IS NOT NULL AND e.model <> ?), 0) AS stale "
                     "FROM memories m LEFT JOIN embeddings e ON e.content_hash = m.content_hash "
                     "WHERE m.is_deleted = 0", (model, model)) or {}
