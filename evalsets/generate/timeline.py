"""Session dates and relative time phrases ("last weekend", "next month") with their answers.

A turn says "we adopted her last weekend"; the session header carries the date; the temporal
question's answer is resolved against that date the way LoCoMo's gold answers are written
("the weekend before 8 May 2023", "June 2023"). Each phrase also yields a [lo, hi] date window
so "which happened first" questions are only asked when the windows do not overlap.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

PAST_SHORT = ("yesterday", "two days ago", "this morning", "last weekend", "last {wd}", "a few days ago")
PAST_LONG = ("last week", "a couple of weeks ago", "last month", "last weekend", "a few days ago", "last {wd}")
FUTURE = ("next month", "next weekend", "in two weeks", "next {wd}", "tomorrow")
START = ("next month", "in two weeks", "next {wd}", "tomorrow")
POOLS = {"past_short": PAST_SHORT, "past_long": PAST_LONG, "future": FUTURE, "start": START}


@dataclass(frozen=True)
class When:
    phrase: str  # as written in the turn ("last Friday")
    answer: str  # resolved against the session date
    lo: date
    hi: date


def fmt(d: date) -> str:
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def stamp(d: date, hour: int, minute: int) -> str:
    """LoCoMo's session_<n>_date_time format: '1:56 pm on 8 May, 2023'."""
    h12 = hour % 12 or 12
    return f"{h12}:{minute:02d} {'am' if hour < 12 else 'pm'} on {d.day} {MONTHS[d.month - 1]}, {d.year}"


def session_dates(rng: random.Random, n: int) -> list[tuple[date, str]]:
    """n chronological sessions, 2 days to ~4 weeks apart, each with a clock time."""
    day = date(2022, 1, 3) + timedelta(days=rng.randint(0, 600))
    out = []
    for i in range(n):
        if i:
            day += timedelta(days=rng.choice((2, 3, 4, 5, 6, 7, 9, 10, 12, 14, 16, 19, 21, 25, 28)))
        hour, minute = rng.randint(7, 22), rng.randint(0, 59)
        out.append((day, stamp(day, hour, minute)))
    return out


def _month_bounds(year: int, month: int) -> tuple[date, date]:
    first = date(year, month, 1)
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return first, nxt - timedelta(days=1)


def resolve(phrase: str, d: date, wd: int = 0) -> When:
    """Turn a relative phrase said on day d into (answer, window)."""
    ds = fmt(d)
    if phrase == "yesterday":
        x = d - timedelta(days=1)
        return When(phrase, fmt(x), x, x)
    if phrase == "two days ago":
        x = d - timedelta(days=2)
        return When(phrase, fmt(x), x, x)
    if phrase == "this morning":
        return When(phrase, ds, d, d)
    if phrase == "tomorrow":
        x = d + timedelta(days=1)
        return When(phrase, fmt(x), x, x)
    if phrase == "last weekend":
        sun = d - timedelta(days=(d.weekday() - 6) % 7 or 7)
        return When(phrase, f"the weekend before {ds}", sun - timedelta(days=1), sun)
    if phrase == "next weekend":
        sat = d + timedelta(days=(5 - d.weekday()) % 7 or 7)
        return When(phrase, f"the weekend after {ds}", sat, sat + timedelta(days=1))
    if phrase == "last week":
        mon = d - timedelta(days=d.weekday() + 7)
        return When(phrase, f"the week before {ds}", mon, mon + timedelta(days=6))
    if phrase == "a few days ago":
        return When(phrase, f"a few days before {ds}", d - timedelta(days=5), d - timedelta(days=2))
    if phrase == "a couple of weeks ago":
        return When(phrase, f"about two weeks before {ds}", d - timedelta(days=18), d - timedelta(days=10))
    if phrase == "in two weeks":
        x = d + timedelta(days=14)
        return When(phrase, f"around {fmt(x)}", x - timedelta(days=2), x + timedelta(days=2))
    if phrase in ("last month", "next month"):
        y, m = (d.year, d.month - 1) if phrase == "last month" else (d.year, d.month + 1)
        if m == 0:
            y, m = y - 1, 12
        elif m == 13:
            y, m = y + 1, 1
        lo, hi = _month_bounds(y, m)
        return When(phrase, f"{MONTHS[m - 1]} {y}", lo, hi)
    if phrase == "last {wd}":
        x = d - timedelta(days=(d.weekday() - wd) % 7 or 7)
        return When(f"last {WEEKDAYS[wd]}", f"the {WEEKDAYS[wd]} before {ds} ({fmt(x)})", x, x)
    if phrase == "next {wd}":
        x = d + timedelta(days=(wd - d.weekday()) % 7 or 7)
        return When(f"next {WEEKDAYS[wd]}", f"the {WEEKDAYS[wd]} after {ds} ({fmt(x)})", x, x)
    raise ValueError(phrase)


def draw(rng: random.Random, pool: str, d: date) -> When:
    return resolve(rng.choice(POOLS[pool]), d, rng.randrange(5 if pool == "start" else 7))
