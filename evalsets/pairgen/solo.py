"""Questions about one person: multi-hop across their own sessions, temporal, open-domain inference,
single-hop, and adversarial ones (asked about the wrong person, or about something never said)."""

from __future__ import annotations

import random
import re
from datetime import datetime

from . import pools
from .dates import resolve
from .life import Fact, Plan
from .people import Person
from .questions import QA


def _pick(rng: random.Random, options: list[str], **slots: str) -> str:
    return rng.choice(options).format(**slots)


def solo_questions(rng: random.Random, plan: Plan) -> list[QA]:
    """Category 1 about a single speaker: the answer joins two or three of their own turns."""
    F, info, out = plan.facts, plan.info, []
    for p in (plan.a, plan.b):
        r = plan.role(p)
        c1, c2 = F[f"trip.{r}.shared"], F[f"trip.{r}.own"]
        out.append(QA(_pick(rng, ["Which cities did {p} mention travelling to?", "Where has {p} been on trips lately?",
                                  "Name the two cities {p} visited."], p=p.name),
                      f"{c1.slots['city']} and {c2.slots['city']}", "solo", f"trip.{r}",
                      [(c1, (c1.slots["city"],)), (c2, (c2.slots["city"],))]))
        hobbies = [F[f"hobby.{r}.shared"], F[f"hobby.{r}.own"]]
        if info["hobbies"]["taker"] == p:
            hobbies.append(F["rechobby.take"])
        names = [f.slots["hobby"] for f in hobbies]
        out.append(QA(_pick(rng, ["What hobbies does {p} have?", "What does {p} do for fun, judging by what {s} said?",
                                  "Which activities fill {p}'s free time?"], p=p.name, s=p.subj),
                      ", ".join(names[:-1]) + " and " + names[-1], "solo", f"hobby.{r}",
                      [(f, (f.slots["hobby"],)) for f in hobbies]))
        old, new = F[f"job.{r}.old"], F[f"job.{r}.new"]
        out.append(QA(_pick(rng, ["What did {p} do for work before {pos} career change, and what does {s} do now?",
                                  "How did {p}'s job change?"], p=p.name, pos=p.pos, s=p.subj),
                      f"{old.slots['job']}, then {new.slots['job']}", "solo", f"job.{r}",
                      [(old, (old.slots["job"],)), (new, (new.slots["job"],))]))
    rel = info["rel"]
    o = rel["owner"]
    out.append(QA(_pick(rng, ["What is the name of {p}'s {rel}, and what job does that {rel} have?",
                              "{p} mentioned a {rel} more than once. What is their name and job?"],
                        p=o.name, rel=rel["relation"]),
                  f"{rel['name']}, {rel['job']}", "solo", "rel",
                  [(F["rel.intro"], (rel["relation"], rel["job"])), (F["rel.named"], (rel["relation"], rel["name"]))]))
    bk = info["books"]
    t = bk["taker"]
    shared, recd = F[f"book.{plan.role(t)}"], F["recbook.take"]
    out.append(QA(_pick(rng, ["Which books has {p} finished reading?", "Name the books {p} talked about reading."],
                        p=t.name), f"{shared.slots['title']} and {recd.slots['title']}", "solo", "book",
                  [(shared, (shared.slots["title"],)), (recd, (recd.slots["title"],))]))
    x = info["food"]["extra"]
    r1, r2 = F[f"rest.{plan.role(x)}"], F["rest.extra"]
    out.append(QA(_pick(rng, ["Which restaurants has {p} eaten at?", "Where has {p} been out to eat?"], p=x.name),
                  f"{r1.slots['place']} and {r2.slots['place']}", "solo", "rest",
                  [(r1, (r1.slots["place"],)), (r2, (r2.slots["place"],))]))
    return out


# Temporal questions per fact kind: how to ask when it happened.
_WHEN_ASK = {
    "trip": ["When did {p} go to {city}?", "When was {p}'s trip to {city}?"],
    "pet": ["When did {p} adopt {pet}?", "When did {pet} the {breed} come to live with {p}?"],
    "job_new": ["When did {p} start working as {a_job}?", "When was {p}'s first day as {a_job}?"],
    "band": ["When did {p} see {band} live?", "When did {p} go to the {band} concert?"],
    "birthday": ["When was {p}'s birthday?", "When did {p} celebrate {pos} birthday?"],
    "hobby_took": ["When did {p} start {hobby}?", "When did {p} go to {pos} first {hobby} session?"],
    "restaurant": ["When did {p} eat at {place}?", "When did {p} try {place}?"],
}


def temporal_questions(rng: random.Random, plan: Plan, times: list[datetime]) -> list[QA]:
    out = []
    for f in sorted(plan.facts.values(), key=lambda f: f.key):
        if not f.when:
            continue
        p, said = f.owner, times[f.session - 1].date()
        if f.kind == "milestone":
            verb = next(m[1] for m in pools.MILESTONES if m[0] == f.slots["did"]).format(pos=p.pos)
            text = f"When did {p.name} {verb}?"
        else:
            text = _pick(rng, _WHEN_ASK[f.kind], p=p.name, pos=p.pos, **f.slots)
        out.append(QA(text, resolve(f.when, said), "temporal", f.kind, [(f, (*f.keywords, f.when))], timed=f))
    return out


def open_questions(rng: random.Random, plan: Plan) -> list[QA]:
    """Category 3: would this person likely enjoy something, inferred from what they said about themselves."""
    out = []
    for p, t in plan.info["traits"]:
        f = plan.facts[f"trait.{plan.role(p)}.{t[1]}"]
        out.append(QA(t[3].format(p=p.name), t[4].format(p=p.name), "open", f"trait.{plan.role(p)}", [(f, (t[1],))]))
    for p in (plan.a, plan.b):
        f = plan.facts[f"hobby.{plan.role(p)}.own"]
        hobby = next(h for h in pools.HOBBIES if h[0] == f.slots["hobby"])
        text = _pick(rng, ["Would {p} likely enjoy {s}?", "Would {p} be interested in {s}?"], p=p.name, s=hobby[2])
        out.append(QA(text, f"Likely yes; {p.name} is into {hobby[0]}", "open", f"hobby.{plan.role(p)}",
                      [(f, (hobby[0],))]))
    return out


def single_questions(rng: random.Random, plan: Plan) -> list[QA]:
    F, info, out = plan.facts, plan.info, []
    for r in "ab":
        f = F[f"pet.{r}"]
        out.append(QA(_pick(rng, ["What is the name of the {breed} {p} adopted?", "What did {p} name {pos} {breed}?"],
                            p=f.owner.name, pos=f.owner.pos, **f.slots), f.slots["pet"], "single", "pet",
                      [(f, (f.slots["pet"],))]))
        f = F[f"stress.{r}"]
        out.append(QA(_pick(rng, ["What does {p} do when work gets stressful?"], p=f.owner.name),
                      info["stress"][2], "single", "stress", [(f, (info["stress"][1],))]))
        f = F[f"show.{r}"]
        out.append(QA(f"What show has {f.owner.name} been watching?", f.slots["show"], "single", "show",
                      [(f, (f.slots["show"],))]))
    rel = info["rel"]
    f = F["rel.own"]
    out.append(QA(_pick(rng, ["What does {p}'s {rel} {n} do for work?", "What is {n}'s job?"], p=f.owner.name,
                        rel=rel["rel2"], n=rel["name2"]), rel["job2"], "single", "rel", [(f, (rel["job2"],))]))
    f = F["rest.extra"]
    dish = info["food"]["own_dish"]
    out.append(QA(f"What did {f.owner.name} order at {f.slots['place']}?", dish[0].removeprefix("the "), "single",
                  "rest", [(f, (dish[1],))]))
    f = F["recbook.give"]
    out.append(QA(f"Which book did {f.owner.name} recommend to {info['books']['taker'].name}?", f.slots["title"],
                  "single", "book", [(f, (f.slots["title"],))]))
    return out


def adversarial_questions(rng: random.Random, plan: Plan, times: list[datetime], text: str) -> list[QA]:
    """Category 5: the trap answer is what the OTHER speaker said, or nothing was ever said.
    `text` is the whole conversation, lower-cased, to keep never-said topics truly absent."""
    F, info, out = plan.facts, plan.info, []

    def swap(topic: str, question: str, trap: str, fact: Fact, words: tuple[str, ...], asked: Person) -> None:
        out.append(QA(question, trap, "adversarial", topic, [(fact, words)], not_about=asked))

    for r in "ab":
        f = F[f"pet.{r}"]
        q = plan.other(f.owner)
        swap("pet", f"What did {q.name} name {q.pos} {f.slots['breed']}?", f.slots["pet"], f, (f.slots["pet"],), q)
        m = F[f"mile.{r}"]
        verb = next(x[1] for x in pools.MILESTONES if x[0] == m.slots["did"]).format(pos=q.pos)
        swap("mile", f"When did {q.name} {verb}?", resolve(m.when or "", times[m.session - 1].date()), m,
             m.keywords, q)
    rel = info["rel"]
    swap("rel", f"What does {rel['friend'].name}'s {rel['relation']} do for a living?", rel["job"], F["rel.intro"],
         (rel["relation"], rel["job"]), rel["friend"])
    hob = info["hobbies"]
    swap("rechobby", f"What hobby did {hob['giver'].name} take up after {hob['taker'].name} recommended it?",
         hob["rec"][0], F["rechobby.take"], (hob["rec"][0],), hob["giver"])
    bk = info["books"]
    swap("recbook", f"Which book did {bk['giver'].name} read on {bk['taker'].name}'s recommendation?", bk["rec"][0],
         F["recbook.take"], (bk["rec"][0],), bk["giver"])
    held = {(p.name, t[1]) for p, t in info["traits"]}
    for p, t in info["traits"]:
        q = plan.other(p)
        if t[5] and (q.name, t[1]) not in held:
            trap = t[4].format(p=p.name).split("; ", 1)[-1].removeprefix(p.name + " ").removeprefix("is ")
            swap("trait", t[5].format(p=q.name), trap, F[f"trait.{plan.role(p)}.{t[1]}"], (t[1],), q)
    for question, absent in rng.sample(pools.NEVER_SAID, len(pools.NEVER_SAID)):
        if not any(re.search(r"\b" + re.escape(w), text) for w in absent):
            p = rng.choice([plan.a, plan.b])
            out.append(QA(question.format(p=p.name, pos=p.pos), "Not mentioned in the conversation", "adversarial",
                          "never", [], absent=absent, not_about=p))
            break
    return out
