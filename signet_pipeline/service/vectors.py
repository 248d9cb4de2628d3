"""Vector search for recall. `MatrixIndex` mirrors the `embeddings` table in process memory (exact
brute-force cosine), following the `embedding_changes` log so every process's writes show: a fixed
segment (service/segment.py, optionally a mapped file) plus the changes since, with a sign-bit
prefilter and int8 rescoring past `prefilter_min`. `SqliteVecIndex` answers the same calls with
vec0 (`search.vectorBackend: sqlite-vec`). Design: docs/internals.md; figures: docs/decisions.md.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Collection
from pathlib import Path

import numpy as np

from signet_pipeline.service.segment import Segment, nearest_by_bits
from signet_pipeline.service.segment_build import BuildStopped, Captured, SegmentBuilder
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store.db import Database

Hit = tuple[str, float]  # (content_hash, cosine similarity)
SNAPSHOT_MIN = 50_000  # fewer vectors load from the table in well under a second: no file, no thread
DELTA_MIN = 20_000  # changed rows kept beside the segment before they are folded into a new one
# How many of the best rows by int8 score are rescored with their stored vectors: twice the k
# asked, within these bounds (at 1M the best 20 already gave back float32's top-10 share).
REFINE_MIN, REFINE_MAX = 64, 512
# Candidates of a segment of sign bits alone (while the first build runs): each is read from the
# store, so fewer than the prefilter's (at 1M: 0.938 of the exact top 10 at 2,000, ~4x cheaper).
INTERIM_CANDIDATES = 2_000
log = logging.getLogger("signet.vectors")


def _top(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the k highest scores, best first."""
    top = np.argpartition(-scores, k - 1)[:k] if k < scores.shape[0] else np.arange(scores.shape[0])
    return top[np.argsort(-scores[top])]


def _reaches(conn, seq: int) -> bool:
    """Whether the change log still holds every entry after `seq`."""
    changes = emb_store.changes_since(conn, seq, limit=1)
    return not changes or changes[0][0] == seq + 1


class MatrixIndex:
    def __init__(self, db: Database, *, model: str, dimensions: int, initial_capacity: int = 1024,
                 prefilter_min: int = 0, prefilter_candidates: int = 8000, snapshot: Path | None = None,
                 snapshot_min: int = SNAPSHOT_MIN):
        self._db = db
        self.model = model
        self.dimensions = dimensions
        self._lock = threading.Lock()
        self._initial_capacity = initial_capacity
        self.prefilter_min = prefilter_min  # 0: always the full product
        self.prefilter_candidates = prefilter_candidates
        self._loaded = False
        self._waiting = False  # the first segment is being built on the worker: nothing to search yet
        self._worker: threading.Thread | None = None
        self._closing = threading.Event()
        self._build = SegmentBuilder(db, model=model, dimensions=dimensions, snapshot=snapshot,
                                     snapshot_min=snapshot_min, closing=self._closing)
        self._install(Segment.empty(dimensions))

    def _install(self, segment: Segment) -> None:
        """Make `segment` the index, with nothing changed since its log position."""
        self._segment = segment
        self._seq = segment.seq
        self._dead = np.zeros(segment.n, dtype=bool)  # segment rows removed or replaced since
        self._dead_count = 0
        self._dead_rows: np.ndarray | None = np.zeros(0, np.int64)
        self._matrix = np.zeros((self._initial_capacity, self.dimensions), dtype=np.float32)
        self._n = 0
        self._ids: list[int] = []  # per changed row
        self._hashes: list[str | None] = []  # per changed row; None = removed
        self._row_of_id: dict[int, int] = {}
        self._row_of_hash: dict[str, int] = {}
        self._removed = 0

    def __len__(self) -> int:
        return self._segment.n - self._dead_count + self._n - self._removed

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for a rebuild on the worker to finish (benchmarks and tests); True when none runs."""
        worker = self._worker
        if worker is not None:
            worker.join(timeout)
        return not self._busy()

    def close(self) -> None:
        """Stop a rebuild in progress (its file is not written)."""
        self._closing.set()
        self.wait(60)

    # -- keeping in sync -------------------------------------------------------------------------

    def sync(self) -> None:
        """Apply changes committed since the last call (cheap when there are none)."""
        if self._closing.is_set():
            return
        conn = self._db.reader()
        with self._lock:
            if not self._loaded:
                self._loaded = True
                self._load(conn)
            if self._waiting:
                return
            changes = emb_store.changes_since(conn, self._seq)
            if not changes:
                return
            if changes[0][0] > self._seq + 1:  # entries we never saw were pruned from the log
                if self._build.wants_file(emb_store.count_matching(conn, self.model, self.dimensions)):
                    self._start(self._rebuild)  # meanwhile what the log still holds is applied
                else:
                    self._install(self._build.from_table(prefilter_min=self.prefilter_min, to_file=False))
                    return
            self._apply(conn, changes)
            if self._segment.complete and not self._busy() and self._compaction_due():
                if self._build.wants_file(len(self)):
                    self._start(self._fold, self._capture())
                else:
                    self._install(self._build.merge(self._capture(), prefilter_min=self.prefilter_min, to_file=False))

    def _load(self, conn) -> None:
        segment = self._build.open_snapshot(conn)
        if segment is not None:
            self._install(segment)
        elif self._build.wants_file(emb_store.count_matching(conn, self.model, self.dimensions)):
            self._waiting = True  # large: built on the worker, into a file, while the caller goes on
            self._start(self._first_build)
        else:
            self._install(self._build.from_table(prefilter_min=self.prefilter_min, to_file=False))

    def _apply(self, conn, changes: list[tuple[int, int, str]]) -> None:
        touched = list(dict.fromkeys(embedding_id for _, embedding_id, _ in changes))
        current = {r["id"]: r for r in emb_store.rows_by_ids(conn, touched)}
        for embedding_id, row_in_segment in zip(touched, self._segment.rows_of_ids(np.array(touched, np.int64))):
            self._remove(embedding_id)
            if row_in_segment >= 0 and not self._dead[row_in_segment]:
                self._dead[row_in_segment] = True
                self._dead_count += 1
                self._dead_rows = None
            row = current.get(embedding_id)
            if row and row["model"] == self.model and row["dimensions"] == self.dimensions:
                self._append(embedding_id, row["content_hash"], row["vector"])
        self._seq = changes[-1][0]

    def _append(self, embedding_id: int, content_hash: str, blob: bytes) -> None:
        if self._n == self._matrix.shape[0]:
            grown = np.zeros((int(self._matrix.shape[0] * 1.5) + 1, self.dimensions), dtype=np.float32)
            grown[: self._n] = self._matrix[: self._n]
            self._matrix = grown  # readers holding the old array keep a consistent view
        self._matrix[self._n] = emb_store.from_blob(blob)
        self._ids.append(embedding_id)
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

    def _compaction_due(self) -> bool:
        waste = self._dead_count + self._removed
        changed = self._n - self._removed
        return changed > max(DELTA_MIN, self._segment.n // 16) or (waste > 1024 and waste > len(self) // 4)

    def _capture(self) -> Captured:
        """What a merge needs, taken under the lock: the segment's live rows and the changed rows."""
        live = [i for i, h in enumerate(self._hashes) if h is not None]
        return (self._segment, np.flatnonzero(~self._dead), np.array([self._ids[i] for i in live], np.int64),
                [h.encode() for h in self._hashes if h is not None], self._matrix[live], self._seq)

    def _dead_view(self) -> np.ndarray:
        if self._dead_rows is None:
            self._dead_rows = np.flatnonzero(self._dead)
        return self._dead_rows

    # -- the worker thread -----------------------------------------------------------------------

    def _busy(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    def _start(self, work, *args) -> None:
        if self._busy():
            return  # one rebuild at a time; the next sync asks again if still needed
        self._worker = threading.Thread(target=self._run, args=(work, *args), name="signet-vector-index", daemon=True)
        self._worker.start()

    def _run(self, work, *args) -> None:
        try:
            work(*args)
        except BuildStopped:
            pass
        except Exception:
            self._build.file_failed = True  # the next rebuild stays in memory
            log.exception("rebuilding the vector index failed; searches go on with the index as it was")
        finally:
            self._waiting = False

    def _swap(self, segment: Segment) -> None:
        """Install a segment built on the worker and apply what changed since its log position."""
        conn = self._db.reader()
        with self._lock:
            if self._closing.is_set():
                raise BuildStopped
            self._install(segment)
            self._waiting = False
            changes = emb_store.changes_since(conn, self._seq)
            if changes and changes[0][0] == self._seq + 1:  # a gap is left to the next sync
                self._apply(conn, changes)

    def _first_build(self) -> None:
        """No usable file: rank by vec0's sign bits at once, then build the segment from the table
        (or take the file another process wrote meanwhile)."""
        bits = self._build.from_bits()
        if bits is not None:
            self._swap(bits)
        self._rebuild()

    def _rebuild(self) -> None:
        with self._build.file_lock():
            conn = self._db.reader()
            segment = self._build.open_snapshot(conn)
            if segment is None or not _reaches(conn, segment.seq):
                segment = self._build.from_table(prefilter_min=self.prefilter_min, to_file=True)
            self._swap(segment)

    def _fold(self, captured: Captured) -> None:
        with self._build.file_lock():
            self._swap(self._build.merge(captured, prefilter_min=self.prefilter_min, to_file=True))

    # -- search ----------------------------------------------------------------------------------

    def search(self, query: np.ndarray, k: int, *, allowed_hashes: Collection[str] | None = None) -> list[Hit]:
        """Top-k (content_hash, cosine), best first; optionally only among allowed_hashes."""
        self.sync()
        allowed = None if allowed_hashes is None else list(allowed_hashes)
        with self._lock:
            segment, dead, dead_rows = self._segment, self._dead, self._dead_view()
            matrix, n, hashes, removed = self._matrix, self._n, self._hashes, self._removed
            changed = None if allowed is None else \
                np.fromiter((r for h in allowed if (r := self._row_of_hash.get(h)) is not None), dtype=np.int64)
        if k <= 0:
            return []
        query = np.asarray(query, dtype=np.float32)
        found = self._search_segment(segment, dead, dead_rows, query, k, allowed)
        rows = changed if changed is not None else np.arange(n)
        if rows.size:
            scores = matrix[rows] @ query if changed is not None else matrix[:n] @ query
            for i in _top(scores, min(scores.shape[0], k + min(removed, k))):
                if (content_hash := hashes[int(rows[i])]) is not None:
                    found.append((content_hash, float(scores[i])))
        out: dict[str, float] = {}
        for content_hash, score in sorted(found, key=lambda hit: -hit[1]):
            out.setdefault(content_hash, score)
            if len(out) == k:
                break
        return list(out.items())

    def _search_segment(self, segment: Segment, dead: np.ndarray, dead_rows: np.ndarray, query: np.ndarray, k: int,
                        allowed: list[str] | None) -> list[Hit]:
        """The segment's best k: scored exactly where it holds float32; where it holds int8 (or
        sign bits alone) its best rows by approximate score are rescored with their stored vectors."""
        if segment.n == 0:
            return []
        rows = None
        if allowed is not None:
            if not segment.complete:
                vectors = emb_store.vectors_for_hashes(self._db.reader(), allowed, self.model, self.dimensions)
                return [(h, float(v @ query)) for h, v in vectors.items()]
            rows = segment.rows_of_hashes(allowed)
            rows = rows[rows >= 0]
            rows = rows[~dead[rows]]
        elif not segment.complete or (self.prefilter_min and segment.n >= self.prefilter_min
                                      and segment.n > self.prefilter_candidates):
            candidates = self.prefilter_candidates if segment.complete else min(self.prefilter_candidates,
                                                                                 INTERIM_CANDIDATES)
            rows = nearest_by_bits(segment.bits, segment.n, query, candidates, dead_rows)
            if not segment.complete:
                return self._rescore_from_store(segment.ids[rows], query, k)
        scores = segment.scores(query, rows)
        if rows is None:
            scores[dead_rows] = -np.inf
        best = _top(scores, min(scores.shape[0], max(2 * k, REFINE_MIN) if segment.compact else k))
        best = best[scores[best] > -np.inf]
        picked = rows[best] if rows is not None else best
        if not segment.compact:
            return [(segment.hash_at(int(r)), float(scores[i])) for r, i in zip(picked, best)]
        return self._rescore_from_store(segment.ids[picked[:REFINE_MAX]], query, k) + \
            [(segment.hash_at(int(r)), float(scores[i])) for r, i in zip(picked[REFINE_MAX:], best[REFINE_MAX:])]

    def _rescore_from_store(self, ids: np.ndarray, query: np.ndarray, k: int) -> list[Hit]:
        """The best k of these rows by their stored vectors (read from the store: the segment holds
        int8 or sign bits only)."""
        found = [r for r in emb_store.rows_by_ids(self._db.reader(), ids.tolist())
                 if r["model"] == self.model and r["dimensions"] == self.dimensions]
        if not found:
            return []
        scores = emb_store.decode([r["vector"] for r in found], self.dimensions) @ query
        return [(found[i]["content_hash"], float(scores[i])) for i in _top(scores, k)]

    def vectors(self, hashes: Collection[str]) -> dict[str, np.ndarray]:
        """The stored vector of each given hash that has one here."""
        self.sync()
        with self._lock:
            out = {h: self._matrix[r] for h in hashes if (r := self._row_of_hash.get(h)) is not None}
            segment, dead = self._segment, self._dead
        rest = [h for h in hashes if h not in out]
        if rest and segment.complete and not segment.compact:
            rows = segment.rows_of_hashes(rest)
            keep = rows >= 0
            keep[keep] = ~dead[rows[keep]]
            out.update(zip([h for h, kept in zip(rest, keep) if kept], segment.vectors(rows[keep])))
        elif rest and segment.n:  # the segment holds no float32 copy: the stored vectors, exact
            out.update(emb_store.vectors_for_hashes(self._db.reader(), rest, self.model, self.dimensions))
        return out


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

    def wait(self, timeout: float | None = None) -> bool:
        """No rebuild ever runs here: vec0 is the index."""
        return True

    def close(self) -> None:
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
