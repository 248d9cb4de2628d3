"""Questions whose answer needs what BOTH speakers said, each in a different session (category 1),
plus the mix of the other categories and the final per-conversation selection."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from .dates import when_range
from .life import Fact, Plan
from .people import Person

# How many of each kind one conversation gets: two-person multi-hop stays above 40 %.
QUOTA = {"pair": 16, "solo": 5, "temporal": 5, "open": 4, "single": 4, "adversarial": 4}
CATEGORY = {"pair": 1, "solo": 1, "temporal": 2, "open": 3, "single": 4, "adversarial": 5}
Evidence = tuple[Fact, tuple[str, ...]]  # an evidence fact and the words its turn must contain


@dataclass
class QA:
    question: str
    answer: str
    kind: str  # pair | solo | temporal | open | single | adversarial
    topic: str  # at most one question per topic and kind, so a conversation's questions vary
    parts: list[Evidence]
    absent: tuple[str, ...] = ()  # never-said adversarial: word starts that must appear in no turn
    timed: Fact | None = None  # temporal: the fact whose time phrase gives the answer
    not_about: Person | None = None  # adversarial: the person asked about, who never said it
    extra: dict[str, Person] = field(default_factory=dict)  # pair: who is {x} and who is {y}

    @property
    def category(self) -> int:
        return CATEGORY[self.kind]

    def evidence(self) -> list[str]:
        return [f.dia_id for f, _ in sorted(self.parts, key=lambda p: (p[0].session, p[0].turn))]

    def to_json(self) -> dict:
        key = "adversarial_answer" if self.kind == "adversarial" else "answer"
        return {"question": self.question, key: self.answer, "evidence": self.evidence(), "category": self.category}


def first_of(f1: Fact, f2: Fact, times: list[datetime]) -> Fact | None:
    """The fact whose event surely happened first, or None when the time phrases leave it open."""
    r1 = when_range(f1.when or "this morning", times[f1.session - 1].date())
    r2 = when_range(f2.when or "this morning", times[f2.session - 1].date())
    if r1[1] < r2[0]:
        return f1
    if r2[1] < r1[0]:
        return f2
    return None


def pair_questions(rng: random.Random, plan: Plan, times: list[datetime]) -> list[QA]:
    F, info = plan.facts, plan.info
    out: list[QA] = []

    def q(topic: str, options: list[str], answer: str, parts: list[Evidence], **slots: str) -> None:
        x, y = rng.sample([plan.a, plan.b], 2)  # which name comes first varies
        text = rng.choice(options).format(x=x.name, y=y.name, **slots)
        out.append(QA(text, answer.format(x=x.name, y=y.name, **slots), "pair", topic, parts,
                      extra={"x": x, "y": y}))

    def both(prefix: str, words: tuple[str, ...]) -> list[Evidence]:
        """Speaker a's and speaker b's fact of a shared topic ('hobby.a.shared' or plain 'book.a')."""
        keys = [f"{prefix}.{r}" if f"{prefix}.{r}" in F else f"{prefix}.{r}.shared" for r in "ab"]
        return [(F[k], words) for k in keys]

    hob = info["hobbies"]
    h = hob["shared"][0]
    q("hobby", ["What hobby do {x} and {y} have in common?", "Which pastime do both {x} and {y} enjoy?",
                "{x} and {y} each brought up the same hobby at different times. Which one?",
                "What do {x} and {y} both like doing in their free time?"], h, both("hobby", (h,)))
    rec = hob["rec"][0]
    g, t = hob["giver"], hob["taker"]
    q("rechobby", ["What hobby did {t} take up after {g} recommended it?",
                   "Which activity did {g} suggest that {t} later actually started?",
                   "{g} talked {t} into trying something new. What was it?"], rec,
      [(F["rechobby.give"], (rec,)), (F["rechobby.take"], (rec,))], g=g.name, t=t.name)

    city = F["trip.a.shared"].slots["city"]
    trips = both("trip", (city,))
    q("trip", ["Which city have both {x} and {y} visited?", "Name the city that {x} and {y} each travelled to.",
               "What destination do {x}'s and {y}'s trips have in common?"], city, trips)
    first = first_of(trips[0][0], trips[1][0], times)
    if first:
        q("trip", ["Who went to {city} first, {x} or {y}?", "Between {x} and {y}, who was in {city} earlier?"],
          first.owner.name, trips, city=city)

    bk = info["books"]
    title = bk["shared"][0]
    q("book", ["Which book have both {x} and {y} read?", "What novel did {x} and {y} each read on their own?",
               "{x} and {y} both talked about reading the same book. Which one?"], title, both("book", (title,)))
    rt = bk["rec"][0]
    q("recbook", ["Which book did {t} read because {g} recommended it?",
                  "What did {g} tell {t} to read, which {t} later finished?",
                  "Which of {g}'s book recommendations did {t} end up reading?"], rt,
      [(F["recbook.give"], (rt,)), (F["recbook.take"], (rt,))], g=bk["giver"].name, t=bk["taker"].name)

    food = info["food"]
    place = food["shared"][0]
    q("rest", ["Which restaurant have both {x} and {y} eaten at?", "Where have {x} and {y} both had a meal out?",
               "Name a restaurant that {x} and {y} have each tried."], place, both("rest", (place,)))
    da, db = food["dishes"][plan.a.name], food["dishes"][plan.b.name]
    q("rest", ["What did {x} and {y} each order at {place}?", "At {place}, what dish did {x} get, and what did {y} get?"],
      "", [(F["rest.a"], (place, da[1])), (F["rest.b"], (place, db[1]))], place=place)
    out[-1].answer = "; ".join(f"{p.name}: {food['dishes'][p.name][0].removeprefix('the ')}"
                               for p in (out[-1].extra["x"], out[-1].extra["y"]))
    cook = food["cook"]
    q("dish", ["What dish have both {x} and {y} tried cooking at home?",
               "Which recipe have {x} and {y} each been attempting in their kitchens?"], cook[0], both("dish", (cook[1],)))

    st = info["stress"]
    q("stress", ["What do {x} and {y} both do to deal with work stress?",
                 "How do both {x} and {y} unwind when work gets stressful?",
                 "What coping habit for work stress do {x} and {y} share?"], st[2], both("stress", (st[1],)))

    band, show = info["band"], info["show"]
    bands = both("band", (band,))
    q("band", ["Which band have both {x} and {y} seen live?", "What band did {x} and {y} each go to see in concert?"],
      band, bands)
    first = first_of(bands[0][0], bands[1][0], times)
    if first:
        q("band", ["Who saw {band} live first, {x} or {y}?"], first.owner.name, bands, band=band)
    q("show", ["What TV show are both {x} and {y} watching?", "Which series do {x} and {y} both seem hooked on?"],
      show, both("show", (show,)))

    pa, pb = F["pet.a"], F["pet.b"]
    pets: list[Evidence] = [(pa, (pa.slots["breed"], pa.slots["pet"])), (pb, (pb.slots["breed"], pb.slots["pet"]))]
    first = first_of(pa, pb, times)
    if first:
        second = pb if first is pa else pa
        q("pet", ["Who got a new pet first, {x} or {y}?", "Which of them brought a new animal home first, {x} or {y}?",
                  "{x} and {y} both adopted pets. Whose arrived first?"],
          f"{first.owner.name} ({first.slots['pet']} the {first.slots['breed']}, before "
          f"{second.owner.name}'s {second.slots['pet']})", pets)
    q("pet", ["What pets did {x} and {y} each adopt?", "Which animals joined {x}'s and {y}'s homes?"],
      "", pets)
    out[-1].answer = "; ".join(f"{f.owner.name}: a {f.slots['breed']} named {f.slots['pet']}"
                               for f in sorted((pa, pb), key=lambda f: f.owner != out[-1].extra["x"]))

    def per_person(topic: str, options: list[str], label: Callable[[Person], str], prefix: str,
                   word: Callable[[Person], str]) -> None:
        q(topic, options, "", [(F[f"{prefix}.a"], (word(plan.a),)), (F[f"{prefix}.b"], (word(plan.b),))])
        out[-1].answer = "; ".join(f"{p.name}: {label(p)}" for p in (out[-1].extra["x"], out[-1].extra["y"]))

    wk = info["weekend"]
    per_person("weekend", ["How do {x}'s and {y}'s weekend routines differ?",
                           "What does a typical weekend look like for {x} compared with {y}?"],
               lambda p: wk[p.name][2], "weekend", lambda p: wk[p.name][1])
    langs = {p.name: F[f"lang.{plan.role(p)}"].slots["language"] for p in (plan.a, plan.b)}
    per_person("lang", ["Which languages are {x} and {y} each learning?",
                        "{x} and {y} are both studying a language. Which ones?"],
               lambda p: langs[p.name], "lang", lambda p: langs[p.name])
    bd = info["birthday"]
    per_person("birthday", ["How did {x} and {y} each celebrate their birthdays?",
                            "What did {x} and {y} do for their birthdays?"],
               lambda p: bd[p.name][2], "birthday", lambda p: bd[p.name][1])
    ms = info["milestone"]
    per_person("mile", ["What personal milestones did {x} and {y} each reach?",
                        "What big personal moment did {x} and {y} each share?"],
               lambda p: ms[p.name][0].replace("my ", p.pos + " "), "mile", lambda p: ms[p.name][2])

    news = {p.name: F[f"job.{plan.role(p)}.new"] for p in (plan.a, plan.b)}
    olds = {p.name: F[f"job.{plan.role(p)}.old"] for p in (plan.a, plan.b)}
    q("job", ["Did {x} and {y} both change jobs, and to what?", "What new jobs did {x} and {y} each start?"],
      "", [(f, (f.slots["job"],)) for f in news.values()])
    moves = ", ".join(f"{p.name} became {news[p.name].slots['a_job']}" for p in (out[-1].extra["x"], out[-1].extra["y"]))
    out[-1].answer = ("Yes; " + moves) if out[-1].question.startswith("Did") else moves
    q("job", ["What career changes did {x} and {y} each make?", "How did {x}'s and {y}'s jobs change over time?"],
      "", [(f, (f.slots["job"],)) for f in (*olds.values(), *news.values())])
    out[-1].answer = "; ".join(f"{p.name}: {olds[p.name].slots['job']} to {news[p.name].slots['job']}"
                               for p in (out[-1].extra["x"], out[-1].extra["y"]))
    first = first_of(news[plan.a.name], news[plan.b.name], times)
    if first:
        q("job", ["Who started a new job first, {x} or {y}?"], first.owner.name, [(f, (f.slots["job"],))
                                                                                  for f in news.values()])

    rel = info["rel"]
    owner, friend, relation = rel["owner"], rel["friend"], rel["relation"]
    met = (F["rel.met"], (rel["name"], rel["place"][1], relation))
    q("rel", ["What does the person {f} met at {place} do for a living?",
              "{f} got chatting with someone at {place}. What is that person's job?"],
      rel["job"], [met, (F["rel.intro"], (relation, rel["job"]))], f=friend.name, place=rel["place"][0])
    q("rel", ["Which of the people in {o}'s life did {f} bump into, and what does that person do?",
              "Who did {f} meet from {o}'s family or circle, and what is their job?"],
      f"{owner.name}'s {relation} {rel['name']}, {rel['job']}",
      [met, (F["rel.intro"], (relation, rel["job"])), (F["rel.named"], (relation, rel["name"]))],
      f=friend.name, o=owner.name)
    return out


def select(rng: random.Random, candidates: list[QA]) -> list[QA]:
    """Per kind, one question per topic first (random order), then more until the quota is met."""
    chosen: list[QA] = []
    for kind, count in QUOTA.items():
        pool = [c for c in candidates if c.kind == kind]
        rng.shuffle(pool)
        seen: set[str] = set()
        pool.sort(key=lambda c: c.topic != "never")  # every conversation gets one never-said question
        firsts = []
        for c in pool:
            if c.topic not in seen:
                seen.add(c.topic)
                firsts.append(c)
        rest = [c for c in pool if c not in firsts]
        chosen += (firsts + rest)[:count]
    rng.shuffle(chosen)
    return chosen
