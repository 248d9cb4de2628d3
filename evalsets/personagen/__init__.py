"""personagen: LoCoMo-format evaluation conversations built from simulated private lives.

Each conversation is between two people with a life model of their own (family, friend, a job that
changes, a move, a pet, a health episode, trips, a hobby, tastes and traits). Facts come out over
sessions weeks apart, among small talk and reactions, and the questions join them: multi-hop
(turns from different sessions), temporal (relative phrases resolved), open-domain (inferences
from self-statements), single-hop and adversarial (never said). One random.Random(seed) drives
everything, so a seed always gives the same bytes.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from .chatter import Chatter
from .dialogue import session_turns
from .facts import render, schedule
from .names import NamePicker
from .persona import make_pair
from .quality import copy_answerable, single_turn_coverage
from .questions import (
    ADVERSARIAL,
    MULTI_HOP,
    OPEN_DOMAIN,
    SINGLE_HOP,
    TEMPORAL,
    Candidate,
    person_candidates,
    shared_candidates,
)
from .story import storyline
from .timeline import fmt_session, session_times

__all__ = ["generate", "write", "summary"]

CATEGORY_NAMES = {MULTI_HOP: "multi-hop", TEMPORAL: "temporal", OPEN_DOMAIN: "open-domain",
                  SINGLE_HOP: "single-hop", ADVERSARIAL: "adversarial"}
# share of each category in a conversation's questions; multi-hop sets the total
SHARES = {MULTI_HOP: 0.41, OPEN_DOMAIN: 0.19, TEMPORAL: 0.15, SINGLE_HOP: 0.15, ADVERSARIAL: 0.10}
MAX_MULTI_HOP = 42


def _dia_key(dia_id: str) -> tuple[int, int]:
    session, turn = dia_id[1:].split(":")
    return int(session), int(turn)


def _pick_questions(rng: random.Random, candidates: list[Candidate], facts: dict, texts: dict[str, str],
                    names: set[str]) -> list[dict]:
    by_cat: dict[int, list[dict]] = {c: [] for c in CATEGORY_NAMES}
    seen: set[str] = set()
    for c in candidates:
        evidence = sorted({facts[key].dia_id for key in c.keys}, key=_dia_key)
        sessions = {_dia_key(d)[0] for d in evidence}
        if c.category == MULTI_HOP and len(sessions) < len(c.keys):
            continue  # two of its facts landed in one session: not a cross-session question
        said = [texts[d] for d in evidence]
        if c.category in (MULTI_HOP, OPEN_DOMAIN) and copy_answerable(c.question, c.answer, said, names):
            continue
        if c.category == OPEN_DOMAIN and single_turn_coverage(c.question, said, names) > 0.4:
            continue  # the trait must be implied, not echoed
        if c.question in seen:
            continue
        seen.add(c.question)
        by_cat[c.category].append({"question": c.question, "answer": c.answer, "evidence": evidence,
                                   "category": c.category})
    multi = by_cat[MULTI_HOP]
    rng.shuffle(multi)
    multi = multi[:MAX_MULTI_HOP]
    total = int(len(multi) / SHARES[MULTI_HOP])  # rounded down: multi-hop never falls below its share
    chosen = list(multi)
    for cat in (OPEN_DOMAIN, TEMPORAL, SINGLE_HOP, ADVERSARIAL):
        want = round(total * SHARES[cat])
        pool = by_cat[cat]
        chosen += rng.sample(pool, min(want, len(pool)))
    rng.shuffle(chosen)
    return chosen


def _conversation(rng: random.Random, sample_id: str, seen: set[str]) -> dict:
    names = NamePicker(rng)
    a, b = make_pair(rng, names)
    count = rng.randint(12, 16)
    times = session_times(rng, count)
    taken: dict[str, set[int]] = {}
    facts = storyline(a, "a", rng, taken) + storyline(b, "b", rng, taken)
    schedule(facts, count, rng)
    render(facts, times, rng)
    chat = Chatter(rng, seen)
    conversation: dict = {"speaker_a": a.name, "speaker_b": b.name}
    texts: dict[str, str] = {}
    for n in range(1, count + 1):
        starter, other = (a.name, b.name) if rng.random() < 0.5 else (b.name, a.name)
        here = {name: [f for f in facts if f.owner == name and f.session == n] for name in (a.name, b.name)}
        turns = session_turns(rng, chat, n, times[n - 1], times[n - 2] if n > 1 else None, starter, other, here)
        conversation[f"session_{n}_date_time"] = fmt_session(times[n - 1])
        conversation[f"session_{n}"] = turns
        texts.update({t["dia_id"]: t["text"] for t in turns})
    by_key = {f.key: f for f in facts}
    candidates = (person_candidates(rng, a, "a", b, "b", by_key) + person_candidates(rng, b, "b", a, "a", by_key)
                  + shared_candidates(a, b))
    qa = _pick_questions(rng, candidates, by_key, texts, {a.name, b.name})
    return {"sample_id": sample_id, "conversation": conversation, "qa": qa}


def generate(seed: int = 29, conversations: int = 10) -> list[dict]:
    """`conversations` LoCoMo samples, all drawn from one random.Random(seed)."""
    rng = random.Random(seed)
    seen: set[str] = set()  # small talk already used, so later conversations vary it
    return [_conversation(rng, f"personagen-{seed}-{i + 1:02d}", seen) for i in range(conversations)]


def write(path: str | Path, samples: list[dict]) -> None:
    Path(path).write_text(json.dumps(samples, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def summary(samples: list[dict]) -> str:
    sessions = turns = word_total = 0
    cats = {c: 0 for c in CATEGORY_NAMES}
    for s in samples:
        conv = s["conversation"]
        for key, value in conv.items():
            if key.startswith("session_") and isinstance(value, list):
                sessions += 1
                turns += len(value)
                word_total += sum(len(t["text"].split()) for t in value)
        for q in s["qa"]:
            cats[q["category"]] += 1
    questions = sum(cats.values()) or 1
    shares = ", ".join(f"{CATEGORY_NAMES[c]} {n} ({100 * n / questions:.0f}%)" for c, n in cats.items())
    return (f"personagen: {len(samples)} conversations, {sessions} sessions, {turns} turns "
            f"(avg {word_total / max(turns, 1):.1f} words), {sum(cats.values())} questions: {shares}")
