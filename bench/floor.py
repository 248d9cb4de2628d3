"""The floor: the least work a hybrid recall over the same data can do.

- vector leg: numpy brute force over the same float32 matrix (all vectors of the embeddings
  table, loaded once), top-k by argpartition + sort of the k;
- keyword leg: the bare FTS5 query with the MATCH expression recall builds
  (`build_match`), bm25-ordered, LIMIT k, no join and no filters;
- embedding: one `embed_one` call of the raw embedder (no cache, no thread hand-off).

Nothing of recall's own bookkeeping (filters, id mapping, fusion, row fetch, result models)
is in it, so ours/floor says what that bookkeeping and the index choice cost.
"""

from __future__ import annotations

import time
from pathlib import Path

import apsw
import numpy as np

from signet_pipeline.store.embeddings import decode
from signet_pipeline.text.fts_query import build_match

FTS_SQL = ("SELECT rowid, bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH ? "
           "ORDER BY bm25(memories_fts) LIMIT ?")


class Floor:
    def __init__(self, db_path: Path, k: int = 50):
        self.k = k
        self.conn = apsw.Connection(str(db_path), flags=apsw.SQLITE_OPEN_READONLY)
        self.conn.execute("PRAGMA cache_size=-32000")  # same page cache as the service's readers
        blobs = [r[0] for r in self.conn.execute("SELECT vector FROM embeddings ORDER BY id")]
        dims = self.conn.execute("SELECT dimensions FROM embeddings LIMIT 1").fetchone()[0]
        self.matrix = decode(blobs, dims)

    def vector_topk(self, query: np.ndarray) -> np.ndarray:
        scores = self.matrix @ query
        k = min(self.k, scores.shape[0])
        top = np.argpartition(-scores, k - 1)[:k]
        return top[np.argsort(-scores[top])]

    def fts_topk(self, text: str) -> list[tuple[int, float]]:
        match = build_match(text)
        if not match:
            return []
        return [(r[0], r[1]) for r in self.conn.execute(FTS_SQL, (match, self.k))]

    def timed(self, text: str, query: np.ndarray) -> tuple[float, float]:
        """(fts ms, vector ms) for one query, run one after the other."""
        t0 = time.perf_counter()
        self.fts_topk(text)
        t1 = time.perf_counter()
        self.vector_topk(query)
        t2 = time.perf_counter()
        return (t1 - t0) * 1000, (t2 - t1) * 1000

    def close(self) -> None:
        self.conn.close()
