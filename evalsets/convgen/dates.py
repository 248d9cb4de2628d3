"""Session dates and relative time expressions. A `When` is what a speaker says ("last
weekend", "on the 21st") together with its resolution against the session date, which
becomes the gold answer of a temporal question."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 21: "21st", 22: "22nd", 23: "23rd"}


@dataclass(frozen=True)
class When:
    phrase: str  # as said in the chat
    answer: str  # resolved against the session date, always naming a month and a year
    day: date    # the day meant (its middle, for a month or a rough span)


def day_text(d: date) -> str:
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def month_text(d: date) -> str:
    return f"{MONTHS[d.month - 1]} {d.year}"


def session_text(t: datetime) -> str:
    """The LoCoMo session stamp: '1:56 pm on 8 May, 2023'."""
    hour = t.hour % 12 or 12
    return f"{hour}:{t.minute:02d} {'am' if t.hour < 12 else 'pm'} on {t.day} {MONTHS[t.month - 1]}, {t.year}"


def session_times(rng: random.Random, n: int) -> list[datetime]:
    """n session starts, days to weeks apart, at waking hours."""
    day = date(2022, 1, 3) + timedelta(days=rng.randint(0, 900))
    out = []
    for i in range(n):
        if i:
            r = rng.random()
            day += timedelta(days=rng.randint(1, 6) if r < 0.3 else rng.randint(7, 14) if r < 0.75
                             else rng.randint(15, 35))
        out.append(datetime(day.year, day.month, day.day, rng.randint(8, 22), rng.randint(0, 59)))
    return out


def _shift_month(d: date, months: int) -> date:
    index = d.year * 12 + d.month - 1 + months
    return date(index // 12, index % 12 + 1, 15)


def _ordinal(n: int) -> str:
    return ORDINALS.get(n, f"{n}th")


def past(rng: random.Random, today: date, within: int = 60) -> When:
    """Something that happened before `today`, at most `within` days back when possible."""
    options: list[tuple[int, When]] = []

    def add(back: int, phrase: str, answer: str, day: date | None = None) -> None:
        options.append((back, When(phrase, answer, day or today - timedelta(days=back))))

    add(1, "yesterday", day_text(today - timedelta(days=1)))
    add(2, "the day before yesterday", day_text(today - timedelta(days=2)))
    add(3, "three days ago", day_text(today - timedelta(days=3)))
    back = rng.randint(2, 6)
    then = today - timedelta(days=back)
    add(back, f"on {WEEKDAYS[then.weekday()]}",
        f"The {WEEKDAYS[then.weekday()]} before {day_text(today)} ({day_text(then)})")
    sat_back = (today.weekday() - 5) % 7
    sat_back += 7 if sat_back < 2 else 0
    add(sat_back, "last weekend", f"The weekend before {day_text(today)} ({day_text(today - timedelta(days=sat_back))})")
    add(7, "a week ago", f"About a week before {day_text(today)} (around {day_text(today - timedelta(days=7))})")
    add(14, "two weeks ago", f"About two weeks before {day_text(today)} (around {day_text(today - timedelta(days=14))})")
    last_month = _shift_month(today, -1)
    add((today - last_month).days, "last month", month_text(last_month), last_month)
    fitting = [w for back, w in options if back <= within]
    return rng.choice(fitting or [options[0][1]])


def future(rng: random.Random, today: date, kinds: tuple[str, ...] = ("tomorrow", "weekday", "week", "ordinal",
                                                                      "fortnight", "month")) -> When:
    """Something planned after `today`; `kinds` limits how far and how it is said."""
    kind = rng.choice(kinds)
    if kind == "tomorrow":
        then = today + timedelta(days=1)
        return When("tomorrow", day_text(then), then)
    if kind == "weekday":
        then = today + timedelta(days=rng.randint(2, 6))
        name = WEEKDAYS[then.weekday()]
        return When(rng.choice([f"on {name}", f"this {name}"]),
                    f"The {name} after {day_text(today)} ({day_text(then)})", then)
    if kind == "week":
        then = today + timedelta(days=7)
        return When("next week", f"The week after {day_text(today)} (around {day_text(then)})", then)
    if kind == "fortnight":
        then = today + timedelta(days=14)
        return When("in two weeks", f"About two weeks after {day_text(today)} (around {day_text(then)})", then)
    if kind == "ordinal":
        n = rng.randint(3, 28)
        then = date(today.year, today.month, n) if n > today.day + 2 else _shift_month(today, 1).replace(day=n)
        return When(f"on the {_ordinal(n)}", day_text(then), then)
    then = _shift_month(today, 1)
    return When("next month", month_text(then), then)


def next_weekday(today: date, weekday: int) -> date:
    """The first such weekday strictly after today."""
    return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)
