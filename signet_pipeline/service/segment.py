"""The immutable part of the vector index: rows loaded at one change-log position.

A segment's arrays live in memory or are mapped from a snapshot file (service/index_snapshot.py),
so nothing here costs per row at start: embedding ids are kept ascending and content hashes as
fixed-width bytes with the order that sorts them, and both are looked up by binary search instead
of dictionaries of a million entries.

Vectors are float32, or, where the sign-bit prefilter serves, int8 with a scale per row (a
quarter of the memory; converted to float32 before the product). int8 alone reorders near ties:
at 1M it kept 0.964 of the exact top 10 at 8,000 candidates where float32 kept 0.985, so the
index rescores the best of them with the stored vectors (service/vectors.py), which gives back
0.985 from the best 20 on (docs/BENCHMARKS.md). float16 kept 0.985 alone, but at twice the memory
and a slower conversion.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from signet_pipeline.service import index_snapshot
from signet_pipeline.store import embeddings as emb_store

_BLOCK = 65_536  # rows converted to float32 at a time for a full product over int8
_scratch = threading.local()


def sign_bits(vectors: np.ndarray) -> np.ndarray:
    """Rows of sign bits packed into uint64 words (the row length padded to whole words)."""
    return emb_store.sign_bits(vectors).view(np.uint64)


def nearest_by_bits(bits: np.ndarray, n: int, query: np.ndarray, k: int, skip: np.ndarray | None = None) -> np.ndarray:
    """Rows (of the first n, but `skip`) whose sign bits are nearest the query's in Hamming
    distance: the k nearest and any tied with the k-th. `bits` is word-major (words x capacity),
    so each pass is one contiguous run over a million words; the scratch arrays are this
    thread's, reused."""
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
    beyond = bits.shape[0] * 64 + 1  # farther than any row: what `skip` rows are set to
    if skip is not None and skip.size:
        distance[skip] = beyond
    # Distances are small integers: a histogram finds the k-th smallest faster than a partition.
    cutoff = min(int(np.searchsorted(np.cumsum(np.bincount(distance)), k)), beyond - 1)
    rows = np.flatnonzero(distance <= cutoff)
    if rows.size > 2 * k:  # a crowd tied at the cutoff: keep the k nearest of it
        rows = rows[np.argpartition(distance[rows], k)[:k]]
    return rows


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 rows, the scale of each row): each row's largest value maps to 127."""
    scale = np.abs(vectors).max(axis=1) / 127
    scale[scale == 0] = 1.0
    return np.rint(vectors / scale[:, None]).astype(np.int8), scale.astype(np.float32)


class Segment:
    """`matrix` and `hashes` are None for a segment read from vec0's sign bits alone: it can rank
    by Hamming distance, and its candidates' vectors and hashes are read from the store. `scale`
    is set where `matrix` is int8."""

    def __init__(self, seq: int, ids: np.ndarray, bits: np.ndarray, hashes: np.ndarray | None = None,
                 order: np.ndarray | None = None, matrix: np.ndarray | None = None, scale: np.ndarray | None = None):
        self.seq = seq
        self.ids, self.bits, self.hashes, self.order, self.matrix, self.scale = ids, bits, hashes, order, matrix, scale
        self.n = int(ids.shape[0])

    @classmethod
    def empty(cls, dimensions: int) -> Segment:
        words = (dimensions + 63) // 64
        return cls(0, np.zeros(0, np.int64), np.zeros((words, 0), np.uint64), np.zeros(0, "S1"),
                   np.zeros(0, np.int64), np.zeros((0, dimensions), np.float32))

    @property
    def complete(self) -> bool:
        return self.matrix is not None

    @property
    def compact(self) -> bool:
        return self.scale is not None

    def held(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(hashes, order, matrix) of a complete segment: callers reach them only where `complete`."""
        hashes, order, matrix = self.hashes, self.order, self.matrix
        assert hashes is not None and order is not None and matrix is not None, "a sign-bits segment holds no vectors"
        return hashes, order, matrix

    def rows_of_ids(self, ids: np.ndarray) -> np.ndarray:
        """Row of each id, -1 where absent."""
        ids = np.asarray(ids, dtype=np.int64)
        if not self.n:
            return np.full(ids.shape, -1, np.int64)
        pos = np.searchsorted(self.ids, ids)
        pos[pos >= self.n] = 0
        return np.where(self.ids[pos] == ids, pos, -1)

    def rows_of_hashes(self, keys: Sequence[str]) -> np.ndarray:
        """Row of each hash, -1 where absent."""
        if not self.n or not keys:
            return np.full(len(keys), -1, np.int64)
        hashes, order, _ = self.held()
        width = hashes.dtype.itemsize
        encoded = [k.encode() for k in keys]
        wanted = np.array([e if len(e) <= width else b"" for e in encoded], dtype=hashes.dtype)
        pos = np.searchsorted(hashes, wanted, sorter=order)
        pos[pos >= self.n] = 0
        rows = order[pos]
        return np.where((hashes[rows] == wanted) & (wanted != b""), rows, -1)

    def hash_at(self, row: int) -> str:
        return self.held()[0][row].decode()

    def vectors(self, rows: np.ndarray) -> np.ndarray:
        """The rows as float32 (int8 ones scaled back: close to, not equal to, the stored vector)."""
        matrix, scale = self.held()[2], self.scale
        if scale is None:  # float32 rows
            return matrix[rows]
        return matrix[rows].astype(np.float32) * scale[rows, None]

    def scores(self, query: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """Dot products with the query, of the given rows or of every row."""
        matrix, scale = self.held()[2], self.scale
        if rows is not None:
            if scale is None:
                return matrix[rows] @ query
            return (matrix[rows].astype(np.float32) @ query) * scale[rows]
        if scale is None:
            return matrix @ query
        out = np.empty(self.n, np.float32)
        for at in range(0, self.n, _BLOCK):
            out[at:at + _BLOCK] = (matrix[at:at + _BLOCK].astype(np.float32) @ query) * scale[at:at + _BLOCK]
        return out


class SegmentWriter:
    """Arrays for a segment of n rows, in memory or in a new snapshot file, filled block by block."""

    def __init__(self, n: int, dimensions: int, hash_width: int, *, compact: bool, seq: int,
                 path: Path | None = None, header: dict | None = None):
        self.seq = seq
        self.compact = compact
        words = (dimensions + 63) // 64
        specs = {"ids": ("<i8", (n,)), "hashes": (f"S{max(1, hash_width)}", (n,)), "order": ("<i8", (n,)),
                 "matrix": ("i1" if compact else "<f4", (n, dimensions)), "bits": ("<u8", (words, n))}
        if compact:
            specs["scale"] = ("<f4", (n,))
        self._file = index_snapshot.Writer(path, {**(header or {}), "seq": seq}, specs) if path else None
        self.arrays = self._file.arrays if self._file else {
            name: np.zeros(shape, dtype) for name, (dtype, shape) in specs.items()}

    def fill(self, at: int, ids: np.ndarray, hashes: Sequence[bytes] | np.ndarray, vectors: np.ndarray,
             bits: np.ndarray | None = None, scale: np.ndarray | None = None) -> None:
        """Rows at..at+len(ids): ids, hashes, float32 vectors (or int8 ones with their `scale`) and
        sign bits (computed unless given)."""
        end = at + len(ids)
        self.arrays["ids"][at:end] = ids
        self.arrays["hashes"][at:end] = hashes
        self.arrays["bits"][:, at:end] = sign_bits(vectors).T if bits is None else bits
        if self.compact and scale is None:
            vectors, scale = quantize(vectors)
        self.arrays["matrix"][at:end] = vectors
        if self.compact:
            self.arrays["scale"][at:end] = scale

    def finish(self) -> Segment:
        a = self.arrays
        a["order"][:] = np.argsort(a["hashes"], kind="stable")
        if self._file is None:
            return Segment(self.seq, a["ids"], a["bits"], a["hashes"], a["order"], a["matrix"], a.get("scale"))
        self._file.commit()
        loaded = index_snapshot.read(self._file.path)
        if loaded is None:
            raise OSError(f"the vector index file {self._file.path} did not read back")
        return from_snapshot(*loaded)

    def abort(self) -> None:
        if self._file is not None:
            self._file.abort()


def from_snapshot(header: dict, arrays: dict[str, np.ndarray]) -> Segment:
    return Segment(int(header["seq"]), arrays["ids"], arrays["bits"], arrays["hashes"], arrays["order"],
                   arrays["matrix"], arrays.get("scale"))
