"""Temporal recall (memory-api recall "time", wire-contract `meta.temporal` / `temporal_facet`).

A recall is temporal when the caller passes a `time` object or the query holds exact date phrases
(2026-05-13, 2026/05/13, May 13 2026, 13 May 2026). A date phrase stands for that whole day in the
server's local time zone, as in the reference. The date words leave the query; what remains is the
content query:
- nothing left (a date-only query, or mode `timeline`): a timeline — the memories whose facets fall
  in the window, oldest event first;
- words left (mode `filter`): ordinary recall on those words, limited to the window.
Facets: session (its session ran then), source (source_created_at), captured (created_at),
observed, occurred, valid (valid_from..valid_until overlaps). Each result says which facet placed
it in the window (`temporal_facet`, `temporal_start_at`, `temporal_end_at`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any, Literal

import apsw

from signet_pipeline.models import RecallHit, TimeRange
from signet_pipeline.store import temporal as temporal_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.temporal import FACETS, POINT_COLUMNS, Window
from signet_pipeline.timeutil import MAX_YEAR, MIN_YEAR, to_iso

# Which facet a result is placed by when several fall in the window: the event's own time first.
ANNOTATION_ORDER = ("occurred", "observed", "source", "valid", "session", "captured")
FAR_PAST, FAR_FUTURE = "0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"

_MONTHS = {name: i + 1 for i, name in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
# Month names in full or abbreviated, as whole words ("marketing" and "decisions" are not months).
_MONTH = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")
_DATES = [  # (pattern, (year, month, day) group order); month groups are names
    (re.compile(r"\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b"), (1, 2, 3)),
    (re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.IGNORECASE), (3, 1, 2)),
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b", re.IGNORECASE), (3, 2, 1)),
]
# Prepositions a removed date leaves behind ("what happened on ___", "between ___ and ___").
_PREPOSITIONS = frozenset({"on", "at", "in", "from", "since", "during", "for", "of", "between", "and", "to", "until"})
_PREPOSITIONS_BEFORE = 3  # at most this many words before a date are checked
_WORD = re.compile(r"\w")


@dataclass(frozen=True)
class Plan:
    mode: Literal["timeline", "filter"]
    source: Literal["query", "request"]
    original_query: str
    content_query: str
    window: Window

    def meta(self) -> dict[str, Any]:
        return {"mode": self.mode, "source": self.source, "originalQuery": self.original_query,
                "contentQuery": self.content_query,
                "start": None if self.window.start == FAR_PAST else self.window.start,  # open bounds: null
                "end": None if self.window.end == FAR_FUTURE else self.window.end,
                "facets": list(self.window.facets)}


def _day(year: str, month: str, day: str) -> date | None:
    try:
        number = int(month) if month.isdigit() else _MONTHS[month[:3].lower()]
        found = date(int(year), number, int(day))
    except (ValueError, KeyError):
        return None  # 2026-02-30 is not a date: the words stay in the query
    # Stored timestamps have four-digit years; the day after must exist too.
    return found if MIN_YEAR <= found.year < MAX_YEAR else None


def find_dates(query: str) -> tuple[list[date], str]:
    """The exact dates the query names, and the query without them (nor the prepositions right
    before them). Linear in the query's length."""
    spans: list[tuple[int, int, date]] = []
    for pattern, order in _DATES:
        for match in pattern.finditer(query):
            day = _day(*(match.group(i) for i in order))
            if day is not None and not any(s < match.end() and match.start() < e for s, e, _ in spans):
                spans.append((match.start(), match.end(), day))
    if not spans:
        return [], " ".join(query.split())
    pieces, cursor = [], 0
    for start, end, _ in sorted(spans):
        before = query[cursor:start].split(" ")
        kept = len(before)
        while kept > 0 and len(before) - kept < _PREPOSITIONS_BEFORE + 1 and \
                (before[kept - 1].lower() in _PREPOSITIONS or not before[kept - 1]):
            kept -= 1
        pieces.append(" ".join(before[:kept]))
        cursor = end
    pieces.append(query[cursor:])
    return [day for _, _, day in sorted(spans)], " ".join(" ".join(pieces).split())


def _local_midnight(day: date) -> str:
    """The start of that day in the server's time zone, as UTC ISO 8601."""
    return to_iso(datetime.combine(day, time()).astimezone())


def plan(query: str, requested: TimeRange | None) -> Plan | None:
    """What the recall should do about time; None for an ordinary recall."""
    dates, content = find_dates(query)
    source: Literal["query", "request"]
    if requested is not None:
        facets = tuple(requested.facets) if requested.facets else FACETS
        window = Window(requested.start or FAR_PAST, requested.end or FAR_FUTURE, facets)
        source, mode = "request", requested.mode
    elif dates:
        window = Window(_local_midnight(min(dates)), _local_midnight(max(dates) + timedelta(days=1)))
        source, mode = "query", "auto"
    else:
        return None
    if mode == "auto" or not _WORD.search(content):  # with no words left there is nothing to filter
        mode = "filter" if _WORD.search(content) else "timeline"
    return Plan(mode, source, query, content, window)


def annotate(conn: apsw.Connection, hits: list[RecallHit], rows: dict[str, Row], window: Window) -> None:
    """Set each hit's temporal facet: the first (ANNOTATION_ORDER) that falls in the window."""
    spans = temporal_store.session_spans(conn, sorted({rows[h.id]["session_id"] for h in hits
                                                       if h.id in rows and rows[h.id]["session_id"]}))
    for hit in hits:
        row = rows.get(hit.id)
        if row is None:
            continue
        for facet in (f for f in ANNOTATION_ORDER if f in window.facets):
            span = _span(row, facet, spans)
            if span is not None and span[0] < window.end and span[1] >= window.start:
                hit.temporal_facet, (hit.temporal_start_at, hit.temporal_end_at) = facet, span
                break


def _span(row: Row, facet: str, sessions: dict[str, tuple[str, str | None]]) -> tuple[str, str] | None:
    if facet in POINT_COLUMNS:
        at = row[POINT_COLUMNS[facet]]
        return (at, at) if at else None
    if facet == "valid":
        return (row["valid_from"], row["valid_until"] or row["valid_from"]) if row["valid_from"] else None
    session = sessions.get(row["session_id"]) if row["session_id"] else None
    return (session[0], session[1] or session[0]) if session else None
