"""Per-term document counts for IDF and the BM25 cost budget, cached per process.

Reading them from fts5vocab costs ~40 µs a term, a sizeable share of a short recall. They move
slowly, and recall only needs them approximately: an entry is reused until the store has grown by
1% (at least 100 rows) since it was read, and then read again. Writes from any process count,
because growth is measured on the store itself (max rowid), not on this process's writes.
"""

from __future__ import annotations

import threading

import apsw

from signet_pipeline.store import memories as mem_store

MAX_ENTRIES = 100_000
MIN_GROWTH_ROWS = 100
GROWTH_FRACTION = 0.01


class DocFreqCache:
    def __init__(self, max_entries: int = MAX_ENTRIES):
        self._entries: dict[str, tuple[int, int]] = {}  # stem -> (doc count, store rows when read)
        self._lock = threading.Lock()
        self._max = max_entries

    @staticmethod
    def _fresh(read_at: int, rows_now: int) -> bool:
        return rows_now - read_at <= max(MIN_GROWTH_ROWS, int(read_at * GROWTH_FRACTION))

    def counts(self, conn: apsw.Connection, stems: set[str], rows_now: int) -> dict[str, int]:
        with self._lock:
            known = {s: self._entries.get(s) for s in stems}
        out = {s: e[0] for s, e in known.items() if e is not None and self._fresh(e[1], rows_now)}
        missing = stems - out.keys()
        if missing:
            read = mem_store.stem_doc_counts(conn, missing)
            out.update(read)
            with self._lock:
                if len(self._entries) + len(read) > self._max:
                    self._entries.clear()  # rare: a bounded cache beats bookkeeping for LRU order
                self._entries.update({s: (n, rows_now) for s, n in read.items()})
        return out
