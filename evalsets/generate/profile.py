"""Speaker profiles and the facts each conversation will state.

A profile draws, per speaker: a home city (sometimes a later move), a job (sometimes a later
change), maybe a pet (sometimes renamed later), one or two named relatives (city stated in one
session, job in another), a hobby, maybe a health event, one or two purchases, a favourite dish,
maybe a trip (sometimes to a relative's city), a one-off event and maybe a favourite author.
Entities are unique within a conversation, so every question has one right answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import entities as E
from . import items as I
from .timeline import When


@dataclass
class Person:
    name: str
    g: str
    other: str = ""
    data: dict = field(default_factory=dict)

    @property
    def sub(self) -> str:
        return "she" if self.g == "f" else "he"

    @property
    def obj(self) -> str:
        return "her" if self.g == "f" else "him"

    @property
    def pos(self) -> str:
        return "her" if self.g == "f" else "his"


@dataclass
class Fact:
    fid: str
    kind: str
    owner: Person
    data: dict
    dep: str | None = None  # fid that must be said in an earlier session
    gap: int = 1  # at least this many sessions after dep
    early: bool = False  # said in the first quarter of the conversation
    pool: str | None = None  # timeline pool when the turn carries a relative time phrase
    session: int = 0
    dia_id: str = ""
    text: str = ""
    when: When | None = None
    date: object = None  # session date, set by dialogue.build


class _Draw:
    """Draws without replacement so entities stay unique within one conversation."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: dict[str, list[int]] = {}  # pool key -> indices already taken

    def take(self, key: str, pool: list):
        taken = self.used.setdefault(key, [])
        choices = [i for i in range(len(pool)) if i not in taken]
        i = self.rng.choice(choices)
        taken.append(i)
        return pool[i]


def _relative(d: _Draw, rng: random.Random) -> dict:
    relation, g = d.take("relation", E.RELATIONS)
    g = g or rng.choice("fm")
    name = d.take("relname" + g, E.RELATIVE_F if g == "f" else E.RELATIVE_M)
    return {"relation": relation, "name": name, "g": g, "city": d.take("city", E.CITIES), "job": d.take("job", E.JOBS)}


def make_people(rng: random.Random) -> tuple[Person, Person]:
    d = _Draw(rng)
    people = []
    for _ in range(2):
        g = rng.choice("fm")
        people.append(Person(d.take("speaker" + g, E.SPEAKERS_F if g == "f" else E.SPEAKERS_M), g))
    a, b = people
    a.other, b.other = b.name, a.name
    for p in people:
        x = p.data
        x["home"] = d.take("city", E.CITIES)
        x["move"] = d.take("city", E.CITIES) if rng.random() < 0.45 else None
        x["job"] = d.take("job", E.JOBS)
        x["job2"] = d.take("job", E.JOBS) if rng.random() < 0.4 else None
        if rng.random() < 0.75:
            breed = d.take("breed_" + p.name, E.BREEDS)
            while any(q.data.get("pet") and q.data["pet"]["breed"][0] == breed[0] for q in people):
                breed = d.take("breed_" + p.name, E.BREEDS)  # the two speakers never own the same species
            x["pet"] = {"breed": breed, "name": d.take("petname", E.PET_NAMES), "g": rng.choice("fm"),
                        "age": rng.choice(E.PET_AGES)}
            x["pet"]["new_name"] = d.take("petname", E.PET_NAMES) if rng.random() < 0.35 else None
        else:
            x["pet"] = None
        x["relatives"] = [_relative(d, rng) for _ in range(rng.choice((1, 2, 2)))]
        x["hobby"] = d.take("hobby", I.HOBBIES)
        x["health"] = d.take("health", I.CONDITIONS) if rng.random() < 0.65 else None
        x["purchases"] = [d.take("purchase", I.PURCHASES)]
        if rng.random() < 0.5:
            second = d.take("purchase", I.PURCHASES)
            while second["cat"] == x["purchases"][0]["cat"]:  # two buys are told apart by their kind
                second = d.take("purchase", I.PURCHASES)
            x["purchases"].append(second)
        x["dish"] = d.take("dish", I.DISHES)
        x["event"] = d.take("event", I.EVENTS)
        x["author"] = d.take("author", I.AUTHORS) if rng.random() < 0.6 else None
        x["trip"] = None
        if rng.random() < 0.65:
            here = (x["move"] or x["home"])[0]
            rel_cities = [r["city"] for r in x["relatives"] if r["city"][0] != here]
            x["trip"] = rng.choice(rel_cities) if rel_cities and rng.random() < 0.4 else d.take("city", E.CITIES)
    if not any(p.data["move"] or p.data["job2"] or (p.data["pet"] and p.data["pet"]["new_name"]) for p in people):
        a.data["move"] = d.take("city", E.CITIES)  # every conversation has at least one update
    return a, b


def make_facts(people: tuple[Person, Person]) -> list[Fact]:
    facts: list[Fact] = []
    for n, p in enumerate(people):
        x, k = p.data, f"{n}."
        add = facts.append
        add(Fact(k + "home", "home", p, {"city": x["home"]}, early=True))
        if x["move"]:
            add(Fact(k + "move", "move", p, {"city": x["move"], "old": x["home"]}, k + "home", 2, pool="past_short"))
        add(Fact(k + "job", "job", p, {"job": x["job"]}, early=True))
        if x["job2"]:
            add(Fact(k + "job2", "job2", p, {"job": x["job2"], "old": x["job"]}, k + "job", 2, pool="start"))
        if x["pet"]:
            add(Fact(k + "pet", "pet", p, dict(x["pet"]), pool="past_long"))
            if x["pet"]["new_name"]:
                add(Fact(k + "rename", "rename", p, dict(x["pet"]), k + "pet", 2))
        for i, r in enumerate(x["relatives"]):
            add(Fact(f"{k}rel{i}_city", "rel_city", p, r))
            add(Fact(f"{k}rel{i}_job", "rel_job", p, r, f"{k}rel{i}_city", 1))
        add(Fact(k + "hobby", "hobby", p, x["hobby"], pool="past_long"))
        if x["health"]:
            add(Fact(k + "health", "health", p, x["health"], pool="past_short"))
        for i, item in enumerate(x["purchases"]):
            add(Fact(f"{k}purchase{i}", "purchase", p, item, pool="past_short"))
        add(Fact(k + "dish", "dish", p, {"dish": x["dish"]}))
        add(Fact(k + "event", "event", p, x["event"], pool="past_short"))
        if x["author"]:
            add(Fact(k + "author", "author", p, {"author": x["author"]}))
        if x["trip"]:
            add(Fact(k + "trip", "trip", p, {"city": x["trip"]}, pool="future"))
    return facts
