"""The process's telemetry sink: events are buffered and written in one short transaction per
second (or per 200 events) by a daemon thread, never on a request's path, never inside another
write. Off unless `memory.pipelineV2.telemetryEnabled`; `record` is then a no-op."""

from __future__ import annotations

import json
import logging
import threading

from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store.db import Database
from signet_pipeline.telemetry.events import Event
from signet_pipeline.timeutil import now_iso

KEEP = 100_000  # newest events kept; retention also drops those past its window
FLUSH_EVERY_S = 1.0
FLUSH_AT = 200
log = logging.getLogger("signet.telemetry")


class TelemetrySink:
    def __init__(self, db: Database, *, enabled: bool):
        self.db = db
        self.enabled = enabled
        self._buffer: list[tuple[str, str, str]] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if enabled:
            self._thread = threading.Thread(target=self._run, name="signet-telemetry", daemon=True)
            self._thread.start()

    def record(self, event: Event) -> None:
        if not self.enabled:
            return
        row = (event.event, json.dumps(event.properties(), separators=(",", ":")), now_iso())
        with self._lock:
            self._buffer.append(row)
            full = len(self._buffer) >= FLUSH_AT
        if full:
            self._wake.set()

    def flush(self) -> int:
        with self._lock:
            rows, self._buffer = self._buffer, []
        if rows:
            try:
                with self.db.write() as conn:
                    analytics_store.append_telemetry(conn, rows, keep=KEEP)
            except Exception:  # bookkeeping: never fails the work it describes
                log.exception("could not write %d telemetry event(s)", len(rows))
        return len(rows)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(FLUSH_EVERY_S)
            self._wake.clear()
            self.flush()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.flush()


_sink: TelemetrySink | None = None


def install(sink: TelemetrySink | None) -> None:
    """Make `sink` the process's sink (the API at start-up, a Dagster run with its service)."""
    global _sink
    _sink = sink


def uninstall(sink: TelemetrySink) -> None:
    """Forget `sink` if it is still the process's (a closed service's sink must not be used)."""
    global _sink
    if _sink is sink:
        _sink = None


def record(event: Event) -> None:
    """Record through the process's sink, if one is installed and enabled."""
    sink = _sink
    if sink is not None:
        sink.record(event)
