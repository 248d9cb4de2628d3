"""Import a snapshot into a store, new or live. Everything is checked before a row is written, and
rows match on natural keys, so a second import writes nothing. Rows go per row in short
transactions (snapshots/incremental.py) or, when it pays, in bulk (snapshots/bulk_import.py).
Content is trusted, ownership is not (snapshots/ownership.py); vectors are kept only for the
store's own embedding model and dimension. Design: docs/internals.md.
"""

from __future__ import annotations

import time
from pathlib import Path

from pydantic import BaseModel

from signet_pipeline.config import ONNX_DIMENSIONS, EmbeddingConfig
from signet_pipeline.errors import SnapshotError
from signet_pipeline.snapshots import bulk_import, incremental, ownership
from signet_pipeline.snapshots.export import Progress
from signet_pipeline.snapshots.incremental import TableImport
from signet_pipeline.snapshots.manifest import Manifest, load
from signet_pipeline.store import embeddings as embedding_store
from signet_pipeline.store import snapshot_tables
from signet_pipeline.store.db import Database
from signet_pipeline.store.migrate import discover


class ImportReport(BaseModel):
    snapshot_created_at: str
    agent: str | None  # the agent whose rows were imported (None: every agent's)
    vectors: str  # "kept" | "none in snapshot" | why they were left out
    bulk: bool  # written in one transaction (snapshots/bulk_import.py), not row by row
    tables: dict[str, TableImport]
    seconds: float

    @property
    def rows(self) -> int:
        return sum(t.rows for t in self.tables.values())

    @property
    def written(self) -> int:
        return sum(t.written for t in self.tables.values())

    @property
    def refused(self) -> int:
        return sum(t.refused for t in self.tables.values())

    @property
    def left_out(self) -> int:
        return sum(t.left_out for t in self.tables.values())


def check(path: str | Path) -> Manifest:
    """The snapshot's manifest once every file checks out (raises SnapshotError otherwise)."""
    return load(Path(path), schema_version=max((m.version for m in discover()), default=0))


def _vector_verdict(manifest: Manifest, embedding: tuple[str, int | None] | None) -> str:
    if manifest.embedding is None or manifest.table("embeddings") is None:
        return "none in snapshot"
    held = (manifest.embedding.model, manifest.embedding.dimensions)
    if embedding is None:
        return "left out: this store has no embedding model configured"
    if held[0] != embedding[0] or embedding[1] not in (None, held[1]):
        return (f"left out: the snapshot holds {held[0]} ({held[1]} dimensions), this store embeds with "
                f"{embedding[0]} ({embedding[1] or '?'} dimensions); the embedding refresh re-embeds the imported "
                "memories")
    return "kept"


def _importing_as(root: Path, manifest: Manifest, agent: str | None) -> str | None:
    """The agent whose rows are imported; an agent's snapshot is checked whole first."""
    if agent is not None and manifest.agent not in (None, agent):
        raise SnapshotError(f"this is agent {manifest.agent}'s snapshot: it holds no rows of agent {agent}",
                            code="snapshot_foreign_rows")
    if manifest.agent is not None:
        ownership.check_agent(root, manifest, manifest.agent)
    return agent or manifest.agent


def import_snapshot(db: Database, path: str | Path, *, embedding: tuple[str, int | None] | None,
                    agent: str | None = None, chunk: int = 2_000, bulk: bool | None = None,
                    progress: Progress | None = None) -> ImportReport:
    """Import the snapshot at `path`; `embedding` is the store's (model, dimensions); `agent`
    imports that agent's rows only; `bulk` chooses the path (None: bulk when it pays)."""
    started = time.perf_counter()
    root = Path(path)
    manifest = check(root)
    agent = _importing_as(root, manifest, agent)
    vectors = _vector_verdict(manifest, embedding)
    names = [t.name for t in snapshot_tables.TABLES  # parents before children
             if manifest.table(t.name) is not None and (t.name != "embeddings" or vectors == "kept")]
    if bulk is None:
        bulk = bulk_import.worth_it(db, manifest)
    if bulk:
        tables = bulk_import.import_bulk(db, root, manifest, tables=names, agent=agent, chunk=chunk, progress=progress)
    else:
        if "embeddings" in names:  # vectors enter the vector table as they land, not at the service's next start
            with db.write() as conn:
                snapshot_vectors = manifest.vectors()
                embedding_store.ensure_vec_table(conn, snapshot_vectors.dimensions, snapshot_vectors.model)
        tables = {name: incremental.import_table(db, root, manifest, manifest.entry(name), agent=agent, chunk=chunk,
                                                 progress=progress) for name in names}
    return ImportReport(snapshot_created_at=manifest.created_at, agent=agent, vectors=vectors, bulk=bulk,
                        tables=tables, seconds=round(time.perf_counter() - started, 3))


def store_embedding(db: Database, config: EmbeddingConfig) -> tuple[str, int | None] | None:
    """(model, dimensions) this store's service embeds with: what its vector table was built for,
    else the configured model (its dimension from the config, or known for the shipped model)."""
    with db.read() as conn:
        held = embedding_store.vec_identity(conn)
    if held is not None:
        return held
    if config.provider == "none":
        return None
    # A remote model of unconfigured dimension accepts the snapshot's vectors of that model.
    return config.model, config.dimensions or (ONNX_DIMENSIONS if config.provider == "onnx" else None)
