"""Composes small-talk exchanges, session openers and closers from `chatter_pools`."""

from __future__ import annotations

import random

from . import chatter_pools as P

TOPIC_LEADS = ["Oh, random.", "Totally unrelated.", "Also!", "Okay, different topic.", "Side note.", "Oh!", "Hmm.",
               "Right, so.", "Anyway."]
CONTINUATIONS = ["Right?!", "Exactly.", "Ha, fair.", "I'll let you know how it goes.", "That's what I keep saying.",
                 "True, true.", "We'll see, I guess.", "Pretty much, yeah.", "You get it.",
                 "Glad it's not just me.", "Ha, I knew you'd say that.", "I'll take it.", "Story of my life."]
ACKS = ["Ha!", "Love it.", "Fair enough.", "Same, honestly.", "Yep.", "Ha, okay.", "Good call.", "Mood.",
        "Totally.", "Haha, yes.", "Right.", "Oh, for sure.", "True."]
TAILS = ["Classic me.", "Not that I'm complaining.", "Anyway.", "Such is life.", "Which, fine.", "Typical.",
         "I'm choosing to find it funny.", "Send help.", "Small joys, right?", "Honestly, what a week.",
         "How's your week been?", "You'd have laughed.", "No idea why I'm telling you this.", "Oh well."]


def pick(rng: random.Random, options: list[str], seen: set[str]) -> str:
    """A random option not yet said in this conversation (any option once all were used)."""
    fresh = [o for o in options if o not in seen]
    choice = rng.choice(fresh or options)
    seen.add(choice)
    return choice


def fill(rng: random.Random, template: str, **extra: str) -> str:
    values = dict(extra)
    for slot, pool in P.SLOTS.items():
        if "{" + slot + "}" in template:
            values[slot] = rng.choice(pool)
    return template.format(**values)


def turn(speaker: str, text: str, caption: str | None = None) -> dict:
    t = {"speaker": speaker, "text": text}
    if caption:
        t["blip_caption"] = caption
    return t


def opener(rng: random.Random, first: str, second: str) -> list[dict]:
    return [turn(first, rng.choice(P.OPENERS).format(other=second)),
            turn(second, rng.choice(P.GREET_REPLIES).format(other=first))]


def closer(rng: random.Random, first: str, second: str) -> list[dict]:
    line = rng.choice(P.CLOSERS).format(reason=rng.choice(P.REASONS))
    return [turn(first, line), turn(second, rng.choice(P.CLOSER_REPLIES).format(other=first))]


def exchange(rng: random.Random, starter: str, other: str, used_topics: list[str], seen: set[str]) -> list[dict]:
    """2-4 turns of small talk on a topic not yet used in this session (or a shared photo)."""
    if rng.random() < 0.08:
        sight = pick(rng, P.SLOTS["sight"], seen)
        return [turn(starter, rng.choice(P.PHOTO_LINES).format(sight=sight), P.CAPTIONS[sight]),
                turn(other, rng.choice(P.PHOTO_REPLIES))]
    names = [t for t in P.TOPICS if t not in used_topics] or list(P.TOPICS)
    name = rng.choice(names)
    used_topics.append(name)
    topic = P.TOPICS[name]
    first = pick(rng, [fill(rng, rng.choice(topic["start"])) for _ in range(6)], seen)
    if rng.random() < 0.25:
        first = f"{rng.choice(TOPIC_LEADS)} {first}"
    if rng.random() < 0.3:
        first = f"{first} {rng.choice(TAILS)}"
    reply = fill(rng, rng.choice(topic["reply"]))
    turns = [turn(starter, first), turn(other, reply)]
    if rng.random() < 0.5:
        more = topic.get("more", []) + CONTINUATIONS
        turns.append(turn(starter, rng.choice(more)))
        if rng.random() < 0.35:
            turns.append(turn(other, rng.choice(ACKS)))
    return turns
