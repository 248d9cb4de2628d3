"""What a conversation is built from: the two speakers (and a third person they talk about),
chat lines that may be tagged as evidence, story beats pinned to sessions, candidate
questions naming the tags that answer them, and `Ctx`, which hands out sessions, names and
places within one conversation so that nothing collides."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TypeVar

from evalsets.convgen import dates
from evalsets.convgen.dates import When
from evalsets.convgen.pools import NAMES, City, Job

NM = "Not mentioned in the conversation"
T = TypeVar("T")


@dataclass(frozen=True)
class Style:
    """How a person texts: chances that a line is lowercased, gets an emoji, a typo, padding."""
    lower: float
    emoji: float
    typo: float
    ramble: float


@dataclass
class Person:
    name: str
    gender: str  # "f" / "m", for pronouns
    city: City
    job: Job
    style: Style

    @property
    def sub(self) -> str:
        return "she" if self.gender == "f" else "he"

    @property
    def obj(self) -> str:
        return "her" if self.gender == "f" else "him"

    @property
    def pos(self) -> str:
        return "her" if self.gender == "f" else "his"


@dataclass(frozen=True)
class Third:
    """Someone one speaker (the holder) talks about a lot."""
    name: str
    gender: str
    relation: str  # "roommate", "son", ...
    holder: str    # "A" / "B"

    @property
    def sub(self) -> str:
        return "she" if self.gender == "f" else "he"

    @property
    def pos(self) -> str:
        return "her" if self.gender == "f" else "his"


@dataclass
class Line:
    who: str            # "A" / "B"
    text: str
    tag: str = ""       # evidence tag, local to its story
    caption: str = ""   # a shared photo
    long: bool = False  # a statement the speaker may pad into a ramble


@dataclass
class Beat:
    session: int
    lines: list[Line]


@dataclass(frozen=True)
class QA:
    category: int
    question: str
    answer: str
    tags: tuple[str, ...]


@dataclass
class Story:
    kind: str
    owner: str
    beats: list[Beat] = field(default_factory=list)
    qas: list[QA] = field(default_factory=list)
    words: dict[str, str] = field(default_factory=dict)  # for small talk that echoes this story

    def beat(self, session: int, *lines: Line) -> None:
        self.beats.append(Beat(session, list(lines)))

    def qa(self, category: int, question: str, answer: str, *tags: str) -> None:
        self.qas.append(QA(category, question, answer, tags))

    def qa_either(self, rng: random.Random, category: int, answer: str,
                  *asks: tuple[str, tuple[str, ...]]) -> None:
        """One of several wordings of a question (each with its own evidence), at random."""
        question, tags = rng.choice(asks)
        self.qa(category, question, answer, *tags)


class Ctx:
    """One conversation being written: randomness, people, session times and what is taken."""

    def __init__(self, rng: random.Random, a: Person, b: Person, third: Third | None, times: list[datetime]):
        self.rng = rng
        self.people = {"A": a, "B": b}
        self.third = third
        self.times = times
        self.load = [0] * len(times)
        self.taken: set[str] = {a.name, b.name, a.city.name, b.city.name} | ({third.name} if third else set())
        self.said: set[str] = set()  # small talk already used

    @property
    def n(self) -> int:
        return len(self.times)

    def p(self, role: str) -> Person:
        return self.people[role]

    @staticmethod
    def other(role: str) -> str:
        return "B" if role == "A" else "A"

    def day(self, s: int) -> date:
        return self.times[s].date()

    def gap(self, s: int) -> int:
        """Days since the session before (a month for the first)."""
        return (self.day(s) - self.day(s - 1)).days if s else 30

    def fresh(self, items: Sequence[T], key: Callable[[T], str] = str) -> T:
        """An item whose key nobody in this conversation uses yet; it becomes taken."""
        free = [item for item in items if key(item) not in self.taken]
        item = self.rng.choice(free or list(items))
        self.taken.add(key(item))
        return item

    def name(self, gender: str | None = None) -> str:
        return self.fresh([n for n, g in NAMES if gender in (None, g)])

    def sessions(self, k: int, lo: int = 0, hi: int | None = None) -> list[int] | None:
        """k increasing sessions in [lo, hi), the least loaded of a few random draws."""
        hi = self.n if hi is None else hi
        pool = list(range(lo, hi))
        if len(pool) < k:
            return None
        draws = [sorted(self.rng.sample(pool, k)) for _ in range(6)]
        return min(draws, key=lambda d: (max(self.load[s] for s in d), d))

    def after(self, day: date, lo: int, hi: int | None = None) -> int | None:
        """A session in [lo, hi) later than `day`: the first or second such one."""
        hi = self.n if hi is None else hi
        later = [s for s in range(lo, hi) if self.day(s) > day]
        if not later:
            return None
        return min(later[:2], key=lambda s: (self.load[s], s))

    def past(self, s: int) -> When:
        return dates.past(self.rng, self.day(s), self.gap(s))

    def future(self, s: int, *kinds: str) -> When:
        return dates.future(self.rng, self.day(s), *((kinds,) if kinds else ()))

    def commit(self, story: Story) -> None:
        for beat in story.beats:
            self.load[beat.session] += len(beat.lines)
