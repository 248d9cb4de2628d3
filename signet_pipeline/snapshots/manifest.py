"""The snapshot manifest: what a snapshot holds and how to tell it is whole.

`manifest.json` is written last, after every table file, so a directory without one is an export
that did not finish. Import checks everything here before it writes a row.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Final, Literal

import polars as pl
from pydantic import BaseModel, Field, ValidationError

from signet_pipeline.errors import SnapshotError
from signet_pipeline.text.content import normalize_content

FORMAT: Final = "signet-snapshot"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
FileFormat = Literal["parquet", "jsonl"]
ColumnType = Literal["integer", "real", "text", "blob", "vector"]


class Column(BaseModel):
    name: str
    type: ColumnType


class TableFile(BaseModel):
    table: str
    family: str
    file: str
    rows: int = Field(ge=0)
    bytes: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    columns: list[Column]


class EmbeddingInfo(BaseModel):
    model: str
    dimensions: int = Field(gt=0)
    # Vectors of another model or dimension (awaiting re-embedding) are left out of the snapshot.
    left_out: int = Field(0, ge=0)


class Manifest(BaseModel):
    format: Literal["signet-snapshot"] = FORMAT
    format_version: int = FORMAT_VERSION
    schema_version: int = Field(ge=0)
    signet_version: str
    created_at: str
    agent: str | None = None
    file_format: FileFormat
    embedding: EmbeddingInfo | None = None
    tables: list[TableFile]

    def table(self, name: str) -> TableFile | None:
        return next((t for t in self.tables if t.table == name), None)

    def entry(self, name: str) -> TableFile:
        """The entry of a table the caller found in the snapshot (`table` says whether it is there)."""
        found = self.table(name)
        if found is None:
            raise SnapshotError(f"the snapshot holds no table {name}", code="snapshot_invalid")
        return found

    def vectors(self) -> EmbeddingInfo:
        """The model and dimension of the snapshot's vectors, for code that loads them."""
        if self.embedding is None:
            raise SnapshotError("a snapshot with vectors must name their model and dimension", code="snapshot_invalid")
        return self.embedding

    @property
    def total_rows(self) -> int:
        return sum(t.rows for t in self.tables)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def polars_type(column: Column, dimensions: int | None) -> pl.DataType:
    if column.type == "vector":
        if not dimensions:
            raise SnapshotError("a snapshot with vectors must name their dimension", code="snapshot_invalid")
        return pl.Array(pl.Float32, dimensions)
    return {"integer": pl.Int64(), "real": pl.Float64(), "text": pl.String(), "blob": pl.Binary()}[column.type]


def schema_of(entry: TableFile, manifest: Manifest) -> pl.Schema:
    dims = manifest.embedding.dimensions if manifest.embedding else None
    return pl.Schema({c.name: polars_type(c, dims) for c in entry.columns})


def scan(root: Path, entry: TableFile, manifest: Manifest) -> pl.LazyFrame:
    """The file's rows. A memory's content_hash is computed from its content, never taken from the
    file: vectors and dedupe are keyed by it, and a forged hash would name another agent's text."""
    path = root / entry.file
    if manifest.file_format == "parquet":
        frame = pl.scan_parquet(path)
    else:
        frame = pl.scan_ndjson(path, schema=schema_of(entry, manifest))
    if entry.table == "memories" and {"content", "content_hash"} <= {c.name for c in entry.columns}:
        frame = frame.with_columns(pl.col("content").map_elements(
            lambda text: normalize_content(text).content_hash, return_dtype=pl.String).alias("content_hash"))
    return frame


def _count_rows(root: Path, entry: TableFile, manifest: Manifest) -> int:
    return int(scan(root, entry, manifest).select(pl.len()).collect().item())


def load(root: Path, *, schema_version: int) -> Manifest:
    """Read and check a snapshot without writing anything: the manifest parses, the snapshot's
    schema is not newer than this code's, and every file is present, unmodified and complete."""
    root = Path(root)
    path = root / MANIFEST
    if not path.is_file():
        raise SnapshotError(f"{root} is not a snapshot: {MANIFEST} is missing (an export that did not finish?)",
                            code="snapshot_invalid")
    try:
        manifest = Manifest.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, ValidationError) as exc:
        raise SnapshotError(f"{path}: not a valid snapshot manifest: {exc}", code="snapshot_invalid") from exc
    if manifest.format_version > FORMAT_VERSION:
        raise SnapshotError(f"snapshot format {manifest.format_version} is newer than this Signet reads "
                            f"({FORMAT_VERSION}): upgrade Signet", code="snapshot_schema_newer")
    if manifest.schema_version > schema_version:
        raise SnapshotError(f"snapshot schema version {manifest.schema_version} is newer than this store's "
                            f"({schema_version}): upgrade Signet before importing it", code="snapshot_schema_newer")
    for entry in manifest.tables:
        file = (root / entry.file).resolve()
        if root.resolve() not in file.parents:
            raise SnapshotError(f"{entry.file}: outside the snapshot", code="snapshot_invalid")
        if not file.is_file():
            raise SnapshotError(f"{entry.file} is missing from the snapshot", code="snapshot_corrupt")
        if file.stat().st_size != entry.bytes or sha256_of(file) != entry.sha256:
            raise SnapshotError(f"{entry.file} does not match its checksum: truncated or modified",
                                code="snapshot_corrupt")
        try:
            found = _count_rows(root, entry, manifest)
        except pl.exceptions.PolarsError as exc:
            raise SnapshotError(f"{entry.file} cannot be read: {exc}", code="snapshot_corrupt") from exc
        if found != entry.rows:
            raise SnapshotError(f"{entry.file} holds {found} rows, the manifest says {entry.rows}",
                                code="snapshot_corrupt")
    return manifest
