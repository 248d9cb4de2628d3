"""One conversation from start to end: two people (and maybe a third they talk about), a
calendar of sessions, a set of stories placed across it, small talk around the story beats,
each line dressed in its speaker's style and numbered D<session>:<turn>; then the questions,
a share of each category drawn evenly over the stories, with evidence resolved to dia_ids."""

from __future__ import annotations

import random
from collections.abc import Callable

from evalsets.convgen import (
    chatter,
    dates,
    pools,
    stories_leisure,
    stories_life,
    stories_work,
    style,
)
from evalsets.convgen.model import QA, Ctx, Line, Person, Story, Third

StoryFn = Callable[[Ctx, str], "Story | None"]
SPEAKER_STORIES: dict[str, StoryFn] = {
    "pet": stories_life.pet, "move": stories_life.move, "sibling": stories_life.sibling,
    "relationship": stories_life.relationship, "health": stories_life.health, "diet": stories_life.diet,
    "job": stories_work.job_change, "occupation": stories_work.occupation, "project": stories_work.project,
    "event": stories_work.event, "purchase": stories_work.purchase, "volunteer": stories_work.volunteer,
    "trip": stories_leisure.trips, "tries": stories_leisure.tries, "book": stories_leisure.book,
    "reno": stories_leisure.reno,
}
THIRD_STORIES: dict[str, StoryFn] = {"third_hobby": stories_leisure.third_hobby, "third_party": stories_leisure.third_party}
SHARES = {1: 0.20, 2: 0.20, 3: 0.15, 4: 0.30, 5: 0.15}  # multi-hop, temporal, open-domain, single-hop, adversarial


def _people(rng: random.Random) -> tuple[Person, Person, Third | None]:
    (na, ga), (nb, gb), (nt, gt) = rng.sample(pools.NAMES, 3)
    ca, cb = rng.sample(pools.CITIES, 2)
    ja, jb = rng.sample(pools.JOBS, 2)
    a = Person(na, ga, ca, ja, rng.choice(style.STYLES))
    b = Person(nb, gb, cb, jb, rng.choice(style.STYLES))
    third = Third(nt, gt, rng.choice(pools.THIRD_RELATIONS), rng.choice(["A", "B"])) if rng.random() < 0.7 else None
    return a, b, third


def _plan(rng: random.Random, third: Third | None) -> list[tuple[str, str]]:
    """(story kind, owner) pairs: 9-12 speaker stories split between A and B, plus the third's."""
    kinds = rng.sample(sorted(SPEAKER_STORIES), rng.randint(9, 12))
    first = rng.choice(["A", "B"])
    plan = [(kind, first if i % 2 == 0 else Ctx.other(first)) for i, kind in enumerate(kinds)]
    owner = dict(plan)
    if "job" in owner and "occupation" in owner and owner["job"] == owner["occupation"]:
        plan = [(k, Ctx.other(o) if k == "occupation" else o) for k, o in plan]
    if third:
        plan += [(kind, third.holder) for kind in sorted(THIRD_STORIES)]
    return plan


def _layout(ctx: Ctx, stories: list[Story]) -> tuple[dict, dict[str, tuple[int, int]]]:
    """The conversation dict, and story tag -> (session, turn) of the line carrying it."""
    rng = ctx.rng
    a, b = ctx.p("A"), ctx.p("B")
    conv: dict = {"speaker_a": a.name, "speaker_b": b.name}
    where: dict[str, tuple[int, int]] = {}
    for s in range(ctx.n):
        blocks: list[list[tuple[int, Line]]] = [[(i, line) for line in beat.lines]
                                                for i, story in enumerate(stories) for beat in story.beats
                                                if beat.session == s]
        used, target = sum(len(block) for block in blocks) + 4, rng.randint(15, 24)
        while used < target:
            small = chatter.exchange(ctx, s, stories)
            blocks.append([(-1, line) for line in small])
            used += len(small)
        rng.shuffle(blocks)
        lines = ([(-1, line) for line in chatter.opener(ctx, s)] + [item for block in blocks for item in block]
                 + [(-1, line) for line in chatter.closer(ctx)])
        turns = []
        for t, (i, line) in enumerate(lines, 1):
            person = ctx.p(line.who)
            reply = t > 1 and "?" in lines[t - 2][1].text[-3:]
            turn = {"speaker": person.name, "dia_id": f"D{s + 1}:{t}",
                    "text": style.dress(rng, line.text, person.style, line.long, reply)}
            if line.caption:
                turn["blip_caption"] = line.caption
            turns.append(turn)
            if line.tag:
                where[f"{i}:{line.tag}"] = (s + 1, t)
        conv[f"session_{s + 1}_date_time"] = dates.session_text(ctx.times[s])
        conv[f"session_{s + 1}"] = turns
    return conv, where


def _spread(rng: random.Random, items: list[tuple[int, QA, list[tuple[int, int]]]], k: int) -> list:
    """k items, taking from every story once before any story twice."""
    rng.shuffle(items)
    seen: dict[int, int] = {}
    ranked = []
    for item in items:
        seen[item[0]] = seen.get(item[0], 0) + 1
        ranked.append((seen[item[0]], item))
    ranked.sort(key=lambda pair: pair[0])  # stable: the shuffled order within each rank
    return [item for _, item in ranked[:k]]


def _questions(ctx: Ctx, stories: list[Story], where: dict[str, tuple[int, int]]) -> list[dict]:
    rng = ctx.rng
    by_category: dict[int, list] = {c: [] for c in SHARES}
    asked: set[str] = set()
    for i, story in enumerate(stories):
        for qa in story.qas:
            spots = [where[f"{i}:{tag}"] for tag in qa.tags if f"{i}:{tag}" in where]
            if len(spots) != len(qa.tags) or qa.question in asked:
                continue
            asked.add(qa.question)
            by_category[qa.category].append((i, qa, sorted(dict.fromkeys(spots))))
    n = rng.randint(40, 56)
    chosen = [item for c, share in SHARES.items() for item in _spread(rng, by_category[c], round(n * share))]
    chosen.sort(key=lambda item: (item[2][-1], item[1].category, item[1].question))
    return [{"question": style.articles(qa.question), "answer": style.articles(qa.answer), "evidence": [f"D{s}:{t}" for s, t in spots],
             "category": qa.category} for _, qa, spots in chosen]


def conversation(rng: random.Random, sample_id: str) -> dict:
    """One LoCoMo sample."""
    a, b, third = _people(rng)
    ctx = Ctx(rng, a, b, third, dates.session_times(rng, rng.randint(10, 16)))
    stories = []
    for kind, owner in _plan(rng, third):
        story = {**SPEAKER_STORIES, **THIRD_STORIES}[kind](ctx, owner)
        if story is not None:
            ctx.commit(story)
            stories.append(story)
    conv, where = _layout(ctx, stories)
    return {"sample_id": sample_id, "conversation": conv, "qa": _questions(ctx, stories, where)}
