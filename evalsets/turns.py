"""Conversational turns as long as real ones, for the pipeline benchmark (`bench.pipeline_bench
--turns real-length`): pairs of people with changing lives, talking over many sessions, one private
agent per conversation, all conversations interleaved by time.

    .venv/bin/python -m evalsets.turns --seed 5 --turns 6000 --conversations 10 --out turns.json

The LoCoMo-format generators' turns are short and give fewer jobs per memory, so a throughput measured
on them says little about real chat (figures: docs/BENCHMARKS.md). Deterministic: one Random(seed).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random
from typing import TypeVar

from evalsets import turn_pools as pools
from signet_pipeline.timeutil import to_iso

MIN_WORDS, MAX_WORDS = 8, 60
MEDIAN_WORDS, SPREAD = 19, 0.5  # log-normal length target; whole sentences overshoot it, so the mean ends higher
AREAS = {"work": 3, "family": 2, "home": 2, "health": 1, "leisure": 3, "plans": 2}
CLAUSE_COUNTS = {1: 0.45, 2: 0.4, 3: 0.15}  # clauses per sentence
ACTS = {"share": 0.55, "ask": 0.2, "react": 0.25}
CHANGE_CHANCE = 0.06  # per speaker and session: a new job, a move, a pet, a hobby
_FORMATTER = string.Formatter()
K = TypeVar("K")


@dataclass
class Life:
    name: str
    job: str
    employer: str
    city: str
    project: str
    boss: str
    colleagues: list[str]
    friends: list[str]
    relatives: list[tuple[str, str, str]]  # relation, name, city
    pet: str
    pettype: str
    petname: str
    hobby: str
    venue: str
    instrument: str

    @classmethod
    def draw(cls, rng: Random, name: str, people: list[str]) -> Life:
        others = rng.sample(people, 7)
        pettype, pet = rng.choice(pools.PETS)
        hobby, venue = rng.choice(pools.HOBBIES)
        return cls(name=name, job=rng.choice(pools.JOBS), employer=rng.choice(pools.EMPLOYERS),
                   city=rng.choice(pools.CITIES), project=rng.choice(pools.PROJECTS), boss=others[0],
                   colleagues=others[1:3], friends=others[3:5],
                   relatives=[(rng.choice(pools.RELATIONS), n, rng.choice(pools.CITIES)) for n in others[5:7]],
                   pet=pet, pettype=pettype, petname=rng.choice(pools.PET_NAMES), hobby=hobby, venue=venue,
                   instrument=rng.choice(pools.INSTRUMENTS))

    def change(self, rng: Random, kind: str) -> None:
        if kind == "job":
            self.job = rng.choice([j for j in pools.JOBS if j != self.job])
            self.employer = rng.choice([e for e in pools.EMPLOYERS if e != self.employer])
            self.project, self.boss = rng.choice(pools.PROJECTS), rng.choice(pools.OTHERS)
        elif kind == "move":
            self.city = rng.choice([c for c in pools.CITIES if c != self.city])
        elif kind == "pet":
            self.pettype, self.pet = rng.choice(pools.PETS)
            self.petname = rng.choice([n for n in pools.PET_NAMES if n != self.petname])
        else:
            self.hobby, self.venue = rng.choice([h for h in pools.HOBBIES if h[0] != self.hobby])


def fill(template: str, me: Life, you: Life, rng: Random) -> str:
    """The template's slots from the speaker's life (`their_*` from the other's) and the pools; one
    relative and one book per clause, so "{relation} {relname}" stay one person."""
    relation, relname, relcity = rng.choice(me.relatives)
    their_relation, their_relname, their_relcity = rng.choice(you.relatives)
    book, author = rng.choice(pools.BOOKS)
    values = {}
    for _, slot, _, _ in _FORMATTER.parse(template):
        if slot is None or slot in values:
            continue
        theirs, key = slot.startswith("their_"), slot.removeprefix("their_")
        life = you if theirs else me
        local = {"relation": their_relation if theirs else relation, "relname": their_relname if theirs else relname,
                 "relcity": their_relcity if theirs else relcity, "book": book, "author": author,
                 "colleague": rng.choice(life.colleagues), "friend": rng.choice(life.friends),
                 "othercity": rng.choice([c for c in pools.CITIES if c != life.city]), "n": str(rng.randint(2, 12))}
        pooled = {"show": pools.SHOWS, "dish": pools.DISHES, "room": pools.ROOMS, "fix": pools.FIXES,
                  "course": pools.COURSES, "day": pools.DAYS, "past": pools.WHEN_PAST, "future": pools.WHEN_FUTURE,
                  "freq": pools.FREQUENCIES, "place": pools.PLACES, "thing": pools.THINGS,
                  "event": pools.EVENTS, "amount": pools.AMOUNTS}
        values[slot] = local[key] if key in local else rng.choice(pooled[key]) if key in pooled else getattr(life, key)
    return template.format(**values)


def _pick(rng: Random, weights: Mapping[K, float]) -> K:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def _sentence_case(text: str, end: str = ".") -> str:
    return text[0].upper() + text[1:] + end


def sentence(me: Life, you: Life, rng: Random, first: str | None = None) -> tuple[str, int]:
    """(sentence, its clauses): a main clause from one area of life (or `first`), then one or two more."""
    area = _pick(rng, AREAS)
    parts = [first or fill(rng.choice(pools.CLAUSES[area]), me, you, rng)]
    for _ in range(_pick(rng, CLAUSE_COUNTS) - 1):
        joint = rng.choice(["because", "but", "so", "and", "also", "feeling"])
        if joint == "because":
            parts.append(" because " + fill(rng.choice(pools.BECAUSE), me, you, rng))
        elif joint == "but":
            parts.append(", but " + fill(rng.choice(pools.BUT), me, you, rng))
        elif joint == "so":
            parts.append(", so " + fill(rng.choice(pools.SO), me, you, rng))
        elif joint == "and":
            parts.append(" and " + fill(rng.choice(pools.AND), me, you, rng))
        elif joint == "also":  # a second thing from the same part of life
            parts.append(", and " + fill(rng.choice(pools.CLAUSES[area]), me, you, rng))
        else:
            parts.append(", and " + rng.choice(pools.FEELINGS))
    text = "".join(parts)
    if first is None and rng.random() < 0.08:
        text = rng.choice(pools.HEDGES) + " " + text
    return _sentence_case(text, "!" if rng.random() < 0.1 else "."), len(parts)


def _words(parts: list[str]) -> int:
    return sum(len(p.split()) for p in parts)


def turn_text(me: Life, you: Life, rng: Random, change: str | None = None) -> tuple[str, int]:
    """(text, clauses) of one turn; `change` is a life-change clause to open with."""
    target = min(MAX_WORDS, max(MIN_WORDS, round(rng.lognormvariate(math.log(MEDIAN_WORDS), SPREAD))))
    act = _pick(rng, ACTS)
    parts: list[str] = []
    clauses = 0
    if act == "react":
        parts.append(rng.choice(pools.REACTIONS))
    question = fill(rng.choice(pools.QUESTIONS), me, you, rng) if act == "ask" or (
        act == "react" and rng.random() < 0.3) else None
    reserve = len(question.split()) if question else 0
    while change or not parts or _words(parts) + reserve < target:
        text, n = sentence(me, you, rng, first=change)
        words = _words(parts) + len(text.split()) + reserve
        if _words(parts) + reserve >= MIN_WORDS and (words > MAX_WORDS or words - target > len(text.split()) / 2):
            break  # closer to the target without it
        parts.append(text)
        clauses, change = clauses + n, None
    if question:
        parts.append(question)
    return " ".join(parts), clauses


@dataclass
class Turn:
    agent_id: str
    speaker: str
    session: int
    index: int
    at: datetime
    text: str
    clauses: int = field(default=0)

    def remember_body(self) -> dict:
        """The remember request of this turn, as the LoCoMo harness sends one: "Speaker: text", the
        session's time (a minute per turn), a private agent per conversation."""
        return {"content": f"{self.speaker}: {self.text}", "sourceId": f"S{self.session}:{self.index}",
                "sourceType": "conversation", "who": self.speaker, "createdAt": to_iso(self.at),
                "agentId": self.agent_id, "visibility": "private"}


def conversation(rng: Random, number: int, speakers: tuple[str, str], count: int, start: datetime) -> list[Turn]:
    lives = [Life.draw(rng, name, pools.OTHERS) for name in speakers]
    out: list[Turn] = []
    at, session = start, 0
    while len(out) < count:
        session += 1
        at += timedelta(days=rng.randint(1, 9), hours=rng.randint(-4, 4), minutes=rng.randint(0, 59))
        changes = [rng.choice(list(pools.CHANGES)) if rng.random() < CHANGE_CHANCE else None for _ in lives]
        speaker = rng.randrange(2)
        for index in range(1, min(rng.randint(8, 24), count - len(out)) + 1):
            me, you = lives[speaker], lives[1 - speaker]
            change = None
            kind = changes[speaker]
            if kind:
                me.change(rng, kind)
                change, changes[speaker] = fill(pools.CHANGES[kind], me, you, rng), None
            text, clauses = turn_text(me, you, rng, change)
            out.append(Turn(f"conv-{number}", me.name, session, index, at + timedelta(minutes=index), text, clauses))
            speaker = speaker if rng.random() < 0.12 else 1 - speaker  # now and then two turns in a row
    return out


def turns(count: int, seed: int, conversations: int = 10) -> list[Turn]:
    """`count` turns of `conversations` conversations (as even as can be), interleaved by time."""
    if conversations * 2 > len(pools.SPEAKERS):
        raise ValueError(f"at most {len(pools.SPEAKERS) // 2} conversations")
    rng = Random(seed)
    names = rng.sample(pools.SPEAKERS, conversations * 2)
    base = datetime(2023, 3, 1, 18, tzinfo=UTC)
    out: list[Turn] = []
    for k in range(conversations):
        share = count // conversations + (k < count % conversations)
        start = base + timedelta(days=rng.randint(0, 6), hours=rng.randint(0, 5))
        out += conversation(rng, k + 1, (names[2 * k], names[2 * k + 1]), share, start)
    return sorted(out, key=lambda t: (t.at, t.agent_id))


def remember_bodies(count: int, seed: int, conversations: int = 10) -> list[dict]:
    return [t.remember_body() for t in turns(count, seed, conversations)]


def stats(found: list[Turn]) -> dict:
    lengths = [len(t.text.split()) for t in found]
    return {"turns": len(found), "agents": len({t.agent_id for t in found}),
            "words_mean": round(statistics.fmean(lengths), 1), "words_median": statistics.median(lengths),
            "words_min": min(lengths), "words_max": max(lengths),
            "two_plus_clauses": round(sum(t.clauses >= 2 for t in found) / len(found), 2),
            "questions": round(sum(t.text.endswith("?") for t in found) / len(found), 2)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m evalsets.turns", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--turns", type=int, default=6000)
    p.add_argument("--conversations", type=int, default=10)
    p.add_argument("--out", type=Path, help="write the remember requests here (JSON)")
    p.add_argument("--show", type=int, default=0, help="print the first N turns")
    args = p.parse_args(argv)
    found = turns(args.turns, args.seed, args.conversations)
    for t in found[:args.show]:
        print(f"{t.agent_id} {t.speaker}: {t.text}")
    print(json.dumps(stats(found)))
    if args.out:
        args.out.write_text(json.dumps([t.remember_body() for t in found], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
