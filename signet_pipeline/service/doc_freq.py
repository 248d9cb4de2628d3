"""Per-term document counts for IDF and the BM25 cost budget, cached per process: of the content
index (`DocFreqCache()`) or of the hints index, with its number of documents (freshness measured on the
hints table's growth there: recall/keywords.py `hints_match`).

Reading them from fts5vocab costs ~40 µs a term, a sizeable share of a short recall. They move
slowly, and recall only needs them approximately: an entry is reused until the store has grown by
1% (at least 100 rows) since it was read, and then read again. Writes from any process count,
because growth is measured on the store itself (max rowid), not on this process's writes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import apsw

from signet_pipeline.store import memories as mem_store

MAX_ENTRIES = 100_000
MIN_GROWTH_ROWS = 100
GROWTH_FRACTION = 0.01


class DocFreqCache:
    def __init__(self, read: Callable[[apsw.Connection, set[str]], dict[str, int]] = mem_store.stem_doc_counts,
                 total: Callable[[apsw.Connection], int] | None = None, max_entries: int = MAX_ENTRIES):
        """`read`: stems -> their document counts; `total`: the index's documents (see `documents`)."""
        self._entries: dict[str, tuple[int, int]] = {}  # stem -> (doc count, store rows when read)
        self._lock = threading.Lock()
        self._max = max_entries
        self._read, self._total = read, total
        self._documents: tuple[int, int] | None = None  # (documents, store rows when read)

    @staticmethod
    def _fresh(read_at: int, rows_now: int) -> bool:
        # Fewer rows than when read (the newest were deleted): read again, the counts may have fallen.
        return 0 <= rows_now - read_at <= max(MIN_GROWTH_ROWS, int(read_at * GROWTH_FRACTION))

    def counts(self, conn: apsw.Connection, stems: set[str], rows_now: int) -> dict[str, int]:
        with self._lock:
            known = {s: self._entries.get(s) for s in stems}
        out = {s: e[0] for s, e in known.items() if e is not None and self._fresh(e[1], rows_now)}
        missing = stems - out.keys()
        if missing:
            read = self._read(conn, missing)
            out.update(read)
            with self._lock:
                if len(self._entries) + len(read) > self._max:
                    self._entries.clear()  # rare: a bounded cache beats bookkeeping for LRU order
                self._entries.update({s: (n, rows_now) for s, n in read.items()})
        return out

    def documents(self, conn: apsw.Connection, rows_now: int) -> int:
        """The index's documents (the `total` reader), refreshed as the entries are."""
        assert self._total is not None, "this cache was made without a `total` reader"
        with self._lock:
            known = self._documents
        if known is not None and self._fresh(known[1], rows_now):
            return known[0]
        count = self._total(conn)
        with self._lock:
            self._documents = (count, rows_now)
        return count
