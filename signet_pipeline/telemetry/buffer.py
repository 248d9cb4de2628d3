"""Rows from any thread, written in batches by one daemon thread: once a second, or sooner when
`flush_at` rows wait. What the telemetry sink and the log handler share, so neither writes on the
caller's path nor inside another write transaction."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


class BufferedWriter:
    def __init__(self, write: Callable[[list[Any]], None], *, name: str, every_s: float = 1.0,
                 flush_at: int | None = None):
        self._write = write  # handles its own errors: bookkeeping must never fail the work it describes
        self._every_s = every_s
        self._flush_at = flush_at
        self._rows: list[Any] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    @property
    def on_writer_thread(self) -> bool:
        return threading.current_thread() is self._thread

    def add(self, row: Any) -> None:
        with self._lock:
            self._rows.append(row)
            full = self._flush_at is not None and len(self._rows) >= self._flush_at
        if full:
            self._wake.set()

    def flush(self) -> int:
        with self._lock:
            rows, self._rows = self._rows, []
        if rows:
            self._write(rows)
        return len(rows)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self._every_s)
            self._wake.clear()
            self.flush()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=5)
        self.flush()
