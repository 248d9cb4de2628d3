"""Facts: one thing a person reveals in one turn. Each is placed in a session (after the facts it
builds on, usually weeks later) and its relative time phrase resolved against that session's date."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime

from .timeline import When, relative_when


@dataclass
class Fact:
    key: str                    # unique in the conversation: "<speaker>.<topic>"
    owner: str                  # the speaker who says it
    template: str               # the turn's content; "{when}" marks a relative time phrase
    lo: float = 0.0             # where in the conversation it belongs, as fractions of the sessions
    hi: float = 1.0
    after: tuple[str, ...] = ()  # facts that must come in an earlier session
    apart: tuple[str, ...] = ()  # facts that must not share its session
    gap: int = 2                # preferred sessions after each `after` fact
    ref: str = "that"           # how the other speaker refers to it
    mood: str = "neu"           # pos / neg / neu: how the other speaker reacts
    event: str = ""             # "When did X ...?" wording, for facts with {when}
    session: int = 0
    text: str = ""
    when: When | None = None
    dia_id: str = ""


def schedule(facts: list[Fact], sessions: int, rng: random.Random) -> None:
    """Give every fact a session: within its window, after its prerequisites, apart from its
    `apart` facts, preferring lightly loaded sessions. Facts come in dependency order."""
    placed: dict[str, Fact] = {}
    load: dict[tuple[str, int], int] = {}
    last = sessions
    depth = {f.key: 0 for f in facts}  # how many later sessions its chain of dependants needs
    for f in reversed(facts):
        for k in f.after:
            depth[k] = max(depth[k], depth[f.key] + 1)
    for f in facts:
        lo = 1 + round(f.lo * (last - 1))
        hi = 1 + round(f.hi * (last - 1))
        floor = 1
        for gap in (f.gap, 1):
            floor = max([1] + [placed[k].session + gap for k in f.after])
            if floor <= last:
                break
        if floor > last:
            raise ValueError(f"cannot place {f.key}: prerequisites end too late")
        lo = max(lo, floor)
        hi = min(max(hi, lo), last - depth[f.key])
        hi = max(hi, lo)
        banned = {placed[k].session for k in f.apart if k in placed}
        candidates = [s for s in range(lo, hi + 1) if s not in banned]
        if not candidates:  # widen the window, still leaving room for the dependants
            candidates = [s for s in range(floor, max(floor, last - depth[f.key]) + 1) if s not in banned] or [lo]
        lightest = min(load.get((f.owner, s), 0) for s in candidates)
        room = [s for s in candidates if load.get((f.owner, s), 0) == lightest]
        f.session = rng.choice(room)
        load[(f.owner, f.session)] = load.get((f.owner, f.session), 0) + 1
        placed[f.key] = f


def render(facts: list[Fact], times: list[datetime], rng: random.Random) -> None:
    """Fill in each fact's text, resolving {when} against its session's date; the event always
    falls after the previous session."""
    for f in facts:
        if "{when}" in f.template:
            today = times[f.session - 1].date()
            max_back = 14 if f.session == 1 else (today - times[f.session - 2].date()).days - 1
            f.when = relative_when(rng, today, max_back)
            f.text = f.template.replace("{when}", f.when.phrase)
        else:
            f.text = f.template
        f.text = f.text[0].upper() + f.text[1:]
