"""Category 5: questions whose premise is false.

Two shapes. Wrong speaker: a fact of one speaker asked about the other ("When did John adopt
Biscuit?" when Maria did); the evidence is the turn showing who it really was. Never said: an
attribute nobody stated for that person ("What is the name of John's cat?" when John has a
dog, "Where does Maria's uncle live?" when only her sister came up); the evidence, when there is
one, is the turn a careless reader would take the answer from. `adversarial_answer` holds that
trap answer; `answer` says it was not mentioned.
"""

from __future__ import annotations

from . import entities as E
from . import qtemplates as T
from .profile import Fact, Person
from .questions import Builder, qa


def wrong_speaker(b: Builder) -> None:
    for f in b.facts:
        other = b.people[1] if f.owner is b.people[0] else b.people[0]
        for q, a in T.WRONG.get(f.kind, []):
            if "{when}" in a and not f.when:
                continue
            if f.kind == "move" and "{old}" in q and b.the(other, "home").data["city"] == f.data["old"]:
                continue
            b.add(5, "wrong:" + f.fid, [f], [qa(f, q, a, asked=other)])


def _instrument(b: Builder, p: Person) -> list[Fact]:
    return [f for f in b.facts if f.owner is p and f.kind in ("hobby", "purchase") and f.data.get("instrument")]


def never_said(b: Builder) -> None:
    rng = b.rng
    for p in b.people:
        o = b.people[1] if p is b.people[0] else b.people[0]
        X = p.name
        pet, opet = b.one(p, "pet"), b.one(o, "pet")
        mine = pet.data["breed"][0] if pet else None
        if opet:
            cur = b.one(o, "rename") or opet
            sp = opet.data["breed"][0]
            b.add(5, f"absent:{X}:pet", [cur], [(f"What is the name of {X}'s {sp}?", cur.data["new_name"] or cur.data["name"])])
        elif pet:
            sp = rng.choice([s for s in E.ALL_SPECIES if s != mine])
            cur = b.one(p, "rename") or pet
            b.add(5, f"absent:{X}:pet", [cur], [(f"What is the name of {X}'s {sp}?", cur.data["new_name"] or cur.data["name"])])
        rels = b.of(p, "rel_city")
        absent = [r for r in T.ABSENT_RELATIONS if r not in {x.data["relation"] for x in rels}]
        r = rng.choice(absent)
        b.add(5, f"absent:{X}:rel", [rels[0]], [(f"Where does {X}'s {r} live?", rels[0].data["city"][0])])
        if not b.one(p, "move"):
            src = b.one(o, "move") or b.the(p, "home")
            b.add(5, f"absent:{X}:move", [src], [(f"Which city did {X} move to recently?", src.data["city"][0])])
        if not b.one(p, "job2"):
            src = b.one(o, "job2") or b.the(p, "job")
            b.add(5, f"absent:{X}:job2", [src], [(f"What new job did {X} accept?", src.data["job"][0])])
        for kind, q, ans in (("trip", f"Where is {X} going on holiday?", lambda f: f.data["city"][0]),
                             ("health", f"What health problem did {X} have recently?", lambda f: f.data["noun"]),
                             ("author", f"Which author is {X} obsessed with?", lambda f: f.data["author"][0])):
            told = b.one(o, kind)
            if told and not b.one(p, kind):
                b.add(5, f"absent:{X}:{kind}", [told], [(q, ans(told))])
        if not _instrument(b, p):
            theirs = _instrument(b, o)
            if theirs:
                src = theirs[0]
                b.add(5, f"absent:{X}:instrument", [src],
                      [(f"Which instrument is {X} learning to play?", src.data.get("short") or src.data["name"])])
            else:  # the trap is what they do practise
                hob = b.the(p, "hobby")
                b.add(5, f"absent:{X}:instrument", [hob], [(f"Which instrument is {X} learning to play?", hob.data["name"])])
