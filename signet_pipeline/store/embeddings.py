"""SQL for the embeddings table family: embeddings (keyed by content_hash), the vec0 table
`vec_embeddings` and the change log that in-memory indexes follow.

A vector is stored once, in `embeddings.vector`: float16 with a one-byte tag (`to_blob`), so its
odd length tells it from the float32 blobs older builds wrote (4 bytes a value); `from_blob` and
`decode` read both. vec0 holds, per store, either each vector's sign bits (`bit`, what the
in-process index's prefilter ranks by) or a float32 copy (`float`, for `search.vectorBackend:
sqlite-vec`), of one model and dimension; sqlite-vec cannot read float16, so its rows are
written from Python."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import islice
from typing import cast

import apsw
import numpy as np

from signet_pipeline.store.db import Row, one, rows, scalar
from signet_pipeline.store.memories import MemoryFilter

VEC_TABLE = "vec_embeddings"
VEC_KINDS = ("bit", "float")
_META_DIMS = "vec_dimensions"
_META_MODEL = "vec_model"
_META_KIND = "vec_kind"
_META_STORE = "store_id"
_COMPACT_TAG = b"h"  # ends a float16 blob (struct's code for a half float)
_HALF_MAX = float(np.finfo(np.float16).max)


def to_blob(vector: np.ndarray) -> bytes:
    """float16 plus the tag; float32 when a value does not fit float16 (an unnormalized vector)."""
    vector = np.asarray(vector, dtype=np.float32)
    if np.abs(vector).max(initial=0.0) > _HALF_MAX or not np.isfinite(vector).all():
        return vector.astype("<f4").tobytes()
    return vector.astype("<f2").tobytes() + _COMPACT_TAG


def from_blob(blob: bytes) -> np.ndarray:
    """A stored vector as float32, whichever encoding wrote it."""
    if len(blob) % 2:
        return np.frombuffer(blob, dtype="<f2", count=len(blob) // 2).astype(np.float32)
    return np.frombuffer(blob, dtype="<f4")


def decode(blobs: list[bytes], dims: int) -> np.ndarray:
    """Stored vectors of one dimension as an (n, dims) float32 matrix, in bulk when they share an
    encoding (they do, but for stores written by older builds)."""
    joined = b"".join(blobs)
    if len(joined) == len(blobs) * (2 * dims + 1):
        return np.ndarray((len(blobs), dims), dtype="<f2", buffer=joined, strides=(2 * dims + 1, 2)).astype(np.float32)
    if len(joined) == len(blobs) * 4 * dims:
        return np.frombuffer(joined, dtype="<f4").reshape(len(blobs), dims).copy()
    return np.array([from_blob(b) for b in blobs], dtype=np.float32).reshape(len(blobs), dims)


def sign_bits(vectors: np.ndarray) -> np.ndarray:
    """Rows of sign bits (a set bit: the value is > 0), packed in the byte and bit order of
    sqlite-vec's `vec_quantize_binary`, padded to whole 8-byte words."""
    packed = np.packbits(np.atleast_2d(vectors) > 0, axis=1, bitorder="little")
    pad = (-packed.shape[1]) % 8
    return np.ascontiguousarray(np.pad(packed, ((0, 0), (0, pad))) if pad else packed)


def vec_dimensions(conn: apsw.Connection) -> int | None:
    value = scalar(conn, "SELECT value FROM store_meta WHERE key = ?", (_META_DIMS,))
    return int(value) if value is not None else None


def store_id(conn: apsw.Connection) -> str | None:
    """This store's random identity (migration 0031): what a cache built from it records."""
    return scalar(conn, "SELECT value FROM store_meta WHERE key = ?", (_META_STORE,))


def _vec_target(conn: apsw.Connection) -> tuple[int | None, str | None, str | None]:
    """(dimensions, model, kind) the vec0 table holds; model None on stores built before it was
    recorded; kind `float` on stores built before bit tables."""
    found = dict(conn.execute("SELECT key, value FROM store_meta WHERE key IN (?, ?, ?)",
                              (_META_DIMS, _META_MODEL, _META_KIND)))
    dims = found.get(_META_DIMS)
    if dims is None:
        return None, None, None
    return int(dims), found.get(_META_MODEL), found.get(_META_KIND, "float")


def _set_meta(conn: apsw.Connection, key: str, value: str) -> None:
    conn.execute("INSERT INTO store_meta(key, value) VALUES (?, ?) "
                 "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))


def _vec_rows(kind: str, ids: list[int], vectors: np.ndarray) -> Iterator[tuple[int, bytes]]:
    """(rowid, value) for vec0: the sign bits, or the float32 vector."""
    values = sign_bits(vectors)[:, : vectors.shape[1] // 8] if kind == "bit" else vectors.astype("<f4")
    return zip(ids, (v.tobytes() for v in values))


def _vec_insert(conn: apsw.Connection, kind: str, ids: list[int], vectors: np.ndarray) -> None:
    value = "vec_bit(?)" if kind == "bit" else "?"
    conn.executemany(f"INSERT INTO {VEC_TABLE}(rowid, embedding) VALUES (?, {value})", _vec_rows(kind, ids, vectors))


def ensure_vec_table(conn: apsw.Connection, dimensions: int, model: str | None = None, kind: str | None = None) -> bool:
    """Create (or rebuild for a new dimension, model or kind) the vec0 table. Returns True if it was (re)built.

    `kind` None keeps the kind the store holds (`bit` for a new one): the snapshot import and the
    refresh need not know the backend. Sign bits need a dimension divisible by 8; other
    dimensions get `float`. vec0 holds only vectors of the configured model and dimension:
    vectors of another model are not comparable with the query even at the same dimension. The
    rest stay in `embeddings` until the refresh stage re-embeds them (their memories stay
    keyword-searchable meanwhile).
    """
    exists = scalar(conn, "SELECT 1 FROM sqlite_master WHERE name = ?", (VEC_TABLE,))
    held_dims, held_model, held_kind = _vec_target(conn)
    kind = kind or held_kind or "bit"
    if kind == "bit" and dimensions % 8:
        kind = "float"
    if exists and held_dims == dimensions and (model is None or held_model == model) and held_kind == kind:
        return False
    conn.execute(f"DROP TABLE IF EXISTS {VEC_TABLE}")
    column = f"bit[{int(dimensions)}]" if kind == "bit" else f"float[{int(dimensions)}] distance_metric=cosine"
    conn.execute(f"CREATE VIRTUAL TABLE {VEC_TABLE} USING vec0(embedding {column})")
    cur = conn.execute("SELECT id, vector FROM embeddings WHERE dimensions = ? AND (? IS NULL OR model = ?) "
                       "ORDER BY id", (dimensions, model, model))
    while batch := list(islice(cur, 10_000)):
        _vec_insert(conn, kind, [r[0] for r in batch], decode([r[1] for r in batch], dimensions))
    _set_meta(conn, _META_DIMS, str(dimensions))
    _set_meta(conn, _META_KIND, kind)
    if model is not None:
        _set_meta(conn, _META_MODEL, model)
    return True


def upsert(conn: apsw.Connection, *, content_hash: str, vector: np.ndarray, model: str, source_id: str | None,
           source_type: str = "memory", now: str) -> int:
    """Insert or replace the vector for a content hash, keeping vec_embeddings in sync: the row's
    old vector leaves vec0, the new one enters it when it is of the model and dimension vec0 holds."""
    dims = int(vector.shape[0])
    blob = to_blob(vector)
    embedding_id = scalar(
        conn,
        "INSERT INTO embeddings(content_hash, vector, dimensions, model, source_type, source_id, created_at, "
        "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(content_hash) DO UPDATE SET vector = excluded.vector, dimensions = excluded.dimensions, "
        "model = excluded.model, updated_at = excluded.updated_at RETURNING id",
        (content_hash, blob, dims, model, source_type, source_id, now, now),
    )
    held_dims, held_model, held_kind = _vec_target(conn)
    if held_kind is not None:  # a vec0 table was built (its kind is known with its dimensions)
        conn.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid = ?", (embedding_id,))
        if held_dims == dims and held_model in (None, model):  # from the stored value, as a rebuild would
            _vec_insert(conn, held_kind, [embedding_id], np.atleast_2d(from_blob(blob)))
    return int(embedding_id)


def reindex(conn: apsw.Connection, ids: list[int]) -> None:
    """Bring embedding rows written in bulk (snapshot import) into vec_embeddings, as `upsert` does
    one by one, and store those written as float32 in the compact encoding."""
    if not ids:
        return
    found = rows_by_ids(conn, ids)
    wide = [(to_blob(from_blob(r["vector"])), r["id"]) for r in found if not len(r["vector"]) % 2]
    conn.executemany("UPDATE embeddings SET vector = ? WHERE id = ?", wide)
    held_dims, held_model, held_kind = _vec_target(conn)
    if held_dims is None or held_kind is None:  # no vec0 table was built (both are recorded with it)
        return
    conn.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid IN (SELECT value FROM json_each(?))", (json.dumps(ids),))
    held = [r for r in found if r["dimensions"] == held_dims and held_model in (None, r["model"])]
    if held:
        _vec_insert(conn, held_kind, [r["id"] for r in held], decode([r["vector"] for r in held], held_dims))


def vec_identity(conn: apsw.Connection) -> tuple[str, int] | None:
    """(model, dimensions) of the vectors vec0 holds, if it was built."""
    held_dims, held_model, _ = _vec_target(conn)
    return (held_model, held_dims) if held_dims is not None and held_model is not None else None


def vec_bits(conn: apsw.Connection, model: str, dimensions: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(embedding ids ascending, their sign bits as rows of bytes) from a vec0 table of sign bits
    for this model and dimension; None when vec0 holds something else. Sorted here: vec0 scans
    in its storage order."""
    if _vec_target(conn) != (dimensions, model, "bit"):
        return None
    found = cast(list[tuple[int, bytes]], conn.execute(f"SELECT rowid, embedding FROM {VEC_TABLE}").fetchall())
    ids = np.fromiter((r[0] for r in found), dtype=np.int64, count=len(found))
    bits = np.frombuffer(b"".join(r[1] for r in found), dtype=np.uint8).reshape(len(found), dimensions // 8)
    order = np.argsort(ids, kind="stable")
    return ids[order], bits[order]


def dominant_model(conn: apsw.Connection) -> tuple[str, int] | None:
    """(model, dimensions) of the vectors vec0 holds, else of the most vectors."""
    if (held := vec_identity(conn)) is not None:
        return held
    found = one(conn, "SELECT model, dimensions FROM embeddings GROUP BY model, dimensions "
                      "ORDER BY count(*) DESC LIMIT 1")
    return (found["model"], int(found["dimensions"])) if found else None


def exists_for_hash(conn: apsw.Connection, content_hash: str, model: str) -> bool:
    return scalar(conn, "SELECT 1 FROM embeddings WHERE content_hash = ? AND model = ?",
                  (content_hash, model)) is not None


def vector_for_hash(conn: apsw.Connection, content_hash: str) -> tuple[np.ndarray, str] | None:
    found = one(conn, "SELECT vector, model FROM embeddings WHERE content_hash = ?", (content_hash,))
    return (from_blob(found["vector"]), found["model"]) if found else None


def vectors_for_hashes(conn: apsw.Connection, hashes: list[str], model: str, dimensions: int) -> dict[str, np.ndarray]:
    return {r[0]: from_blob(r[1]) for r in conn.execute(
        "SELECT content_hash, vector FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?)) "
        "AND model = ? AND dimensions = ?", (json.dumps(hashes), model, dimensions))}


def count_matching(conn: apsw.Connection, model: str, dimensions: int) -> int:
    return int(scalar(conn, "SELECT count(*) FROM embeddings WHERE model = ? AND dimensions = ?", (model, dimensions)))


def iter_matching(conn: apsw.Connection, model: str, dimensions: int, chunk: int = 50_000) -> Iterator[list[tuple]]:
    """(id, content_hash, vector blob) of every vector of this model and dimension, in chunks
    (call inside a read transaction to see one snapshot)."""
    cur = conn.execute("SELECT id, content_hash, vector FROM embeddings WHERE model = ? AND dimensions = ? ORDER BY id",
                       (model, dimensions))
    while batch := list(islice(cur, chunk)):
        yield batch


def rows_by_ids(conn: apsw.Connection, ids: list[int]) -> list[Row]:
    return rows(conn, "SELECT id, content_hash, vector, model, dimensions FROM embeddings "
                      "WHERE id IN (SELECT value FROM json_each(?))", (str(list(ids)),))


def last_change_seq(conn: apsw.Connection) -> int:
    return int(scalar(conn, "SELECT coalesce(max(seq), 0) FROM embedding_changes") or 0)


def change_at(conn: apsw.Connection, seq: int) -> int | None:
    """The embedding id the change log entry `seq` names (None: no such entry, or pruned)."""
    return scalar(conn, "SELECT embedding_id FROM embedding_changes WHERE seq = ?", (seq,))


def hash_width(conn: apsw.Connection) -> int:
    """Bytes of the longest content hash (a scan of the hash index, not of the vectors)."""
    return int(scalar(conn, "SELECT coalesce(max(length(CAST(content_hash AS BLOB))), 1) FROM embeddings") or 1)


def changes_since(conn: apsw.Connection, seq: int, limit: int = 50_000) -> list[tuple[int, int, str]]:
    """(seq, embedding_id, op) after seq, oldest first."""
    return [(r[0], r[1], r[2]) for r in conn.execute(
        "SELECT seq, embedding_id, op FROM embedding_changes WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit))]


def vec_knn(conn: apsw.Connection, query: np.ndarray, k: int) -> list[tuple[str, float]]:
    """(content_hash, cosine similarity) through sqlite-vec, best first."""
    return [(r[0], 1.0 - r[1]) for r in conn.execute(
        f"SELECT e.content_hash, v.distance FROM {VEC_TABLE} v JOIN embeddings e ON e.id = v.rowid "
        "WHERE v.embedding MATCH ? AND k = ? ORDER BY v.distance", (np.asarray(query, dtype="<f4").tobytes(), k))]


def counts(conn: apsw.Connection, model: str) -> dict[str, int]:
    found = one(conn, "SELECT count(*) AS total, coalesce(sum(model = ?), 0) AS current FROM embeddings", (model,))
    assert found is not None
    return {"total": found["total"], "currentModel": found["current"]}


def _deleted(conn: apsw.Connection, ids: list[int]) -> int:
    """Follow a DELETE ... RETURNING id on embeddings into vec_embeddings (the change log tells
    every in-process index)."""
    if ids and vec_dimensions(conn) is not None:
        conn.execute(f"DELETE FROM {VEC_TABLE} WHERE rowid IN (SELECT value FROM json_each(?))", (json.dumps(ids),))
    return len(ids)


def delete_for_hashes(conn: apsw.Connection, hashes: list[str]) -> int:
    """Drop the vectors of these hashes from embeddings and vec_embeddings."""
    return _deleted(conn, [r[0] for r in conn.execute(
        "DELETE FROM embeddings WHERE content_hash IN (SELECT value FROM json_each(?)) RETURNING id",
        (json.dumps(hashes),))])


def delete_unused_by_sources(conn: apsw.Connection, source_ids: list[str]) -> int:
    """Drop vectors these memories wrote under a hash no memory carries any more (the memory's
    content changed; spec: stale embeddings are deleted by source). A tombstone's vector stays:
    retention owns it, and a recovered memory needs it."""
    return _deleted(conn, [r[0] for r in conn.execute(
        "DELETE FROM embeddings WHERE source_id IN (SELECT value FROM json_each(?)) AND NOT EXISTS "
        "(SELECT 1 FROM memories m WHERE m.content_hash = embeddings.content_hash) RETURNING id",
        (json.dumps(source_ids),))])


_ORPHANS = ("SELECT e.id FROM embeddings e WHERE e.source_type = 'memory' AND NOT EXISTS "
            "(SELECT 1 FROM memories m WHERE m.content_hash = e.content_hash)")


def delete_orphans(conn: apsw.Connection, limit: int) -> int:
    """Drop up to `limit` orphan vectors (a tombstone's vector stays: retention owns it)."""
    return _deleted(conn, [r[0] for r in conn.execute(
        f"DELETE FROM embeddings WHERE id IN ({_ORPHANS} LIMIT ?) RETURNING id", (limit,))])


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


def oldest_without(conn: apsw.Connection, model: str) -> str | None:
    """created_at of the oldest live memory without a vector of `model` (None: every one has one)."""
    return scalar(conn, "SELECT min(m.created_at) FROM memories m LEFT JOIN embeddings e ON e.content_hash = "
                        "m.content_hash WHERE m.is_deleted = 0 AND (e.model IS NULL OR e.model <> ?)", (model,))


# -- refresh (spec "Embedding Tracker") ---------------------------------------------------------
# A live memory needs a vector when its hash has none (`missing`, or `stale` when the memory wrote
# a vector under an older hash: its content changed) or the hash's vector is of another model or
# dimension (`model_switch`).
_REASON = ("CASE WHEN e.id IS NULL THEN (CASE WHEN EXISTS (SELECT 1 FROM embeddings o WHERE o.source_id = m.id "
           "AND o.content_hash <> m.content_hash) THEN 'stale' ELSE 'missing' END) "
           "WHEN e.model <> :model OR e.dimensions <> :dims THEN 'model_switch' ELSE 'current' END")
_NEEDS = "(e.id IS NULL OR e.model <> :model OR e.dimensions <> :dims)"
_FROM = "FROM memories m LEFT JOIN embeddings e ON e.content_hash = m.content_hash WHERE m.is_deleted = 0"


def stale_memories(conn: apsw.Connection, *, model: str, dimensions: int, limit: int,
                   updated_before: str | None = None) -> list[Row]:
    """Live memories needing a vector (last changed before `updated_before`, when given), most
    recently updated first: rid, id, content, content_hash, reason."""
    return rows(conn, f"SELECT m.rid, m.id, m.content, m.content_hash, {_REASON} AS reason {_FROM} AND {_NEEDS} "
                      "AND (:before IS NULL OR m.updated_at < :before) "
                      "ORDER BY m.updated_at DESC, m.rid DESC LIMIT :limit",
                {"model": model, "dims": dimensions, "limit": limit, "before": updated_before})


def memories_created_between(conn: apsw.Connection, *, model: str, dimensions: int, start: str, end: str,
                             after_rid: int, limit: int, include_current: bool) -> list[Row]:
    """Live memories created in [start, end) in rid order after `after_rid` (keyset pages): those
    needing a vector, or all of them with `include_current` (reason `current` for the rest)."""
    needs = "" if include_current else f" AND {_NEEDS}"
    return rows(conn, f"SELECT m.rid, m.id, m.content, m.content_hash, {_REASON} AS reason {_FROM} "
                      f"AND m.created_at >= :start AND m.created_at < :end AND m.rid > :after{needs} "
                      "ORDER BY m.rid LIMIT :limit",
                {"model": model, "dims": dimensions, "start": start, "end": end, "after": after_rid, "limit": limit})


def refresh_backlog(conn: apsw.Connection, *, model: str, dimensions: int, start: str | None = None,
                    end: str | None = None) -> dict[str, int]:
    """How many live memories (created in [start, end) when given) need a vector, by reason."""
    window = " AND m.created_at >= :start AND m.created_at < :end" if start is not None else ""
    found = dict(conn.execute(f"SELECT {_REASON} AS reason, count(*) {_FROM} AND {_NEEDS}{window} GROUP BY reason",
                              {"model": model, "dims": dimensions, "start": start, "end": end}))
    return {reason: int(found.get(reason, 0)) for reason in ("missing", "stale", "model_switch")}


def has_backlog(conn: apsw.Connection, *, model: str, dimensions: int | None, updated_before: str) -> bool:
    """Whether any live memory last changed before `updated_before` needs a vector of `model` (and
    `dimensions`, when known): the sensor's cheap question (stops at the first such memory). Newer
    ones may have their vector on its way (the API writes it behind the answer)."""
    return scalar(conn, "SELECT 1 FROM memories m LEFT JOIN embeddings e ON e.content_hash = m.content_hash "
                        "WHERE m.is_deleted = 0 AND m.updated_at < :before AND (e.id IS NULL OR e.model <> :model "
                        "OR (:dims IS NOT NULL AND e.dimensions <> :dims)) LIMIT 1",
                  {"model": model, "dims": dimensions, "before": updated_before}) is not None


# -- export (GET /api/embeddings) ------------------------------------------------------------------

def _export_from(where: str) -> str:
    return (f"FROM memories m JOIN embeddings e ON e.content_hash = m.content_hash "
            f"WHERE {where} AND e.model = :model AND (:dims IS NULL OR e.dimensions = :dims)")


def export_page(conn: apsw.Connection, flt: MemoryFilter, *, model: str, dimensions: int | None, limit: int,
                offset: int, with_vectors: bool) -> list[Row]:
    """Visible memories with a vector of the configured model, newest first, with their vector's
    provenance (and the vector itself when asked)."""
    where, params = flt.sql()
    params.update(model=model, dims=dimensions, limit=limit, offset=offset)
    vector = ", e.vector" if with_vectors else ""
    return rows(conn, "SELECT m.id, m.content, coalesce(e.chunk_text, m.content) AS text, m.who, m.importance, m.type, "
                      f"m.tags, e.source_type, e.source_id, m.created_at{vector} {_export_from(where)} "
                      "ORDER BY m.created_at DESC, m.rid DESC LIMIT :limit OFFSET :offset", params)


def export_total(conn: apsw.Connection, flt: MemoryFilter, *, model: str, dimensions: int | None) -> int:
    where, params = flt.sql()
    params.update(model=model, dims=dimensions)
    return int(scalar(conn, f"SELECT count(*) {_export_from(where)}", params) or 0)
