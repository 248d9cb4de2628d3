"""Question candidates for one conversation, per LoCoMo category.

Every candidate names the fact turns that carry its answer (`ev`); `select.py` picks the mix.
Questions about facts that were later updated ask for the current value and cite the update
turn; questions that need the old and the new value cite both.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from . import qtemplates as T
from .profile import Fact, Person
from .textutil import article

NOT_MENTIONED = "Not mentioned in the conversation"


@dataclass
class Cand:
    cat: int
    key: str  # the fact (or join) it is about; selection spreads questions over keys
    ev: list[Fact]
    direct: list[tuple[str, str]]
    para: list[tuple[str, str]] = field(default_factory=list)
    adv: str | None = None


def pron(p: Person) -> dict:
    return {"X": p.name, "sub": p.sub, "obj": p.obj, "pos": p.pos}


def fields(f: Fact, who: Person) -> dict:
    """Template fields of fact f; pronoun-bearing phrases are written for person `who`."""
    d, P = f.data, pron(who)
    c = dict(P, when=f.when.answer if f.when else "")
    k = f.kind
    if k in ("pet", "rename"):
        species, breed, size, walks = d["breed"]
        abs_ = article(breed) if species in breed else f"{article(breed)} ({species})"
        c.update(species=species, breed=breed, a_breed=article(breed), a_breed_species=abs_, pet=d["name"],
                 new=d["new_name"] or "", cur=d["new_name"] or d["name"], size=f"{size} ({breed})",
                 walks=f"Yes; {d['name']} is a dog ({breed})" if walks else f"No; {d['name']} is {abs_}, not a dog")
    elif k in ("home", "move", "trip"):
        city, country, language, continent = d["city"]
        c.update(city=city, dest=city, country=country, language=language, continent=continent)
        if k == "move":
            c["old"] = d["old"][0]
    elif k in ("job", "job2"):
        title, workplace, short, fld = d["job"]
        c.update(title=title[title.index(" ") + 1:], title_a=title, workplace=workplace, short=short, field=fld)
        if k == "job2":
            c["old_title"] = d["old"][0]
    elif k in ("rel_city", "rel_job"):
        city, country = d["city"][0], d["city"][1]
        rt, rw, rs, rf = d["job"]
        c.update(relation=d["relation"], relp=T.RELATION_PARA[d["relation"]], rel=d["name"], rel_city=city,
                 rel_country=country, rel_title_a=rt, rel_workplace=rw, rel_short=rs, rel_field=rf,
                 rsub="she" if d["g"] == "f" else "he")
    elif k == "hobby":
        c.update(name=d["name"], cls=d["cls"], setting=d["setting"], hcat=d["cat"], detail=d["detail"])
    elif k in ("health", "event"):
        for key in ("noun", "base", "ger", "pq", "pa", "oq", "oa", "q", "a"):
            if key in d:
                c[key] = d[key].format(**P)
    elif k == "purchase":
        c.update(item=d["item"], short=d["short"], pcat=d["cat"], oq=d["oq"].format(**P), oa=d["oa"].format(**P))
    elif k == "dish":
        c.update(dish=d["dish"][0], country=d["dish"][1])
    elif k == "author":
        c.update(author=d["author"][0], genre=d["author"][1])
    return c


def qa(f: Fact, q: str, a: str, asked: Person | None = None, **extra: str) -> tuple[str, str]:
    return (q.format(**fields(f, asked or f.owner), **extra), a.format(**fields(f, f.owner), **extra))


def _before(x: Fact, y: Fact) -> bool:
    """Did x surely happen before y (their time windows do not overlap)?"""
    return x.when is not None and y.when is not None and x.when.hi < y.when.lo


class Builder:
    def __init__(self, rng: random.Random, people: tuple[Person, Person], facts: list[Fact]):
        self.rng, self.people, self.facts = rng, people, facts
        self.by = {f.fid: f for f in facts}
        self.out: list[Cand] = []

    def of(self, p: Person, kind: str) -> list[Fact]:
        return [f for f in self.facts if f.owner is p and f.kind == kind]

    def one(self, p: Person, kind: str) -> Fact | None:
        got = self.of(p, kind)
        return got[0] if got else None

    def the(self, p: Person, kind: str) -> Fact:
        """The fact of a kind the speaker surely has: home, job, hobby, dish and event (profile.make_facts),
        or the fact an update refers back to."""
        fact = self.one(p, kind)
        if fact is None:
            raise ValueError(f"{p.name} has no {kind} fact")
        return fact

    def current(self, p: Person, old: str, new: str) -> Fact:
        return self.one(p, new) or self.the(p, old)

    def add(self, cat: int, key: str, ev: Iterable[Fact], direct: Iterable[tuple[str, str]],
            para: Iterable[tuple[str, str]] = (), adv: str | None = None) -> None:
        self.out.append(Cand(cat, key, list(ev), list(direct), list(para), adv))

    def stale(self, f: Fact) -> bool:
        """Facts superseded by a later update are not asked about on their own."""
        later = {"home": "move", "job": "job2"}.get(f.kind)
        return bool(later and self.one(f.owner, later))

    def ambiguous(self, f: Fact) -> bool:
        """Would a generic wording fit two facts of the same owner (two purchases, two siblings)?"""
        if f.kind == "purchase":
            return len(self.of(f.owner, "purchase")) > 1
        if f.kind == "rel_city":
            relp = T.RELATION_PARA[f.data["relation"]]
            return sum(T.RELATION_PARA[r.data["relation"]] == relp for r in self.of(f.owner, "rel_city")) > 1
        return False

    def single_and_open(self) -> None:
        for f in self.facts:
            if self.stale(f):
                continue
            tpl, opens = T.SINGLE[f.kind], T.OPEN.get(f.kind, [])
            direct, para = [qa(f, *t) for t in tpl["direct"]], [qa(f, *t) for t in tpl["para"]]
            if self.ambiguous(f) and f.kind == "purchase":
                cn = f.data["cat"].split(" ", 1)[1] if f.data["cat"].startswith(("a ", "an ")) else f.data["cat"]
                direct = [qa(f, f"Which {cn} did {{X}} buy?", "{item}")]
                para = [qa(f, f"What {cn} did {{X}} recently get {{pos}} hands on?", "{item}")]
                opens = opens[:1]
            elif self.ambiguous(f):
                para, opens = [], [(q.replace("{relp}", "{relation}"), a) for q, a in opens]
            self.add(4, f.fid, [f], direct, para)
            if f.kind == "pet" and not f.data["new_name"]:
                t = T.SINGLE["pet_name"]
                self.add(4, f.fid + "#name", [f], [qa(f, *x) for x in t["direct"]], [qa(f, *x) for x in t["para"]])
            for q in opens:
                if "{language}" in q and f.kind == "trip" and f.data["city"][2] == "English":
                    continue
                self.add(3, f.fid, [f], [qa(f, *q)])

    def temporal(self) -> None:
        timed = [f for f in self.facts if f.when and f.kind in T.WHEN]
        for f in timed:
            w = T.WHEN[f.kind]
            self.add(2, f.fid, [f], [qa(f, q, "{when}") for q in w["direct"]], [qa(f, q, "{when}") for q in w["para"]])
        pairs = [(x, y) for x, y in itertools.combinations(timed, 2) if _before(x, y) or _before(y, x)]
        for x, y in self.rng.sample(pairs, min(len(pairs), 8)):
            first, second = (x, y) if _before(x, y) else (y, x)
            assert first.when and second.when  # timed facts
            gx, gy = (T.GER[x.kind].format(**fields(x, x.owner)), T.GER[y.kind].format(**fields(y, y.owner)))
            g_first = gx if first is x else gy
            q = f"Which happened first: {x.owner.name} {gx}, or {y.owner.name} {gy}?"
            a = f"{first.owner.name} {g_first} ({first.when.answer}), before the other ({second.when.answer})"
            self.add(2, f"order:{x.fid}:{y.fid}", [x, y], [(q, a)])

    def multi_hop(self) -> None:
        for p in self.people:
            cities = self.of(p, "rel_city")
            for rc in cities:
                rj = self.by[rc.fid.replace("_city", "_job")]
                self.add(1, rc.fid, [rc, rj], [
                    qa(rc, "What does {X}'s {relation} do for work?", "{rel} works as {rel_title_a} at {rel_workplace}"),
                    qa(rc, "Which city does the person {X} knows who works at {rel_short} live in?",
                       "{rel_city} ({pos} {relation} {rel})"),
                    qa(rc, "What is the name of {X}'s {relation}, and where does {rsub} work?", "{rel}, at {rel_workplace}")])
                trip = self.one(p, "trip")
                if trip and trip.data["city"] == rc.data["city"]:
                    self.add(1, trip.fid + "#stay", [trip, rc], [qa(rc, "Who could {X} stay with during {pos} upcoming trip?",
                                                                     "{pos} {relation} {rel}, who lives in {rel_city}")])
            if len(cities) > 1:
                names = " and ".join(f"{r.data['name']} in {r.data['city'][0]}" for r in cities)
                self.add(1, p.name + "#rels", cities, [(f"Where do the relatives and friends {p.name} has mentioned live?", names)])
            for old, new, q, a in (("home", "move", "Where did {X} live before moving to {city}?", "{old}"),
                                   ("job", "job2", "What did {X} do before becoming {title_a}?", "{old_title}"),
                                   ("pet", "rename", "What was {X}'s {species} called before being renamed?", "{pet}")):
                n = self.one(p, new)
                if n:
                    self.add(1, n.fid + "#old", [self.the(p, old), n], [qa(n, q, a)])
            buys = self.of(p, "purchase")
            if len(buys) > 1:
                self.add(1, p.name + "#buys", buys, [(f"What things has {p.name} bought recently?",
                                                      " and ".join(b.data["item"] for b in buys))])
            hob, ev = self.the(p, "hobby"), self.the(p, "event")
            self.add(1, p.name + "#acts", [hob, ev], [(f"Which activities has {p.name} taken up or done lately?",
                                                       f"{hob.data['name']}, and {qa(ev, '', '{ger}')[1]}")])
            self.joins(p)

    def joins(self, p: Person) -> None:
        ids = []
        job = self.current(p, "job", "job2")
        ids.append((job, "the speaker who works as {title_a}"))
        ids.append((self.the(p, "hobby"), "the speaker who took up {name}"))
        trip = self.one(p, "trip")
        if trip:
            ids.append((trip, "the speaker who is about to travel to {dest}"))
        pet = self.one(p, "pet")
        if pet:
            ids.append((pet, "the speaker who adopted {a_breed}"))
        home = self.current(p, "home", "move")
        targets: list[tuple[Fact | list[Fact], str, str]] = [
            (home, "Which city does {who} live in now?", "{city}"),
            (job, "What does {who} do for a living?", "{title_a}"),
            (self.the(p, "dish"), "What is the favourite food of {who}?", "{dish}"),
            (self.of(p, "purchase"), "What did {who} buy recently?", "{items}")]
        if pet:
            cur = self.one(p, "rename") or pet
            targets.append((cur, "What is the name of the pet belonging to {who}?", "{cur}"))
        items = " and ".join(b.data["item"] for b in self.of(p, "purchase"))
        for (idf, who), (tf, q, a) in itertools.product(ids, targets):
            tfs = tf if isinstance(tf, list) else [tf]
            if idf.kind.rstrip("2") == tfs[0].kind.rstrip("2") or idf.kind + "rename" == "pet" + tfs[0].kind:
                continue
            phrase = who.format(**fields(idf, p))
            self.add(1, f"join:{p.name}:{tfs[0].fid}", [idf, *tfs], [qa(tfs[0], q, a, who=phrase, items=items)])
