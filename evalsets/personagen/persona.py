"""A person's private life model: family, friend, two jobs and their managers, a move, a pet, a
health episode, two trips, a hobby, tastes and personality traits."""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import world
from .names import CULTURE_NAMES, NamePicker
from .traits import TRAITS, Trait


def pronouns(gender: str) -> dict[str, str]:
    if gender == "f":
        return {"sub": "she", "obj": "her", "pos": "her", "Sub": "She", "Pos": "Her"}
    return {"sub": "he", "obj": "him", "pos": "his", "Sub": "He", "Pos": "His"}


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


@dataclass
class Someone:
    """A named person in somebody's life."""
    name: str
    gender: str

    @property
    def pro(self) -> dict[str, str]:
        return pronouns(self.gender)

    def ctx(self, prefix: str) -> dict[str, str]:
        """{prefix}: name, {prefix}_sub / _obj / _pos: pronouns, for str.format."""
        out = {prefix: self.name}
        out.update({f"{prefix}_{k}": v for k, v in self.pro.items()})
        return out


@dataclass
class Person:
    me: Someone
    culture: str
    traits: list[Trait]
    sib1: Someone
    sib1_rel: str
    sib1_age: str
    sib1_city: str
    sib1_job: str
    sib1_event: str          # "baby" or "wedding"
    sib1_other: Someone      # the baby, or the person the sibling married
    quirk: tuple[str, str, str]
    sib2: Someone
    sib2_rel: str
    sib2_age: str
    sib2_plan: str
    parent: str              # "mum" / "dad"
    friend: Someone
    friend_job: str
    rec_kind: str
    rec_title: str
    verdict: tuple[str, str]
    job: tuple[str, str, str, str, str, str]
    manager1: Someone
    manager2: Someone
    manager2_bg: tuple[str, str]
    advice: tuple[str, str]
    commute_old: tuple[str, str]
    commute_new: tuple[str, str]
    area_old: str
    area_new: str
    pet_species: str
    pet_breed: str
    pet: Someone
    pet_habit: str
    pet_vet: tuple[str, str]
    health: dict
    trip1: tuple
    trip1_highlight: str
    trip2: tuple
    trip2_highlight: str
    souvenir: str
    hobby: dict
    dish: tuple[str, str]
    music: tuple[str, str]

    @property
    def name(self) -> str:
        return self.me.name

    @property
    def pro(self) -> dict[str, str]:
        return self.me.pro

    @property
    def parent_pro(self) -> dict[str, str]:
        return pronouns("f" if self.parent == "mum" else "m")


def _sibling(rng: random.Random, names: NamePicker, culture: str) -> tuple[Someone, str, str]:
    gender = rng.choice("fm")
    rel = "sister" if gender == "f" else "brother"
    return Someone(names.take(culture, gender), gender), rel, rng.choice(["older", "younger", "big", "little"])


class Drawer:
    """Hands out pool items without repeats across the two people of a conversation."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.taken: dict[int, set[int]] = {}

    def take(self, pool: list):
        used = self.taken.setdefault(id(pool), set())
        free = [i for i in range(len(pool)) if i not in used] or list(range(len(pool)))
        i = self.rng.choice(free)
        used.add(i)
        return pool[i]


def _traits(rng: random.Random, avoid: list[Trait]) -> list[Trait]:
    keys = {t.key for t in avoid}
    for _ in range(50):
        chosen: list[Trait] = []
        for trait in rng.sample(TRAITS, len(TRAITS)):
            if trait.key in keys:
                continue
            if all(trait.key not in c.conflicts and c.key not in trait.conflicts for c in chosen):
                chosen.append(trait)
            if len(chosen) == 4:
                return chosen
    raise RuntimeError("no four compatible traits")


def make_person(rng: random.Random, names: NamePicker, draw: Drawer, culture: str,
                trip1: tuple, trip2: tuple, avoid_traits: list[Trait]) -> Person:
    gender = rng.choice("fm")
    me = Someone(names.take(culture, gender), gender)
    sib1, sib1_rel, sib1_age = _sibling(rng, names, culture)
    sib2, sib2_rel, _ = _sibling(rng, names, culture)
    # one older, one younger, so "her big brother" never fits both
    sib2_age = rng.choice(["younger", "little"] if sib1_age in ("older", "big") else ["older", "big"])
    event = rng.choice(["baby", "wedding"])
    other_gender = rng.choice("fm")
    other = Someone(names.take(culture if event == "baby" else rng.choice(CULTURE_NAMES), other_gender),
                    other_gender)
    friend_gender = rng.choice("fm")
    friend = Someone(names.take(rng.choice([culture] + CULTURE_NAMES), friend_gender), friend_gender)
    sib1_job = draw.take(world.SIBLING_JOBS)
    friend_job = draw.take(world.SIBLING_JOBS)
    m1g, m2g = rng.choice("fm"), rng.choice("fm")
    species, breeds, habits, vets = draw.take(world.PETS)
    pet_gender = rng.choice("fm")
    rec_kind = rng.choice(sorted(world.RECOMMENDATIONS))
    return Person(
        me=me, culture=culture, traits=_traits(rng, avoid_traits),
        sib1=sib1, sib1_rel=sib1_rel, sib1_age=sib1_age, sib1_city=draw.take(world.SIBLING_CITIES),
        sib1_job=sib1_job, sib1_event=event, sib1_other=other, quirk=draw.take(world.QUIRKS),
        sib2=sib2, sib2_rel=sib2_rel, sib2_age=sib2_age, sib2_plan=draw.take(world.SIBLING_PLANS),
        parent=rng.choice(["mum", "dad"]),
        friend=friend, friend_job=friend_job, rec_kind=rec_kind,
        rec_title=draw.take(world.RECOMMENDATIONS[rec_kind]), verdict=rng.choice(world.VERDICTS),
        job=draw.take(world.JOB_PATHS), manager1=Someone(names.take_any(m1g), m1g),
        manager2=Someone(names.take_any(m2g), m2g), manager2_bg=draw.take(world.MANAGER_BACKGROUNDS),
        advice=draw.take(world.PARENT_ADVICE),
        commute_old=draw.take(world.COMMUTES_OLD), commute_new=draw.take(world.COMMUTES_NEW),
        area_old=draw.take(world.AREAS), area_new=draw.take(world.AREAS),
        pet_species=species, pet_breed=rng.choice(breeds), pet=Someone(names.pet(), pet_gender),
        pet_habit=rng.choice(habits), pet_vet=rng.choice(vets),
        health=draw.take(world.HEALTH),
        trip1=trip1, trip1_highlight=rng.choice(trip1[2]), trip2=trip2, trip2_highlight=rng.choice(trip2[2]),
        souvenir=rng.choice(trip1[3]), hobby=draw.take(world.HOBBIES),
        dish=draw.take(world.DISHES), music=draw.take(world.MUSIC),
    )


def make_pair(rng: random.Random, names: NamePicker) -> tuple[Person, Person]:
    """Two people from different cultures; one country appears in both their travels."""
    draw = Drawer(rng)
    culture_a, culture_b = rng.sample(CULTURE_NAMES, 2)
    c2, shared, c4 = rng.sample(world.COUNTRIES, 3)
    a = make_person(rng, names, draw, culture_a, shared, c2, [])
    b = make_person(rng, names, draw, culture_b, c4, shared, a.traits)
    return a, b
