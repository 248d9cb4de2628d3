"""Access tracking (last_accessed, access_count) off the recall path.

Recall only appends ids to an in-memory counter; a background thread folds them into the
database in one short write transaction per interval, so a recall never waits on the write lock.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter

from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Database
from signet_pipeline.timeutil import now_iso

log = logging.getLogger("signet.access")


class AccessTracker:
    def __init__(self, db: Database, *, interval_s: float = 1.0):
        self._db = db
        self._interval = interval_s
        self._pending: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="signet-access", daemon=True)
        self._thread.start()

    def record(self, memory_ids: list[str]) -> None:
        if memory_ids:
            with self._lock:
                self._pending.update(memory_ids)

    def flush(self) -> int:
        with self._lock:
            batch, self._pending = self._pending, Counter()
        if batch:
            try:
                with self._db.write() as conn:
                    mem_store.record_access(conn, dict(batch), now_iso())
            except Exception:  # never lose the loop; the counts are best-effort telemetry
                log.exception("access tracking flush failed (%d ids)", len(batch))
                return 0
        return len(batch)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            self.flush()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.flush()
