"""Question candidates for one conversation, by category, each with the facts whose turns answer it.
Multi-hop questions join facts said in different sessions; open-domain ones ask for an inference
from a person's own statements; adversarial ones ask about things nobody said."""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import world
from .facts import Fact
from .persona import Person, article
from .story import third

MULTI_HOP, TEMPORAL, OPEN_DOMAIN, SINGLE_HOP, ADVERSARIAL = 1, 2, 3, 4, 5
NOT_MENTIONED = "Not mentioned in the conversation"


@dataclass
class Candidate:
    question: str
    answer: str
    keys: list[str]
    category: int


def cap(text: str) -> str:
    return text[0].upper() + text[1:]


def person_candidates(rng: random.Random, p: Person, t: str, q: Person, u: str,
                      facts: dict[str, Fact]) -> list[Candidate]:
    """Everything askable about `p` (fact keys prefixed `t`); `q` (prefix `u`) is the other speaker."""
    out: list[Candidate] = []
    X, pro = p.name, p.pro
    sub, Sub, pos = pro["sub"], pro["Sub"], pro["pos"]

    def add(cat: int, questions: list[str], answer: str, keys: list[str]) -> None:
        out.append(Candidate(rng.choice(questions), answer, keys, cat))

    k = lambda name: f"{t}.{name}"  # noqa: E731
    rel1, rel2, S1, S2 = p.sib1_rel, p.sib2_rel, p.sib1.name, p.sib2.name
    if rel1 == rel2:  # two sisters or two brothers: say which one
        rel1, rel2 = f"{p.sib1_age} {rel1}", f"{p.sib2_age} {rel2}"
    role1, work1, short1, role2, work2, short2 = p.job
    country1, city1, country2, city2 = p.trip1[0], p.trip1[1], p.trip2[0], p.trip2[1]
    h = p.health
    injury3 = third(h["injury"], pro)

    # multi-hop: each joins turns from different sessions
    add(MULTI_HOP, [f"In which city does {X}'s {rel1} live now?", f"Where has {X}'s {rel1} moved to?"],
        f"{p.sib1_city}; {pos} {rel1} {S1} moved there.", [k("sib1.intro"), k("sib1.city")])
    add(MULTI_HOP, [f"What does {X}'s {rel1} do for a living?", f"What is the occupation of {X}'s {rel1}?"],
        f"{S1} works as {article(p.sib1_job)}.", [k("sib1.intro"), k("sib1.job")])
    if p.sib1_event == "baby":
        add(MULTI_HOP, [f"What is the name of {X}'s {rel1}'s baby?", f"What did {X}'s {rel1} name the baby?"],
            f"{p.sib1_other.name}; {S1} had a baby {'girl' if p.sib1_other.gender == 'f' else 'boy'}.",
            [k("sib1.intro"), k("sib1.event")])
    else:
        add(MULTI_HOP, [f"Who did {X}'s {rel1} marry?", f"What is the name of {X}'s {rel1}'s spouse?"],
            f"{p.sib1_other.name}; {S1} married {p.sib1_other.name}.", [k("sib1.intro"), k("sib1.event")])
    add(MULTI_HOP, [f"What has {X}'s {rel2} decided to do next?", f"What is {X}'s {rel2} planning?"],
        f"{S2} has decided to {p.sib2_plan}.", [k("sib2.intro"), k("sib2.plan")])
    add(MULTI_HOP, [f"What are the names of {X}'s siblings?", f"Who are {X}'s brothers and sisters?"],
        f"{S1} ({pos} {p.sib1_age} {p.sib1_rel}) and {S2} ({pos} {p.sib2_age} {p.sib2_rel}).",
        [k("sib1.intro"), k("sib2.intro")])
    add(MULTI_HOP, [f"What do {X}'s {rel1} and {X}'s first manager have in common?",
                    f"What hobby is shared by {X}'s {rel1} and {pos} original boss?"],
        f"{cap(p.quirk[0])}: {S1} and {p.manager1.name}.",
        [k("sib1.intro"), k("sib1.quirk"), k("mgr1.intro"), k("mgr1.quirk")])
    add(MULTI_HOP, [f"How did {X}'s commute change after {sub} moved?",
                    f"What difference did relocating make to {X}'s journey to work?"],
        f"It went from {p.commute_old[1]} to {p.commute_new[1]} after {sub} moved from {p.area_old} to "
        f"{p.area_new}.", [k("commute.old"), k("move"), k("commute.new")])
    add(MULTI_HOP, [f"Which two countries did {X} travel to during these months?",
                    f"Name the two countries {X} visited over the course of the conversations."],
        f"{country1} ({city1}) and {country2} ({city2}).", [k("trip1"), k("trip2")])
    add(MULTI_HOP, [f"Who accompanied {X} to {country1}, and what does that person do for a living?"],
        f"{cap(pos)} {rel1} {S1}, who works as {article(p.sib1_job)}.",
        [k("sib1.intro"), k("trip1"), k("sib1.job")])
    gist = p.advice[1].format(sub=sub, pos=pos, ppos=p.parent_pro["pos"])
    add(MULTI_HOP, [f"What did {X} decide about the job offer after talking it over with {pos} {p.parent}?",
                    f"How did {X} respond to the offer from {short2} once {pos} {p.parent} had weighed in?"],
        f"{Sub} accepted the {role2} job at {work2} and handed in {pos} notice at {short1}, after {pos} "
        f"{p.parent}'s advice: {gist}.", [k("offer"), k("talk"), k("notice")])
    add(MULTI_HOP, [f"How did {X}'s working life change over these months?",
                    f"What role did {X} leave, and what role replaced it?"],
        f"{Sub} went from being {article(role1)} at {work1} to {article(role2)} at {work2}.",
        [k("job1"), k("offer"), k("notice")])
    add(MULTI_HOP, [f"What unexpected past career does the boss at {X}'s second workplace have?"],
        f"{p.manager2.name} {p.manager2_bg[0].format(pos=p.manager2.pro['pos'])}.",
        [k("mgr2.intro"), k("mgr2.bg")])
    vet = p.pet_vet[0].format(**p.pet.pro)
    add(MULTI_HOP, [f"What did the vet discover when {X}'s {p.pet_breed} fell ill?",
                    f"What health problem did {X}'s {p.pet_breed} turn out to have?"],
        f"{p.pet.name} had {vet}, so {p.pet_vet[1].format(**p.pet.pro)}.", [k("pet.intro"), k("pet.vet")])
    add(MULTI_HOP, [f"What did {X} take up after {sub} {injury3}, and why?",
                    f"How has {X} been keeping active since {sub} {injury3}?"],
        f"{cap(h['activity'][0])}: {sub} started {h['activity'][1]} because of the doctor's orders: "
        f"{h['told'].format(pos=pos)}.", [k("injury"), k("recovery")])
    add(MULTI_HOP, [f"What did {X} think of the {p.rec_kind} {pos} best friend recommended, and what is it called?"],
        f"'{p.rec_title}': {sub} {p.verdict[1]}.", [k("friend.intro"), k("friend.rec"), k("friend.outcome")])
    add(MULTI_HOP, [f"What does {X}'s best friend do for work?", f"What is {X}'s best friend's job?"],
        f"{p.friend.name} works as {article(p.friend_job)}.", [k("friend.intro"), k("friend.job")])
    add(MULTI_HOP, [f"Who looked after {X}'s {p.pet_breed} while {sub} was in {country1}?"],
        f"{cap(pos)} best friend {p.friend.name} looked after {p.pet.name}.",
        [k("pet.intro"), k("friend.sitter"), k("friend.intro")])
    add(MULTI_HOP, [f"What souvenir did {X} bring back for {pos} {rel2}, and from where?"],
        f"{cap(p.souvenir)} from {city1}, for {S2}.", [k("sib2.intro"), k("souvenir")])
    add(MULTI_HOP, [f"What milestone did {X} reach after taking up {p.hobby['name']}?"],
        f"{Sub} got to {p.hobby['when_q'].format(pos=pos)}.", [k("hobby.intro"), k("hobby.milestone")])

    # temporal: the relative phrase resolved against the session date
    for f in facts.values():
        if f.owner == X and f.when is not None and f.event:
            add(TEMPORAL, [f"When did {f.event}?"], f.when.answer, [f.key])

    # single-hop
    add(SINGLE_HOP, [f"What is the name of {X}'s {rel1}?"], S1, [k("sib1.intro")])
    add(SINGLE_HOP, [f"What kind of animal did {X} adopt, and what is it called?"],
        f"{cap(article(p.pet_breed))} called {p.pet.name}.", [k("pet.intro")])
    add(SINGLE_HOP, [f"What odd habit has {p.pet.name} developed?"], cap(p.pet_habit.format(**p.pet.pro)),
        [k("pet.habit")])
    add(SINGLE_HOP, [f"What was {X}'s job at {short1}?"], cap(role1), [k("job1")])
    add(SINGLE_HOP, [f"What did {X} do in {city1}?"], cap(p.trip1_highlight), [k("trip1")])
    add(SINGLE_HOP, [f"What did {X} do in {city2}?"], cap(p.trip2_highlight), [k("trip2")])
    add(SINGLE_HOP, [f"What did {X}'s {p.parent} say about the job offer?"], cap(gist), [k("talk")])
    add(SINGLE_HOP, [f"What dish has {X} been cooking over and over?"], cap(p.dish[1]), [k("dish")])
    add(SINGLE_HOP, [f"What music has {X} had on repeat?"], cap(p.music[0]), [k("music")])
    hq, ha = p.hobby["single"]
    add(SINGLE_HOP, [hq.format(X=X, pos=pos)], ha.format(pos=pos, obj=pro["obj"]), [k("hobby.intro")])
    add(SINGLE_HOP, [f"Which {p.rec_kind} has {p.friend.name} been urging {X} to try?"], f"'{p.rec_title}'",
        [k("friend.rec")])
    add(SINGLE_HOP, [f"What did the doctor tell {X} after {sub} {injury3}?"], cap(h["told"].format(pos=pos)),
        [k("injury")])
    add(SINGLE_HOP, [f"What is the name of the manager {X} had at {short1}?"], p.manager1.name,
        [k("mgr1.intro")])
    add(SINGLE_HOP, [f"Where did {X} move from and to?"], f"From {p.area_old} to {p.area_new}.", [k("move")])

    # open-domain: inferences from three self-statements each
    for i, trait in enumerate(p.traits):
        keys = [k(f"trait{i}.{j}") for j in range(3)]
        for question, answer in trait.questions:
            fill = {"X": X, "sub": sub, "pos": pos, "obj": pro["obj"]}
            add(OPEN_DOMAIN, [question.format(**fill)], cap(answer.format(**fill)), keys)

    # adversarial: never said; evidence is the closest turn in topic
    absent = rng.choice(world.ABSENT_RELATIONS)
    add(ADVERSARIAL, [f"What does {X}'s {absent} do for a living?"], NOT_MENTIONED, [k("sib1.job")])
    genders = {p.sib1.gender, p.sib2.gender}
    if len(genders) == 1:
        missing = "brother" if "f" in genders else "sister"
        add(ADVERSARIAL, [f"What is the name of {X}'s {missing}?"], NOT_MENTIONED,
            [k("sib1.intro"), k("sib2.intro")])
    if q.pet_species != p.pet_species:
        add(ADVERSARIAL, [f"What is the name of {X}'s {q.pet_species}?"], NOT_MENTIONED, [f"{u}.pet.intro"])
    others = [c for c in (q.trip1, q.trip2) if c[0] not in (country1, country2)]
    if others:
        which = "trip1" if others[0] is q.trip1 else "trip2"
        add(ADVERSARIAL, [f"What did {X} enjoy most about {others[0][0]}?"], NOT_MENTIONED, [f"{u}.{which}"])
    if p.hobby["name"] not in ("the cello", "choir singing"):
        add(ADVERSARIAL, [f"Which instrument does {X} play in {pos} band?"], NOT_MENTIONED, [k("hobby.intro")])
    if q.health["injury"] != h["injury"]:
        add(ADVERSARIAL, [f"When did {X} {q.health['when_q'].format(pos=pos)}?"], NOT_MENTIONED,
            [f"{u}.injury"])
    add(ADVERSARIAL, [f"What is the name of {S1}'s dog?"], NOT_MENTIONED, [k("sib1.intro")])
    add(ADVERSARIAL, [f"What did {X}'s manager {p.manager1.name} say when {sub} resigned?"], NOT_MENTIONED,
        [k("notice"), k("mgr1.intro")])
    return out


def shared_candidates(a: Person, b: Person) -> list[Candidate]:
    """Questions joining what the two speakers each said."""
    out = [Candidate(f"Which country did both {a.name} and {b.name} visit?",
                     f"{a.trip1[0]}; both spent time in {a.trip1[1]}.", ["a.trip1", "b.trip2"], MULTI_HOP)]
    if a.pet_species == b.pet_species:
        out.append(Candidate(f"What kind of pet do {a.name} and {b.name} both have?",
                             f"{cap(article(a.pet_species))}: {a.name} has {a.pet.name} and {b.name} has {b.pet.name}.",
                             ["a.pet.intro", "b.pet.intro"], MULTI_HOP))
    return out
