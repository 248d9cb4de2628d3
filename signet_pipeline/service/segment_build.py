"""Building the vector index's segments (service/segment.py): from the embeddings table, from a
segment and the rows changed since it, or from vec0's sign bits alone; into a snapshot file
beside the store (service/index_snapshot.py) or into memory.

A snapshot file is used only if it names this store (migration 0031's identity), this model and
dimension, and a change-log position the store has reached whose entry is the one it recorded:
a file left from a replaced or restored database is rebuilt, not applied.
"""

from __future__ import annotations

import fcntl
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from signet_pipeline.service import index_snapshot
from signet_pipeline.service.segment import Segment, SegmentWriter, from_snapshot, quantize, sign_bits
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store.db import Database

_BLOCK = 65_536  # rows merged at a time
log = logging.getLogger("signet.vectors")

# What a merge takes from the index: the segment, its live rows, and the changed rows' ids,
# hashes and vectors, at a log position.
Captured = tuple[Segment, np.ndarray, np.ndarray, list[bytes], np.ndarray, int]


class BuildStopped(Exception):
    """The index was closed while a segment was being built."""


class SegmentBuilder:
    def __init__(self, db: Database, *, model: str, dimensions: int, snapshot: Path | None, snapshot_min: int,
                 closing: threading.Event):
        self._db = db
        self.model = model
        self.dimensions = dimensions
        self.snapshot = snapshot  # None: segments live in memory only
        self.snapshot_min = snapshot_min
        self._closing = closing
        self.file_failed = False  # a file could not be written: later segments stay in memory

    def wants_file(self, rows: int) -> bool:
        return self.snapshot is not None and rows >= self.snapshot_min

    def open_snapshot(self, conn) -> Segment | None:
        """The snapshot file's segment, if it was built from this store for this model at a log
        position the store has reached (later changes are for the index to apply)."""
        loaded = index_snapshot.read(self.snapshot) if self.snapshot is not None else None
        if loaded is None:
            return None
        header, arrays = loaded
        seq = int(header.get("seq", -1))
        if (header.get("model"), header.get("dimensions"), header.get("store")) != \
                (self.model, self.dimensions, emb_store.store_id(conn)) \
                or not 0 <= seq <= emb_store.last_change_seq(conn) \
                or emb_store.change_at(conn, seq) not in (None, header.get("last")):
            return None
        segment = from_snapshot(header, arrays)
        hashes, order, matrix = segment.held()
        n, words = segment.n, (self.dimensions + 63) // 64
        if matrix.shape != (n, self.dimensions) or segment.bits.shape != (words, n) \
                or hashes.shape != (n,) or order.shape != (n,) \
                or (segment.scale is not None and segment.scale.shape != (n,)) \
                or matrix.dtype != (np.int8 if segment.compact else np.float32):
            return None
        return segment

    @contextmanager
    def file_lock(self) -> Iterator[None]:
        """One process writes the snapshot at a time; the others wait, then may use its file."""
        if self.snapshot is None:
            yield
            return
        with open(self.snapshot.with_suffix(".lock"), "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _writer(self, conn, n: int, hash_width: int, seq: int, *, compact: bool, to_file: bool) -> SegmentWriter:
        """A snapshot file when asked and possible (else memory)."""
        if to_file and self.wants_file(n) and not self.file_failed:
            header = {"model": self.model, "dimensions": self.dimensions, "store": emb_store.store_id(conn),
                      "last": emb_store.change_at(conn, seq)}
            try:
                return SegmentWriter(n, self.dimensions, hash_width, compact=compact, seq=seq, path=self.snapshot,
                                     header=header)
            except OSError:
                self.file_failed = True
                log.warning("cannot write the vector index file %s; the index stays in memory", self.snapshot,
                            exc_info=True)
        return SegmentWriter(n, self.dimensions, hash_width, compact=compact, seq=seq)

    def _check(self) -> None:
        if self._closing.is_set():
            raise BuildStopped

    def from_table(self, *, prefilter_min: int, to_file: bool) -> Segment:
        """Every vector of the model, float16 where the prefilter (from `prefilter_min` rows) serves."""
        with self._db.read() as conn:  # the count, the log position and the rows from one snapshot
            seq = emb_store.last_change_seq(conn)
            n = emb_store.count_matching(conn, self.model, self.dimensions)
            writer = self._writer(conn, n, emb_store.hash_width(conn), seq,
                                  compact=bool(prefilter_min) and n >= prefilter_min, to_file=to_file)
            try:
                at = 0
                for batch in emb_store.iter_matching(conn, self.model, self.dimensions):  # in bulk, not row by row
                    self._check()
                    vectors = emb_store.decode([r[2] for r in batch], self.dimensions)
                    writer.fill(at, np.fromiter((r[0] for r in batch), np.int64, len(batch)),
                                [r[1].encode() for r in batch], vectors)
                    at += len(batch)
                self._check()
                return writer.finish()
            except BaseException:
                writer.abort()
                raise

    def merge(self, captured: Captured, *, prefilter_min: int, to_file: bool) -> Segment:
        """The segment's live rows and the changed rows as one new segment, in id order. Rows are
        copied as they are held; when the new segment needs the other kind of vectors (int8 or
        float32: the prefilter threshold was crossed) it is built from the table instead."""
        segment, keep, ids, hashes, vectors, seq = captured
        all_ids = np.concatenate([segment.ids[keep], ids])
        compact = bool(prefilter_min) and all_ids.size >= prefilter_min
        if compact != segment.compact:
            return self.from_table(prefilter_min=prefilter_min, to_file=to_file)
        by_id = np.argsort(all_ids, kind="stable")
        held_hashes, _, matrix = segment.held()
        width = max([held_hashes.dtype.itemsize, *map(len, hashes)])
        with self._db.read() as conn:
            writer = self._writer(conn, all_ids.size, width, seq, compact=compact, to_file=to_file)
        new_vectors, new_scale = quantize(vectors) if compact else (vectors, None)
        try:
            for at in range(0, all_ids.size, _BLOCK):
                self._check()
                pick = by_id[at:at + _BLOCK]
                old = pick < keep.size
                rows, new = keep[pick[old]], pick[~old] - keep.size
                block_vectors = np.empty((pick.size, self.dimensions), matrix.dtype)
                block_vectors[old], block_vectors[~old] = matrix[rows], new_vectors[new]
                block_hashes = np.empty(pick.size, f"S{width}")
                block_hashes[old], block_hashes[~old] = held_hashes[rows], [hashes[i] for i in new]
                block_bits = np.empty((segment.bits.shape[0], pick.size), np.uint64)
                block_bits[:, old], block_bits[:, ~old] = segment.bits[:, rows], sign_bits(vectors[new]).T
                block_scale = None
                if compact:
                    assert segment.scale is not None and new_scale is not None  # compact: int8 rows with scales
                    block_scale = np.empty(pick.size, np.float32)
                    block_scale[old], block_scale[~old] = segment.scale[rows], new_scale[new]
                writer.fill(at, all_ids[pick], block_hashes, block_vectors, block_bits, block_scale)
            self._check()
            return writer.finish()
        except BaseException:
            writer.abort()
            raise

    def from_bits(self) -> Segment | None:
        """A segment of vec0's sign bits alone (no vectors, no hashes), or None when vec0 holds
        something else. Reading 48 bytes a vector is what makes it quick."""
        with self._db.read() as conn:
            seq = emb_store.last_change_seq(conn)
            found = emb_store.vec_bits(conn, self.model, self.dimensions)
        if found is None:
            return None
        ids, packed = found
        padded = np.zeros((ids.size, -(-packed.shape[1] // 8) * 8), np.uint8)
        padded[:, : packed.shape[1]] = packed
        return Segment(seq, ids, np.ascontiguousarray(padded.view(np.uint64).T))
