"""Timestamps as the API shows them: ISO 8601, UTC, milliseconds, `Z` (sortable as text)."""

from __future__ import annotations

from datetime import datetime, timezone


def to_iso(dt: datetime) -> str:
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def now_iso() -> str:
    return to_iso(datetime.now(timezone.utc))


def parse_iso(value: str) -> datetime:
    """Parse an ISO timestamp (date-only allowed, naive = UTC). Raises ValueError."""
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    dt = datetime.fromisoformat(text)
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


def normalize_iso(value: str) -> str:
    return to_iso(parse_iso(value))
