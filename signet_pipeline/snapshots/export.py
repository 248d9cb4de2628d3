"""Export: one Parquet (or JSON Lines) file per table plus a manifest, streamed in chunks.

Every table is read inside one read transaction, so the snapshot is consistent across tables while
writers go on (WAL). Rows flow SQLite cursor -> polars frame of `chunk` rows -> the file, through a
polars IO source sunk by the streaming engine: memory stays flat whatever the store's size.
Vectors become fixed-size float32 arrays. The files are written into `PATH.partial` and the
directory is renamed once the manifest is in, so a crashed export never looks like a snapshot.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import polars as pl
from polars.io.plugins import register_io_source

from signet_pipeline import __version__
from signet_pipeline.errors import SnapshotError
from signet_pipeline.snapshots.manifest import (
    MANIFEST,
    Column,
    ColumnType,
    EmbeddingInfo,
    FileFormat,
    Manifest,
    TableFile,
    polars_type,
    sha256_of,
)
from signet_pipeline.store import embeddings as embedding_store
from signet_pipeline.store import snapshot_tables
from signet_pipeline.store.db import Database
from signet_pipeline.store.migrate import applied_versions
from signet_pipeline.store.snapshot_tables import SnapshotTable
from signet_pipeline.timeutil import now_iso

# (table, rows done, rows in all)
Progress = Callable[[str, int, int], None]
_SQL_TYPES: dict[str, ColumnType] = {"INTEGER": "integer", "REAL": "real", "BLOB": "blob"}
_EMBEDDING_FILTER = "model = :model AND dimensions = :dims"


def _columns(conn, table: SnapshotTable) -> list[Column]:
    cols = [Column(name=name, type=_SQL_TYPES.get(decl, "text"))
            for name, decl in snapshot_tables.columns(conn, table.name) if name not in table.skip]
    if table.name == "embeddings":
        cols = [c if c.name != "vector" else Column(name="vector", type="vector") for c in cols]
    return cols


def _frames(conn, table: SnapshotTable, cols: list[Column], schema: pl.Schema, *, agent: str | None,
            extra: str | None, params: dict, chunk: int, total: int,
            progress: Progress | None) -> Iterator[pl.DataFrame]:
    names = [c.name for c in cols]
    vector_at = names.index("vector") if table.name == "embeddings" else None
    plain = pl.Schema({n: t for n, t in schema.items() if n != "vector"})
    done = 0
    for batch in snapshot_tables.stream(conn, table, names, agent=agent, extra=extra, params=params, chunk=chunk):
        if vector_at is None:
            frame = pl.DataFrame(batch, schema=schema, orient="row")
        else:
            blobs = [row[vector_at] for row in batch]
            rest = [row[:vector_at] + row[vector_at + 1:] for row in batch]
            frame = pl.DataFrame(rest, schema=plain, orient="row")
            vector_type = schema["vector"]
            assert isinstance(vector_type, pl.Array)  # manifest.polars_type: a vector is a fixed-size array
            vectors = embedding_store.decode(blobs, vector_type.size)
            frame = frame.insert_column(vector_at, pl.Series("vector", vectors, dtype=vector_type))
        done += len(batch)
        if progress:
            progress(table.name, done, total)
        yield frame


def _sink(frames: Callable[[], Iterator[pl.DataFrame]], schema: pl.Schema, path: Path, fmt: FileFormat,
          chunk: int) -> None:
    def source(with_columns, predicate, n_rows, batch_size) -> Iterator[pl.DataFrame]:
        for frame in frames():
            yield frame.select(with_columns) if with_columns is not None else frame

    lazy = register_io_source(source, schema=schema)
    if fmt == "parquet":
        lazy.sink_parquet(path, row_group_size=chunk, compression="zstd")
    else:
        lazy.sink_ndjson(path)


def export_snapshot(db: Database, out: str | Path, *, fmt: FileFormat = "parquet", agent: str | None = None,
                    chunk: int = 10_000, progress: Progress | None = None) -> Manifest:
    """Write a snapshot of the store (or of one agent's rows) to the directory `out`."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise SnapshotError(f"{out} exists and is not an empty directory: choose a new path",
                            code="snapshot_target_exists")
    partial = out.with_name(out.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    suffix = "parquet" if fmt == "parquet" else "jsonl"
    entries: list[TableFile] = []
    with db.read() as conn:
        embedding = embedding_store.dominant_model(conn)
        info = EmbeddingInfo(model=embedding[0], dimensions=embedding[1]) if embedding else None
        for table in snapshot_tables.TABLES:
            extra, params = None, {}
            if table.name == "embeddings":
                if info is None:
                    continue
                extra, params = _EMBEDDING_FILTER, {"model": info.model, "dims": info.dimensions}
            cols = _columns(conn, table)
            schema = pl.Schema({c.name: polars_type(c, info.dimensions if info else None) for c in cols})
            total = snapshot_tables.count(conn, table, agent=agent, extra=extra, params=params)
            path = partial / f"{table.name}.{suffix}"

            def frames(table=table, cols=cols, schema=schema, extra=extra, params=params, total=total):
                return _frames(conn, table, cols, schema, agent=agent, extra=extra, params=params, chunk=chunk,
                               total=total, progress=progress)

            _sink(frames, schema, path, fmt, chunk)
            if progress and total == 0:
                progress(table.name, 0, 0)
            entries.append(TableFile(table=table.name, family=table.family, file=path.name, rows=total,
                                     bytes=path.stat().st_size, sha256=sha256_of(path), columns=cols))
        if info is not None:  # vectors of another model or dimension await re-embedding: not exported
            info.left_out = snapshot_tables.count(conn, snapshot_tables.BY_NAME["embeddings"], agent=agent) \
                - next(e.rows for e in entries if e.table == "embeddings")
        schema_version = max(applied_versions(db), default=0)
    manifest = Manifest(schema_version=schema_version, signet_version=__version__, created_at=now_iso(),
                        agent=agent, file_format=fmt, embedding=info, tables=entries)
    (partial / MANIFEST).write_text(manifest.model_dump_json(indent=2), encoding="utf-8")
    if out.exists():
        out.rmdir()
    partial.rename(out)
    return manifest
