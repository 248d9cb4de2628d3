"""The process's telemetry sink: events are buffered and written in one short transaction per
second (or per 200 events) by a daemon thread (buffer.py), never on a request's path, never inside
another write. Off unless `memory.pipelineV2.telemetryEnabled`; then nothing is built or kept.
Memory searches (recall/search_log.py) go through the same buffer into their own bounded table."""

from __future__ import annotations

import json
import logging

from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store.db import Database
from signet_pipeline.telemetry.buffer import BufferedWriter
from signet_pipeline.telemetry.events import Event
from signet_pipeline.timeutil import now_iso

KEEP = 100_000  # newest events kept; retention also drops those past its window
KEEP_SEARCHES = 10_000  # newest memory searches kept (each holds its query and result ids)
FLUSH_AT = 200
log = logging.getLogger("signet.telemetry")
EVENT, SEARCH = "event", "search"


class TelemetrySink:
    def __init__(self, db: Database, *, enabled: bool):
        self.db = db
        self.enabled = enabled
        self._buffer = BufferedWriter(self._write, name="signet-telemetry", flush_at=FLUSH_AT) if enabled else None

    def _write(self, rows: list[tuple[str, tuple]]) -> None:
        events = [row for kind, row in rows if kind == EVENT]
        searches = [row for kind, row in rows if kind == SEARCH]
        try:
            with self.db.write() as conn:
                if events:
                    analytics_store.append_telemetry(conn, events, keep=KEEP)
                if searches:
                    analytics_store.append_searches(conn, searches, keep=KEEP_SEARCHES)
        except Exception:  # bookkeeping: never fails the work it describes
            log.exception("could not write %d telemetry row(s)", len(rows))

    def record(self, event: Event) -> None:
        if self._buffer is not None:
            self._buffer.add((EVENT, (event.event, json.dumps(event.properties(), separators=(",", ":")), now_iso())))

    def record_search(self, row: tuple) -> None:
        """One memory search, in analytics_store.SEARCH_COLUMNS order (recall/search_log.py builds it)."""
        if self._buffer is not None:
            self._buffer.add((SEARCH, row))

    def flush(self) -> int:
        return self._buffer.flush() if self._buffer is not None else 0

    def close(self) -> None:
        if self._buffer is not None:
            self._buffer.close()


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


def active() -> bool:
    """Whether events are kept: callers on hot paths (recall) check this before building one."""
    sink = _sink
    return sink is not None and sink.enabled


def record(event: Event) -> None:
    """Record through the process's sink, if one is installed and enabled."""
    sink = _sink
    if sink is not None:
        sink.record(event)
