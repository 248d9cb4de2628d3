"""Session dates, and relative time phrases ("last Tuesday", "two weeks ago") with the absolute
date each one resolves to against its session's date."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, timedelta

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_NUMBER = {2: "two", 3: "three", 4: "four", 5: "five", 10: "ten"}


def fmt_day(d: date) -> str:
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


def fmt_session(at: datetime) -> str:
    """datetime -> '9:13 pm on 1 July, 2023' (the LoCoMo session date format)."""
    hour = at.hour % 12 or 12
    half = "am" if at.hour < 12 else "pm"
    return f"{hour}:{at.minute:02d} {half} on {at.day} {MONTHS[at.month - 1]}, {at.year}"


def session_times(rng: random.Random, count: int) -> list[datetime]:
    """`count` session times, 3-20 days apart, starting somewhere in 2022-2023."""
    day = date(2022, 1, 3) + timedelta(days=rng.randint(0, 600))
    times = []
    for i in range(count):
        if i:
            day += timedelta(days=rng.randint(3, 20))
        hour = rng.choice([7, 8, 9, 10, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22])
        times.append(datetime(day.year, day.month, day.day, hour, rng.randint(0, 59)))
    return times


def gap_phrase(days: int) -> str:
    if days <= 5:
        return "a few days"
    if days <= 9:
        return "about a week"
    if days <= 15:
        return "nearly two weeks"
    return "almost three weeks"


@dataclass(frozen=True)
class When:
    phrase: str   # as said in the turn: "last Tuesday"
    day: date     # the event's day
    answer: str   # the resolved answer: "Tuesday 4 July 2023"


def relative_when(rng: random.Random, today: date, max_back: int) -> When:
    """A past-time phrase no further back than `max_back` days (so the event falls after the
    previous session), and the date it means when said on `today`."""
    kinds: list[list[tuple[str, int, str]]] = []
    kinds.append([(p, o, "day") for p, o in (("yesterday", 1), ("the day before yesterday", 2)) if o <= max_back])
    kinds.append([(f"{_NUMBER[k]} days ago", k, "day") for k in (3, 4, 5) if k <= max_back])
    weekday = []
    for wd in range(7):
        back = (today.weekday() - wd) % 7 or 7
        if 2 <= back <= max_back:
            weekday.append((f"last {WEEKDAYS[wd]}", back, "weekday"))
    kinds.append(weekday)
    if today.weekday() <= 4 and today.weekday() + 2 <= max_back:  # a weekday: last weekend is over
        kinds.append([("last weekend", today.weekday() + 2, "weekend")])
    kinds.append([(p, o, "about") for p, o in (("a week ago", 7), ("about ten days ago", 10),
                                               ("two weeks ago", 14)) if o <= max_back])
    kinds = [k for k in kinds if k]
    phrase, back, kind = rng.choice(rng.choice(kinds))
    day = today - timedelta(days=back)
    if kind == "weekday":
        answer = f"{WEEKDAYS[day.weekday()]} {fmt_day(day)}"
    elif kind == "weekend":
        sunday = day + timedelta(days=1)
        if sunday.month == day.month:
            answer = f"The weekend of {day.day}-{sunday.day} {MONTHS[day.month - 1]} {day.year}"
        else:
            answer = f"The weekend of {fmt_day(day)} to {fmt_day(sunday)}"
    elif kind == "about":
        span = phrase.replace("about ", "").replace(" ago", "")
        answer = f"Around {fmt_day(day)} ({span} before {fmt_day(today)})"
    else:
        answer = fmt_day(day)
    return When(phrase, day, answer)
