"""The per-row path of a snapshot import: a table's rows, `chunk` at a time, each chunk checked
against the store (snapshot_tables.refused) and written matched on natural keys, in a short
transaction of its own, or inside the caller's when one is open (Database.write joins it).

A live service keeps answering and sees the rows as they land; a second import of the same
snapshot writes nothing; an interrupted import is completed by running it again. The bulk path
(snapshots/bulk_import.py) writes the rows whose key the store already holds, and the small
tables, through here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from pydantic import BaseModel

from signet_pipeline.snapshots import ownership
from signet_pipeline.snapshots.export import Progress
from signet_pipeline.snapshots.manifest import Manifest, TableFile, scan
from signet_pipeline.store import embeddings as embedding_store
from signet_pipeline.store import snapshot_tables
from signet_pipeline.store.db import Database
from signet_pipeline.store.snapshot_tables import SnapshotTable


class TableImport(BaseModel):
    rows: int
    written: int
    refused: int = 0  # the store holds them, or rows they refer to, for another agent
    left_out: int = 0  # other agents' rows, importing as one agent

    @property
    def unchanged(self) -> int:
        return self.rows - self.written - self.refused - self.left_out


@dataclass(frozen=True)
class Source:
    """A table file's rows to import: `cols` (the store's columns the file holds); `total` of the
    file's `rows` are the importing agent's."""

    table: SnapshotTable
    cols: list[str]
    frame: pl.LazyFrame
    rows: int
    total: int
    root: Path
    manifest: Manifest

    def owned(self, frame: pl.LazyFrame) -> pl.LazyFrame:
        """Rows of this source with their agent in the snapshot (ownership.OWNER), which the store's
        guards check (snapshot_tables.refused)."""
        return ownership.with_owner(frame, self.root, self.manifest, self.table) if self.table.guarded else frame

    def report(self, written: int, refused: int) -> TableImport:
        return TableImport(rows=self.rows, written=written, refused=refused, left_out=self.rows - self.total)


def source(db: Database, root: Path, manifest: Manifest, entry: TableFile, *, agent: str | None) -> Source:
    table = snapshot_tables.BY_NAME[entry.table]
    with db.read() as conn:
        present = {name for name, _ in snapshot_tables.columns(conn, table.name)}
    # A snapshot from an older schema lacks newer columns: the table's defaults fill them.
    cols = [c.name for c in entry.columns if c.name in present and c.name not in table.skip]
    frame, total = scan(root, entry, manifest).select(cols), entry.rows
    if agent is not None:
        frame = ownership.agent_rows(frame, root, manifest, table, agent)
        total = int(frame.select(pl.len()).collect().item())
    return Source(table, cols, frame, entry.rows, total, root, manifest)


def vector_blobs(frame: pl.DataFrame) -> pl.DataFrame:
    """The frame with its float32 array column `vector` as the blobs the store keeps."""
    if "vector" not in frame.columns:
        return frame
    vectors = np.asarray(frame["vector"].to_numpy(), dtype=np.float32)
    return frame.with_columns(pl.Series("vector", [embedding_store.to_blob(v) for v in vectors], dtype=pl.Binary))


def records(frame: pl.DataFrame) -> list[dict]:
    return vector_blobs(frame).to_dicts()


def write(db: Database, src: Source, frame: pl.LazyFrame, *, chunk: int,
          progress: Progress | None) -> tuple[int, int, int]:
    """Write `frame` (rows of `src`) chunk by chunk; (rows written, rows refused, rows in all)."""
    table, cols = src.table, src.cols
    written = refused = done = 0
    for batch in src.owned(frame).collect_batches(chunk_size=chunk):
        rows = records(batch)
        with db.write() as conn:
            foreign = set(snapshot_tables.refused(conn, table, cols, rows))
            kept = [r for at, r in enumerate(rows) if at not in foreign]
            returned = snapshot_tables.write(conn, table, cols, kept)
            if table.name == "embeddings":
                embedding_store.reindex(conn, [int(i) for i in returned])
        written += len(returned)
        refused += len(foreign)
        done += len(rows)
        if progress:
            progress(table.name, done, src.total)
    return written, refused, done


def import_table(db: Database, root: Path, manifest: Manifest, entry: TableFile, *, agent: str | None, chunk: int,
                 progress: Progress | None) -> TableImport:
    src = source(db, root, manifest, entry, agent=agent)
    written, refused, _ = write(db, src, src.frame, chunk=chunk, progress=progress)
    if progress and src.total == 0:
        progress(src.table.name, 0, 0)
    return src.report(written, refused)
