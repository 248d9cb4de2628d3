"""SQL for temporal recall (memory-api "time"): which memories fall in a time window by one of
their facets — when the memory's session ran, when its source was created, when it was captured
(stored), observed, occurred, or the span it is valid for."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import apsw

from signet_pipeline.store.db import Row, rows

FACETS = ("session", "source", "captured", "observed", "occurred", "valid")
# A point in time per facet (valid and session are spans: their clauses overlap the window).
POINT_COLUMNS = {"source": "source_created_at", "captured": "created_at", "observed": "observed_at",
                 "occurred": "occurred_at"}
# The time a timeline orders by: the event's own time before the time it was written down.
EVENT_TIME_SQL = "coalesce(m.occurred_at, m.observed_at, m.source_created_at, m.valid_from, m.created_at)"


@dataclass(frozen=True)
class Window:
    start: str  # inclusive, ISO 8601 UTC
    end: str  # exclusive
    facets: tuple[str, ...] = FACETS


def window_sql(window: Window) -> tuple[str, dict[str, Any]]:
    """A clause true when any of the window's facets falls in [start, end)."""
    parts = []
    for facet in window.facets:
        if facet in POINT_COLUMNS:
            parts.append(f"(m.{POINT_COLUMNS[facet]} >= :tw_start AND m.{POINT_COLUMNS[facet]} < :tw_end)")
        elif facet == "valid":
            parts.append("(m.valid_from IS NOT NULL AND m.valid_from < :tw_end "
                         "AND coalesce(m.valid_until, m.valid_from) >= :tw_start)")
        elif facet == "session":
            parts.append("EXISTS (SELECT 1 FROM sessions s WHERE s.session_key = m.session_id "
                         "AND s.started_at < :tw_end AND coalesce(s.ended_at, s.started_at) >= :tw_start)")
    return "(" + (" OR ".join(parts) or "0") + ")", {"tw_start": window.start, "tw_end": window.end}


def in_window(conn: apsw.Connection, where: str, params: dict[str, Any], limit: int) -> list[Row]:
    """The memories a filter's clause admits (MemoryFilter.sql(), its window included) in event-time
    order, oldest first: a timeline."""
    return rows(conn, f"SELECT m.* FROM memories m WHERE {where} ORDER BY {EVENT_TIME_SQL}, m.rid LIMIT :limit",
                {**params, "limit": limit})


def session_spans(conn: apsw.Connection, session_keys: list[str]) -> dict[str, tuple[str, str | None]]:
    """(started_at, ended_at) of these sessions."""
    if not session_keys:
        return {}
    found = conn.execute("SELECT session_key, started_at, ended_at FROM sessions WHERE session_key IN "
                         "(SELECT value FROM json_each(?))", (json.dumps(session_keys),))
    return {key: (start, end) for key, start, end in found}
