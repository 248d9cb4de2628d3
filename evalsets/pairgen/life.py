"""What each speaker reveals about their life, and in which session.

A conversation's plan is a set of facts. Facts that a question joins sit in one group, and a group's facts
land in different sessions (some in a fixed order: a recommendation before the take-up), so every
multi-hop question's evidence spans sessions by construction."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal, TypedDict

from . import pools
from .dates import WHEN_PHRASES
from .people import PRONOUNS, Person, pick_other_names

# A trait that rules out a hobby or pet, so a person never contradicts themselves.
_CLASHES = {"heights": {"bouldering"}, "seasick": {"rowing"}, "allergic": {"cat"}, "night owl": {"rowing"},
            "heat": set()}


@dataclass
class Fact:
    key: str
    owner: Person
    kind: str  # picks the phrasing templates
    slots: dict[str, str]
    keywords: tuple[str, ...]  # what the turn must contain to answer a question about this fact
    when: str | None = None  # a relative time phrase, for temporal questions
    session: int = 0
    turn: int = 0
    text: str = ""

    @property
    def dia_id(self) -> str:
        return f"D{self.session}:{self.turn}"


class HobbyInfo(TypedDict):
    shared: tuple[str, str, str]  # pools.HOBBIES entries
    a: tuple[str, str, str]
    b: tuple[str, str, str]
    rec: tuple[str, str, str]  # recommended by the giver, taken up by the taker
    giver: Person
    taker: Person


class BookInfo(TypedDict):
    shared: tuple[str, str, str]  # pools.BOOKS entries
    rec: tuple[str, str, str]
    giver: Person
    taker: Person


class FoodInfo(TypedDict):
    shared: pools.Restaurant
    dishes: dict[str, tuple[str, str]]  # speaker name -> (dish, key word) ordered at the shared restaurant
    own: pools.Restaurant
    own_dish: tuple[str, str]
    extra: Person  # who also ate at `own`
    cook: tuple[str, str]  # pools.DISHES entry both cook at home


class RelInfo(TypedDict):
    owner: Person  # whose relative is introduced, named and met
    friend: Person  # the other speaker, who meets them
    relation: str
    name: str
    job: str
    place: tuple[str, str]  # pools.MEET_PLACES entry
    rel2: str  # the friend's own relative
    name2: str
    job2: str
    gender: str


class PlanInfo(TypedDict, total=False):
    """Roles and values the questions need; filled in as build_plan draws them."""
    traits: list[tuple[Person, pools.Trait]]
    hobbies: HobbyInfo
    books: BookInfo
    food: FoodInfo
    stress: tuple[str, str, str]
    band: str
    show: str
    weekend: dict[str, tuple[str, str, str]]  # speaker name -> pools.WEEKENDS entry
    birthday: dict[str, tuple[str, str, str]]
    milestone: dict[str, tuple[str, str, str]]
    jobs: dict[str, tuple[str, str]]  # role -> (old job, new job)
    rel: RelInfo


@dataclass
class Plan:
    a: Person
    b: Person
    facts: dict[str, Fact] = field(default_factory=dict)
    groups: list[tuple[list[str], list[tuple[str, str]]]] = field(default_factory=list)
    info: PlanInfo = field(default_factory=PlanInfo)

    def other(self, p: Person) -> Person:
        return self.b if p == self.a else self.a

    def role(self, p: Person) -> str:
        return "a" if p == self.a else "b"

    def add_group(self, facts: list[Fact], before: list[tuple[str, str]] | None = None) -> None:
        for f in facts:
            self.facts[f.key] = f
        self.groups.append(([f.key for f in facts], before or []))


def _article(noun: str) -> str:
    return ("an " if noun[0].lower() in "aeiou" else "a ") + noun


def build_plan(rng: random.Random, a: Person, b: Person) -> Plan:
    plan = Plan(a, b)
    duo = [a, b]

    def when() -> str:
        return rng.choice(WHEN_PHRASES)

    # Traits first: they constrain which hobbies and pets fit each person.
    by_group: dict[str, list[pools.Trait]] = {}
    for t in pools.TRAITS:
        by_group.setdefault(t[0], []).append(t)
    trait_facts: list[Fact] = []
    clashes: dict[str, set[str]] = {a.name: set(), b.name: set()}
    for p in duo:
        for grp in rng.sample(sorted(by_group), 2):
            t = rng.choice(by_group[grp])
            clashes[p.name] |= _CLASHES.get(t[1], set())
            trait_facts.append(Fact(f"trait.{plan.role(p)}.{t[1]}", p, "trait",
                                    {"line": rng.choice(t[2])}, (t[1],)))
            plan.info.setdefault("traits", []).append((p, t))
    plan.add_group(trait_facts)

    # Hobbies: one shared, one each of their own, and one that one recommends and the other takes up.
    banned = clashes[a.name] | clashes[b.name]
    shared, own_a, own_b, rec = rng.sample([h for h in pools.HOBBIES if h[0] not in banned], 4)
    giver, taker = rng.sample(duo, 2)
    hob = [Fact("hobby.a.shared", a, "hobby", {"hobby": shared[0], "made": shared[1]}, (shared[0],)),
           Fact("hobby.b.shared", b, "hobby", {"hobby": shared[0], "made": _other_made(rng, shared)}, (shared[0],)),
           Fact("hobby.a.own", a, "hobby", {"hobby": own_a[0], "made": own_a[1]}, (own_a[0],)),
           Fact("hobby.b.own", b, "hobby", {"hobby": own_b[0], "made": own_b[1]}, (own_b[0],)),
           Fact("rechobby.give", giver, "hobby_rec", {"hobby": rec[0], "other": taker.name}, (rec[0],)),
           Fact("rechobby.take", taker, "hobby_took", {"hobby": rec[0], "other": giver.name}, (rec[0],), when())]
    plan.add_group(hob, [("rechobby.give", "rechobby.take")])
    plan.info["hobbies"] = {"shared": shared, "a": own_a, "b": own_b, "rec": rec, "giver": giver, "taker": taker}

    # Travel: one city both visit (separately), and one more each.
    c_shared, c_a, c_b = rng.sample(pools.CITIES, 3)
    trips = [Fact(f"trip.{r}.{tag}", p, "trip", {"city": c[0], "country": c[1]}, (c[0],), when())
             for r, p, tag, c in (("a", a, "shared", c_shared), ("b", b, "shared", c_shared),
                                  ("a", a, "own", c_a), ("b", b, "own", c_b))]
    plan.add_group(trips)

    # Books: one both read, and one recommended by one and read later by the other.
    bk, rbk = rng.sample(pools.BOOKS, 2)
    lender, reader = rng.sample(duo, 2)
    books = [Fact(f"book.{plan.role(p)}", p, "book", {"title": bk[0], "author": bk[1], "about": bk[2]}, (bk[0],))
             for p in duo]
    books += [Fact("recbook.give", lender, "book_rec", {"title": rbk[0], "about": rbk[2], "other": reader.name},
                   (rbk[0],)),
              Fact("recbook.take", reader, "book_read", {"title": rbk[0], "other": lender.name}, (rbk[0],))]
    plan.add_group(books, [("recbook.give", "recbook.take")])
    plan.info["books"] = {"shared": bk, "rec": rbk, "giver": lender, "taker": reader}

    # Food: a restaurant both tried (ordering different dishes), one more for one of them, a dish both cook.
    r_shared, r_own = rng.sample(pools.RESTAURANTS, 2)
    da, db = rng.sample(r_shared[2], 2)
    extra = rng.choice(duo)
    cook = rng.choice(pools.DISHES)
    own_dish = rng.choice(r_own[2])
    food = [Fact("rest.a", a, "restaurant", {"place": r_shared[0], "cuisine": r_shared[1], "dish": da[0]},
                 (r_shared[0], da[1]), when()),
            Fact("rest.b", b, "restaurant", {"place": r_shared[0], "cuisine": r_shared[1], "dish": db[0]},
                 (r_shared[0], db[1]), when()),
            Fact("rest.extra", extra, "restaurant", {"place": r_own[0], "cuisine": r_own[1], "dish": own_dish[0]},
                 (r_own[0], own_dish[1]), when()),
            Fact("dish.a", a, "dish", {"dish": cook[0]}, (cook[1],)),
            Fact("dish.b", b, "dish", {"dish": cook[0]}, (cook[1],))]
    plan.add_group(food)
    plan.info["food"] = {"shared": r_shared, "dishes": {a.name: da, b.name: db}, "own": r_own,
                         "own_dish": own_dish, "extra": extra, "cook": cook}

    # Stress, music and TV: things both share.
    stress = rng.choice(pools.STRESS)
    plan.add_group([Fact(f"stress.{plan.role(p)}", p, "stress", {"stress": stress[0]}, (stress[1],)) for p in duo])
    plan.info["stress"] = stress
    band, show = rng.choice(pools.BANDS), rng.choice(pools.SHOWS)
    plan.add_group([Fact(f"band.{plan.role(p)}", p, "band", {"band": band}, (band,), when()) for p in duo]
                   + [Fact(f"show.{plan.role(p)}", p, "show", {"show": show}, (show,)) for p in duo])
    plan.info["band"], plan.info["show"] = band, show

    # Pets: each adopts a different kind of animal, so "who first" and "whose cat" both have answers.
    kinds = [k for k in pools.PETS if k[0] not in banned]
    pa, pb = rng.sample(kinds, 2)
    names = rng.sample(pools.PET_NAMES, 2)
    pets = []
    for p, animal, nm in ((a, pa, names[0]), (b, pb, names[1])):
        breed = rng.choice(animal[1])
        pp = rng.choice(["f", "m"])
        pets.append(Fact(f"pet.{plan.role(p)}", p, "pet",
                         {"species": animal[0], "breed": breed, "pet": nm, "ps": PRONOUNS[pp][0],
                          "pp": PRONOUNS[pp][2], "po": PRONOUNS[pp][1]}, (breed, nm), when()))
    plan.add_group(pets)

    # Weekends, languages, birthdays, milestones: each person differs.
    kind: Literal["weekend", "birthday"]
    for kind, pool in (("weekend", pools.WEEKENDS), ("birthday", pools.BIRTHDAYS)):
        x, y = rng.sample(pool, 2)
        plan.add_group([Fact(f"{kind}.{plan.role(p)}", p, kind, {kind: v[0]}, (v[1],),
                             when() if kind == "birthday" else None) for p, v in ((a, x), (b, y))])
        plan.info[kind] = {a.name: x, b.name: y}
    la, lb = rng.sample(pools.LANGUAGES, 2)
    plan.add_group([Fact(f"lang.{plan.role(p)}", p, "language", {"language": lang, "way": rng.choice(pools.LEARN_WAYS)},
                         (lang,)) for p, lang in ((a, la), (b, lb))])
    ma, mb = rng.sample(pools.MILESTONES, 2)
    plan.add_group([Fact(f"mile.{plan.role(p)}", p, "milestone", {"did": m[0]}, (m[2],), when())
                    for p, m in ((a, ma), (b, mb))])
    plan.info["milestone"] = {a.name: ma, b.name: mb}

    # Jobs: both switch careers; the old job is mentioned sessions before the new one.
    jobs = rng.sample(pools.JOBS, 4)
    job_facts, order = [], []
    for i, p in enumerate(duo):
        old, new = jobs[2 * i], jobs[2 * i + 1]
        r = plan.role(p)
        job_facts += [Fact(f"job.{r}.old", p, "job_old", {"job": old, "a_job": _article(old)}, (old,)),
                      Fact(f"job.{r}.new", p, "job_new", {"job": new, "a_job": _article(new)}, (new,), when())]
        order.append((f"job.{r}.old", f"job.{r}.new"))
        plan.info.setdefault("jobs", {})[r] = (old, new)
    plan.add_group(job_facts, order)

    _add_relatives(rng, plan)
    return plan


def _other_made(rng: random.Random, hobby: tuple[str, str, str]) -> str:
    """The second person's remark about a shared hobby should not copy the first one's word for word."""
    alt = {"pottery": "I finally centred the clay on the wheel", "bouldering": "I topped my first purple route"}
    return alt.get(hobby[0], rng.choice(["I finally made something I'm happy to show people",
                                         "my instructor actually said well done for once",
                                         "I got through a whole session without messing anything up"]))


def _add_relatives(rng: random.Random, plan: Plan) -> None:
    """One speaker's relative: mentioned unnamed, later named, later met by the other speaker.
    The other speaker has a relative of a different kind, named with a job in one go."""
    owner = rng.choice([plan.a, plan.b])
    friend = plan.other(owner)
    (rel, rg), (rel2, rg2) = rng.sample(pools.RELATIONS, 2)
    (nm, _), (nm2, _) = pick_other_names(rng, {plan.a.name, plan.b.name}, 2)
    rjob, rjob2 = rng.sample(pools.JOBS, 2)
    place = rng.choice(pools.MEET_PLACES)
    subj, subj2 = PRONOUNS[rg][0], PRONOUNS[rg2][0]
    facts = [Fact("rel.intro", owner, "rel_intro", {"relation": rel, "rjob": rjob, "a_rjob": _article(rjob),
                                                   "rs": subj, "rp": PRONOUNS[rg][2]}, (rel, rjob)),
             Fact("rel.named", owner, "rel_named", {"relation": rel, "rname": nm, "rs": subj, "ro": PRONOUNS[rg][1]},
                  (rel, nm)),
             Fact("rel.met", friend, "rel_met", {"relation": rel, "rname": nm, "place": place[0],
                                                 "other": owner.name}, (nm, place[1])),
             Fact("rel.own", friend, "rel_own", {"relation": rel2, "rname": nm2, "rjob": rjob2,
                                                 "a_rjob": _article(rjob2), "rs": subj2}, (rel2, nm2, rjob2))]
    plan.add_group(facts, [("rel.intro", "rel.named"), ("rel.named", "rel.met")])
    plan.info["rel"] = {"owner": owner, "friend": friend, "relation": rel, "name": nm, "job": rjob,
                        "place": place, "rel2": rel2, "name2": nm2, "job2": rjob2, "gender": rg}


def allocate(rng: random.Random, plan: Plan, sessions: int) -> None:
    """Give every fact a session: a group's facts in distinct sessions, ordered pairs in order,
    spreading the load so no session is crammed."""
    load = [0] * (sessions + 1)
    for keys, before in plan.groups:
        picked = sorted(range(1, sessions + 1), key=lambda s: load[s] + rng.random() * 2.5)[:len(keys)]
        picked.sort()
        pending, order = list(keys), []
        while pending:  # a random order that respects the (before, after) pairs
            free = [k for k in pending if not any(b == k and a in pending for a, b in before)]
            k = rng.choice(free)
            pending.remove(k)
            order.append(k)
        for k, s in zip(order, picked):
            plan.facts[k].session = s
            load[s] += 1
