"""Reads first: an agent waits on a recall (it sits in the prompt path), while a remember is
answered in a few milliseconds and its vector is written behind it. On few cores, eight writers'
Python steps and the write-behind embedder's batches took the GIL and the cores from the recalls
among them: recall p50 90-250 ms beside remember's 25 (bench.write_load_bench). So while any recall
runs, work that can wait does, briefly: a remember pauses at its checkpoints (before preparing,
before its write transaction) and the write-behind embedder before each batch.

The pause is bounded (`search.readsFirstMaxWaitMs` per checkpoint): a steady stream of recalls
slows writes by at most that much each, never stops them. 0 turns it off. A read that is itself
waiting for writes (a recall settling the write-behind embedder) does not hold them back.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# Whether this context (a request's thread, or a worker running a copy of its context) is a read.
_in_read: ContextVar[bool] = ContextVar("signet_in_read", default=False)


class ReadsFirst:
    def __init__(self, max_wait_ms: int):
        self.max_wait_s = max_wait_ms / 1000
        self._readers = 0  # reads in flight
        self._settling = 0  # of those, reads waiting for the write-behind embedder
        self._cond = threading.Condition()

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Mark a latency-bound read in flight for its duration."""
        with self._cond:
            self._readers += 1
        token = _in_read.set(True)
        try:
            yield
        finally:
            _in_read.reset(token)
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextmanager
    def settling(self) -> Iterator[None]:
        """Inside `reading`: this read now waits for the write-behind embedder, which must not
        wait for it (remembers still do). Outside a read: nothing to do."""
        if not _in_read.get():
            yield
            return
        with self._cond:
            self._settling += 1
            self._cond.notify_all()
        try:
            yield
        finally:
            with self._cond:
                self._settling -= 1

    def yield_to_reads(self, *, embedder: bool = False) -> None:
        """Wait until no read is in flight (for the embedder: none that is not waiting for it), at most max_wait."""
        if not self._readers or not self.max_wait_s or _in_read.get():  # a read never waits for itself
            return
        with self._cond:
            self._cond.wait_for(lambda: self._readers <= (self._settling if embedder else 0), self.max_wait_s)
