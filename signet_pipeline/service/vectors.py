"""Vector search for recall.

`MatrixIndex` mirrors the `embeddings` table (current model and dimension) as one float32 matrix
in process memory: brute-force cosine with BLAS is exact and, at 100k x 384, several times faster
than a vec0 KNN scan (DESIGN.md). The database stays the source of truth: the index follows the
`embedding_changes` log, so writes from any process (API, Dagster runs) become visible on the
next search, and a gap in the log (pruned entries) forces a full reload.

Past `prefilter_min` vectors a full matrix product per query costs more than recall's budget
(1M x 384 float32 is 1.5 GB to stream: ~100 ms on two cores), so the index also keeps each
vector's sign bits (48 bytes at 384 dimensions): a query ranks every row by Hamming distance over
those bits (~8 ms at 1M) and rescores the `prefilter_candidates` nearest exactly. The result is
exact cosine over a candidate set that holds nearly all of the true top k (docs/benchmarks.md).

`SqliteVecIndex` answers the same calls with sqlite-vec's vec0 table (no memory held); it is the
portable path and the benchmark's comparison point.
"""

from __future__ import annotations

import threading
from collections.abc import Collection

import numpy as np

from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store.db import Database

Hit = tuple[str, float]  # (content_hash, cosine similarity)


def sign_bits(vectors: np.ndarray) -> np.ndarray:
    """Rows of sign bits packed into uint64 words (the row length padded to whole words)."""
    packed = np.packbits(np.atleast_2d(vectors) > 0, axis=1)
    pad = (-packed.shape[1]) % 8
    if pad:
        packed = np.pad(packed, ((0, 0), (0, pad)))
    return np.ascontiguousarray(packed).view(np.uint64)


_scratch = threading.local()


def nearest_by_bits(bits: np.ndarray, n: int, query: np.ndarray, k: int) -> np.ndarray:
    """Rows (of the first n) whose sign bits are nearest the query's in Hamming distance: the k
    nearest and any tied with the k-th. `bits` is word-major (words x capacity), so each pass is
    one contiguous run over a million words; the scratch arrays are this thread's, reused."""
    scratch = getattr(_scratch, "arrays", None)
    if scratch is None or scratch[0].shape[0] < n:
        size = max(n, 1024)
        scratch = _scratch.arrays = (np.empty(size, np.uint64), np.empty(size, np.uint8), np.empty(size, np.uint16))
    xor, count, distance = (a[:n] for a in scratch)
    distance.fill(0)
    for word, q in zip(bits, sign_bits(query)[0]):
        np.bitwise_xor(word[:n], q, out=xor)
        np.bitwise_count(xor, out=count)
        np.add(distance, count, out=distance)
    # Distances are small integers: a histogram finds the k-th smallest faster than a partition.
    cutoff = int(np.searchsorted(np.cumsum(np.bincount(distance)), k))
    rows = np.flatnonzero(distance <= cutoff)
    if rows.size > 2 * k:  # a crowd tied at the cutoff: keep the k nearest of it
        rows = rows[np.argpartition(distance[rows], k)[:k]]
    return rows


class MatrixIndex:
    def __init__(self, db: Database, *, model: str, dimensions: int, initial_capacity: int = 1024,
                 prefilter_min: int = 0, prefilter_candidates: int = 8000):
        self._db = db
        self.model = model
        self.dimensions = dimensions
        self._lock = threading.Lock()
        self._initial_capacity = initial_capacity
        self.prefilter_min = prefilter_min  # 0: always the full product
        self.prefilter_candidates = prefilter_candidates
        self._words = (dimensions + 63) // 64
        self._reset()

    def _reset(self) -> None:
        self._matrix = np.zeros((self._initial_capacity, self.dimensions), dtype=np.float32)
        self._bits = np.zeros((self._words, self._initial_capacity), dtype=np.uint64)  # word-major
        self._n = 0
        self._hashes: list[str | None] = []  # per matrix row; None = removed
        self._row_of_id: dict[int, int] = {}
        self._row_of_hash: dict[str, int] = {}
        self._removed = 0
        self._seq = 0
        self._loaded = False

    def __len__(self) -> int:
        return self._n - self._removed

    # -- keeping in sync -------------------------------------------------------------------------

    def sync(self) -> None:
        """Apply changes committed since the last call (cheap when there are none)."""
        conn = self._db.reader()
        with self._lock:
            if not self._loaded:
                self._reload()
                return
            changes = emb_store.changes_since(conn, self._seq)
            if not changes:
                return
            if changes[0][0] > self._seq + 1:  # entries we never saw were pruned from the log
                self._reload()
                return
            self._apply(conn, changes)
            if self._removed > 1024 and self._removed > self._n // 4:
                self._reload()  # compact

    def _reload(self) -> None:
        self._reset()
        with self._db.read() as snapshot:  # the count, the change seq and the rows from one snapshot
            self._seq = emb_store.last_change_seq(snapshot)  # later changes get re-applied
            total = emb_store.count_matching(snapshot, self.model, self.dimensions)
            capacity = max(self._initial_capacity, int(total * 1.25))
            self._matrix = np.zeros((capacity, self.dimensions), np.float32)
            self._bits = np.zeros((self._words, capacity), np.uint64)
            n = 0
            for batch in emb_store.iter_matching(snapshot, self.model, self.dimensions):  # in bulk, not row by row
                end = n + len(batch)
                self._matrix[n:end] = np.frombuffer(b"".join(r[2] for r in batch), dtype="<f4").reshape(len(batch), -1)
                self._bits[:, n:end] = sign_bits(self._matrix[n:end]).T
                self._hashes.extend(r[1] for r in batch)
                self._row_of_id.update((r[0], n + i) for i, r in enumerate(batch))
                self._row_of_hash.update((r[1], n + i) for i, r in enumerate(batch))
                n = end
            self._n = n
        self._loaded = True

    def _apply(self, conn, changes: list[tuple[int, int, str]]) -> None:
        touched = list(dict.fromkeys(embedding_id for _, embedding_id, _ in changes))
        current = {r["id"]: r for r in emb_store.rows_by_ids(conn, touched)}
        for embedding_id in touched:
            self._remove(embedding_id)
            row = current.get(embedding_id)
            if row and row["model"] == self.model and row["dimensions"] == self.dimensions:
                self._append(embedding_id, row["content_hash"], row["vector"])
        self._seq = changes[-1][0]

    def _append(self, embedding_id: int, content_hash: str, blob: bytes) -> None:
        if self._n == self._matrix.shape[0]:
            grown = np.zeros((int(self._matrix.shape[0] * 1.5) + 1, self.dimensions), dtype=np.float32)
            grown[: self._n] = self._matrix[: self._n]
            bits = np.zeros((self._words, grown.shape[0]), dtype=np.uint64)
            bits[:, : self._n] = self._bits[:, : self._n]
            self._matrix, self._bits = grown, bits  # readers holding the old arrays keep a consistent view
        self._matrix[self._n] = emb_store.from_blob(blob)
        self._bits[:, self._n] = sign_bits(self._matrix[self._n])[0]
        self._hashes.append(content_hash)
        self._row_of_id[embedding_id] = self._n
        self._row_of_hash[content_hash] = self._n
        self._n += 1

    def _remove(self, embedding_id: int) -> None:
        row = self._row_of_id.pop(embedding_id, None)
        if row is None:
            return
        content_hash = self._hashes[row]
        self._hashes[row] = None
        if content_hash is not None and self._row_of_hash.get(content_hash) == row:
            del self._row_of_hash[content_hash]
        self._removed += 1

    # -- search ----------------------------------------------------------------------------------

    def search(self, query: np.ndarray, k: int, *, allowed_hashes: Collection[str] | None = None) -> list[Hit]:
        """Top-k (content_hash, cosine), best first; optionally only among allowed_hashes."""
        self.sync()
        with self._lock:
            matrix, bits, n, hashes = self._matrix, self._bits, self._n, self._hashes
            rows = None
            if allowed_hashes is not None:
                rows = np.fromiter((r for h in allowed_hashes if (r := self._row_of_hash.get(h)) is not None), dtype=np.int64)
        if n == 0 or k <= 0:
            return []
        query = np.asarray(query, dtype=np.float32)
        if rows is None and self.prefilter_min and n >= self.prefilter_min and n > self.prefilter_candidates:
            rows = nearest_by_bits(bits, n, query, self.prefilter_candidates)
        if rows is not None:
            if rows.size == 0:
                return []
            scores = matrix[rows] @ query
        else:
            scores = matrix[:n] @ query
        # Removed rows still sit in the matrix: fetch a few extra to make up for them.
        want = min(scores.shape[0], k + min(self._removed, k))
        top = np.argpartition(-scores, want - 1)[:want] if want < scores.shape[0] else np.arange(scores.shape[0])
        top = top[np.argsort(-scores[top])]
        out: list[Hit] = []
        for i in top:
            content_hash = hashes[int(rows[i]) if rows is not None else int(i)]
            if content_hash is not None:
                out.append((content_hash, float(scores[i])))
                if len(out) == k:
                    break
        return out


    def vectors(self, hashes: Collection[str]) -> dict[str, np.ndarray]:
        """The stored vector of each given hash that has one here."""
        self.sync()
        with self._lock:
            pairs = [(h, r) for h in hashes if (r := self._row_of_hash.get(h)) is not None]
            matrix = self._matrix
        return {h: matrix[r] for h, r in pairs}


class SqliteVecIndex:
    """Same interface over sqlite-vec's vec0 KNN (cosine)."""

    def __init__(self, db: Database, *, model: str, dimensions: int):
        self._db = db
        self.model = model
        self.dimensions = dimensions

    def __len__(self) -> int:
        return emb_store.counts(self._db.reader(), self.model)["currentModel"]

    def sync(self) -> None:
        return None

    def search(self, query: np.ndarray, k: int, *, allowed_hashes: Collection[str] | None = None) -> list[Hit]:
        if k <= 0:
            return []
        if allowed_hashes is not None:
            allowed = set(allowed_hashes)
            # vec0 cannot filter on our columns: widen k, then filter.
            hits = emb_store.vec_knn(self._db.reader(), query, min(4096, max(k * 20, 200)))
            return [h for h in hits if h[0] in allowed][:k]
        return emb_store.vec_knn(self._db.reader(), query, k)

    def vectors(self, hashes: Collection[str]) -> dict[str, np.ndarray]:
        return emb_store.vectors_for_hashes(self._db.reader(), list(hashes), self.model, self.dimensions)
