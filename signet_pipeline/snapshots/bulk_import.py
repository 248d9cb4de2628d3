"""The bulk path of a snapshot import: the whole import in one write transaction, all or nothing.
New rows are planned over the Parquet with polars under the per-row path's rules, then loaded with
plain INSERTs while indexes and insert triggers are set aside (store/bulk_load.py); merges and
small tables take the per-row path in the same transaction. A refused row rolls everything back.
Other writers wait meanwhile: use `signet import --no-bulk` on a live store. Design: docs/internals.md.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import apsw
import polars as pl

from signet_pipeline.errors import SnapshotError
from signet_pipeline.snapshots import incremental, ownership
from signet_pipeline.snapshots.export import Progress
from signet_pipeline.snapshots.incremental import Source, TableImport
from signet_pipeline.snapshots.manifest import Manifest
from signet_pipeline.store import bulk_load, snapshot_tables
from signet_pipeline.store import embeddings as embedding_store
from signet_pipeline.store.db import Database

# Below this many rows of the bulk tables in a snapshot the per-row path costs little more.
MIN_ROWS = 50_000
_CHUNK = 20_000  # rows per executemany: big enough to amortise the call, small enough to stay flat
_REBUILD = "indexes and vectors"  # the progress step once the rows are in


def worth_it(db: Database, manifest: Manifest) -> bool:
    """Many rows for the bulk tables, into a store holding fewer rows in them than the snapshot
    (the indexes rebuilt once cover the store's rows too)."""
    rows = sum(e.rows for e in manifest.tables if e.table in bulk_load.TABLES)
    if rows < MIN_ROWS:
        return False
    with db.read() as conn:
        return sum(snapshot_tables.count(conn, snapshot_tables.BY_NAME[t]) for t in bulk_load.TABLES) < rows


def _keys(conn: apsw.Connection, table: str, cols: Sequence[str]) -> list[tuple]:
    """Values of `cols` over every row of `table` the store holds."""
    return [r for batch in snapshot_tables.stream(conn, snapshot_tables.BY_NAME[table], cols) for r in batch]


@dataclass
class _Plan:
    src: Source
    new: pl.LazyFrame  # the rows to load: the store holds none of their keys
    written: int = 0
    refused: int = 0
    seen: int = 0  # rows gone through the per-row path


def _merge(db: Database, conn: apsw.Connection, src: Source, *, chunk: int, progress: Progress | None) -> _Plan:
    """Rows whose key the store holds go through the per-row path (newer versions, vectors of
    another model); the plan keeps the others."""
    key = list(src.table.key)
    schema = src.frame.collect_schema()
    held = pl.DataFrame(_keys(conn, src.table.name, key), schema={c: schema[c] for c in key}, orient="row")
    if held.is_empty():
        return _Plan(src, src.frame)
    merged = src.frame.join(held.lazy(), on=key, how="semi")
    written, refused, seen = incremental.write(db, src, merged, chunk=chunk, progress=progress)
    return _Plan(src, src.frame.join(held.lazy(), on=key, how="anti"), written, refused, seen)


def _not_repeating(conn: apsw.Connection, frame: pl.LazyFrame) -> pl.LazyFrame:
    """New memories but those repeating a live memory of their agent in the store (the per-row
    path's rule, snapshot_tables._insert_sql: the store's memory is kept)."""
    live = pl.DataFrame(bulk_load.live_content(conn), schema={"agent_id": pl.String, "content_hash": pl.String},
                        orient="row")
    if live.is_empty():
        return frame
    held = live.lazy().with_columns(pl.lit(0, pl.Int64).alias("is_deleted"))
    return frame.join(held, on=["agent_id", "content_hash", "is_deleted"], how="anti")


def _sole_vectors(conn: apsw.Connection, plan: _Plan, memories: pl.LazyFrame) -> None:
    """The vectors the plan may load (snapshot_tables.VECTOR_GUARD, before any memory is loaded):
    those of text that the row's agent in the snapshot alone holds, in the snapshot's memories and
    in the store."""
    held = pl.DataFrame(snapshot_tables.hash_agents(conn), schema={"content_hash": pl.String, "agent_id": pl.String},
                        orient="row").lazy()
    texts = pl.concat([memories.select("content_hash", "agent_id"), held]).unique()
    sole = texts.group_by("content_hash").agg(pl.col("agent_id").n_unique().alias("_agents"),
                                              pl.col("agent_id").first().alias(ownership.OWNER)) \
        .filter(pl.col("_agents") == 1).select("content_hash", ownership.OWNER)
    before = int(plan.new.select(pl.len()).collect().item())
    owned = plan.src.owned(plan.new).join(sole, on=["content_hash", ownership.OWNER], how="semi")
    plan.new = owned.select(plan.new.collect_schema().names())
    plan.refused += before - int(plan.new.select(pl.len()).collect().item())


def _unrefused(conn: apsw.Connection, plan: _Plan) -> None:
    """Leave out of the plan the rows the ownership guards refuse. Only a row naming a row the
    store holds can be refused (a new row's own key it does not hold); those few go through the
    guards' SQL."""
    src, schema = plan.src, plan.new.collect_schema()
    names = []
    for col, ref in snapshot_tables.guarded_refs(src.table, src.cols):
        if (ref, col) == (src.table.name, src.table.key[0]):
            continue
        held = [r[0] for r in _keys(conn, ref, snapshot_tables.BY_NAME[ref].key[:1])]
        if held:
            names.append(pl.col(col).is_in(pl.Series(held, dtype=schema[col]).implode()))
    if not names:
        return
    candidates = src.owned(plan.new.filter(pl.any_horizontal(names))).collect()
    refused = snapshot_tables.refused(conn, src.table, src.cols, incremental.records(candidates))
    if refused:
        key = list(src.table.key)
        plan.new = plan.new.join(candidates[refused].select(key).lazy(), on=key, how="anti")
        plan.refused += len(refused)


def _rows(frame: pl.LazyFrame, cols: list[str]) -> Iterator[list[tuple]]:
    """The frame's rows as tuples in `cols` order, a batch at a time; the next batch is converted
    on a thread of its own while the caller inserts this one (SQLite runs without the GIL)."""
    convert = lambda batch: incremental.vector_blobs(batch.select(cols)).rows()  # noqa: E731
    with ThreadPoolExecutor(1, thread_name_prefix="import-rows") as pool:
        ahead = None
        for batch in frame.collect_batches(chunk_size=_CHUNK):
            following = pool.submit(convert, batch)
            if ahead is not None:
                yield ahead.result()
            ahead = following
        if ahead is not None:
            yield ahead.result()


def _load(conn: apsw.Connection, plan: _Plan, progress: Progress | None) -> TableImport:
    src, loaded = plan.src, 0
    for rows in _rows(plan.new, src.cols):
        loaded += bulk_load.insert(conn, src.table.name, src.cols, rows)
        if progress:
            progress(src.table.name, plan.seen + loaded, src.total)
    if progress and src.total == 0:
        progress(src.table.name, 0, 0)
    return src.report(plan.written + loaded, plan.refused)


def _index_vectors(conn: apsw.Connection, manifest: Manifest, new: list[int]) -> None:
    """The new vectors into the vector table: built from the embeddings table when the store has
    none (or one for another model), else added to it."""
    vectors = manifest.vectors()
    if embedding_store.ensure_vec_table(conn, vectors.dimensions, vectors.model):
        return
    for at in range(0, len(new), _CHUNK):
        embedding_store.reindex(conn, new[at:at + _CHUNK])


def import_bulk(db: Database, root: Path, manifest: Manifest, *, tables: list[str], agent: str | None, chunk: int,
                progress: Progress | None) -> dict[str, TableImport]:
    """Import `tables` (in write order) in one transaction; the bulk tables among them in bulk."""
    out: dict[str, TableImport] = {}
    at = "the snapshot"
    try:
        with db.write() as conn, bulk_load.tuned(conn):
            plans: dict[str, _Plan] = {}
            for name in (t for t in tables if t in bulk_load.TABLES):  # merges first, while the indexes are in place
                at = manifest.entry(name).file
                src = incremental.source(db, root, manifest, manifest.entry(name), agent=agent)
                plans[name] = _merge(db, conn, src, chunk=chunk, progress=progress)
            for name, plan in plans.items():  # then every row to load is checked before the first is
                if name == "memories":
                    plan.new = _not_repeating(conn, plan.new)
                if name == "embeddings":
                    _sole_vectors(conn, plan, plans["memories"].new if "memories" in plans else
                                  pl.LazyFrame(schema={"content_hash": pl.String, "agent_id": pl.String}))
                else:
                    _unrefused(conn, plan)
            with bulk_load.deferred(conn) as marks:
                for name, plan in plans.items():
                    at = manifest.entry(name).file
                    out[name] = _load(conn, plan, progress)
                at = "the snapshot"  # the indexes rebuilt on the way out check uniqueness over every table
                loaded = sum(plan.src.total for plan in plans.values())
                if progress:
                    progress(_REBUILD, 0, loaded)
            if "embeddings" in plans:
                _index_vectors(conn, manifest, bulk_load.rowids_after(conn, "embeddings", marks["embeddings"]))
            if progress:
                progress(_REBUILD, loaded, loaded)
            for name in tables:
                if name not in out:
                    at = manifest.entry(name).file
                    out[name] = incremental.import_table(db, root, manifest, manifest.entry(name), agent=agent,
                                                         chunk=chunk, progress=progress)
    except apsw.ConstraintError as exc:
        raise SnapshotError(f"{at}: a row breaks a rule of the store ({exc}); the import was rolled back, "
                            "nothing was written", code="snapshot_invalid") from exc
    bulk_load.truncate_wal(db.reader())
    return out
