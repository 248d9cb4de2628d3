"""Timestamps as the API shows them: ISO 8601, UTC, milliseconds, `Z` (sortable as text)."""

from __future__ import annotations

from datetime import UTC, datetime


def to_iso(dt: datetime) -> str:
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    dt = dt.astimezone(UTC)
    return f"{dt.year:04d}" + dt.strftime("-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def now_iso() -> str:
    return to_iso(datetime.now(UTC))


MIN_YEAR, MAX_YEAR = 1000, 9999  # four-digit years keep stored timestamps sortable as text


def parse_iso(value: str) -> datetime:
    """Parse an ISO timestamp (date-only allowed, naive = UTC) to UTC. Raises ValueError."""
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    dt = datetime.fromisoformat(text)
    try:
        dt = dt.astimezone(UTC) if dt.tzinfo else dt.replace(tzinfo=UTC)
    except OverflowError:
        raise ValueError(f"{value!r} is out of range") from None
    if not MIN_YEAR <= dt.year <= MAX_YEAR:
        raise ValueError(f"{value!r}: year must be between {MIN_YEAR} and {MAX_YEAR}")
    return dt


def normalize_iso(value: str) -> str:
    return to_iso(parse_iso(value))
