"""Session dates and the relative time phrases people use ("last weekend"), with the date each one means."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

SESSION_FORMAT = "%I:%M %p on %d %B, %Y"  # what the LoCoMo loader parses
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

# Phrases a turn may use for when something happened; each resolves to a date given the session day.
WHEN_PHRASES = ["yesterday", "two days ago", "three days ago", "last weekend", "last week", "last month",
                "last Friday", "last Saturday", "last Sunday", "this morning"]


def session_times(rng: random.Random, count: int) -> list[datetime]:
    """Increasing session times, a few days to a few weeks apart, at waking hours."""
    day = datetime(2022, 1, 3) + timedelta(days=rng.randint(0, 540))
    times = []
    for _ in range(count):
        times.append(day.replace(hour=rng.randint(8, 21), minute=rng.randint(0, 59)))
        day = day + timedelta(days=rng.randint(3, 24))
    return times


def format_session(when: datetime) -> str:
    """'1:56 pm on 8 May, 2023': the LoCoMo spelling (no leading zeros, lower-case am/pm)."""
    hour = when.hour % 12 or 12
    return f"{hour}:{when.minute:02d} {'am' if when.hour < 12 else 'pm'} on {when.day} {when.strftime('%B')}, {when.year}"


def parse_session(text: str) -> datetime:
    return datetime.strptime(text, SESSION_FORMAT)


def _day(d: date) -> str:
    return f"{d.day} {d.strftime('%B')} {d.year}"


def resolve(phrase: str, said_on: date) -> str:
    """The short answer a temporal question expects for `phrase` said on `said_on`."""
    if phrase == "this morning":
        return _day(said_on)
    days = {"yesterday": 1, "two days ago": 2, "three days ago": 3}
    if phrase in days:
        return _day(said_on - timedelta(days=days[phrase]))
    if phrase == "last weekend":
        return f"the weekend before {_day(said_on)}"
    if phrase == "last week":
        return f"the week before {_day(said_on)}"
    if phrase == "last month":
        first = said_on.replace(day=1) - timedelta(days=1)
        return f"{first.strftime('%B')} {first.year}"
    if phrase.startswith("last "):
        wanted = WEEKDAYS.index(phrase.split()[1])
        back = (said_on.weekday() - wanted) % 7 or 7  # "last Friday" said on a Friday means a week ago
        return _day(said_on - timedelta(days=back))
    raise ValueError(f"unknown time phrase {phrase!r}")


def when_range(phrase: str, said_on: date) -> tuple[date, date]:
    """The earliest and latest day `phrase` can mean, to decide safely which of two events came first."""
    if phrase == "last weekend":
        saturday = said_on - timedelta(days=said_on.weekday() + 2)
        return saturday, saturday + timedelta(days=1)
    if phrase == "last week":
        monday = said_on - timedelta(days=said_on.weekday() + 7)
        return monday, monday + timedelta(days=6)
    if phrase == "last month":
        last = said_on.replace(day=1) - timedelta(days=1)
        return last.replace(day=1), last
    exact = datetime.strptime(resolve(phrase, said_on), "%d %B %Y").date()
    return exact, exact
