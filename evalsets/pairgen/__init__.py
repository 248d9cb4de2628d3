"""pairgen: LoCoMo-format conversations whose questions need what EACH of two people said, in different sessions.

One random.Random(seed) drives everything, so a seed always gives the same bytes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from .check import check_sample
from .dates import format_session, session_times
from .life import allocate, build_plan
from .people import pick_pair
from .questions import pair_questions, select
from .solo import adversarial_questions, open_questions, single_questions, solo_questions, temporal_questions
from .talk import render

MIN_SESSIONS, MAX_SESSIONS = 10, 16


def generate_sample(rng: random.Random, index: int, used_names: set[str]) -> dict:
    a, b = pick_pair(rng, used_names)
    count = rng.randint(MIN_SESSIONS, MAX_SESSIONS)
    plan = build_plan(rng, a, b)
    allocate(rng, plan, count)
    times = session_times(rng, count)
    sessions = render(rng, plan, times)
    conv: dict[str, object] = {"speaker_a": a.name, "speaker_b": b.name}
    for n, (when, turns) in enumerate(zip(times, sessions), start=1):
        conv[f"session_{n}_date_time"] = format_session(when)
        conv[f"session_{n}"] = turns
    text = " ".join(t["text"] for s in sessions for t in s).lower()
    candidates = (pair_questions(rng, plan, times) + solo_questions(rng, plan) + temporal_questions(rng, plan, times)
                  + open_questions(rng, plan) + single_questions(rng, plan)
                  + adversarial_questions(rng, plan, times, text))
    qas = select(rng, candidates)
    sample = {"sample_id": f"pair-{index}", "conversation": conv, "qa": [q.to_json() for q in qas]}
    check_sample(sample, qas)  # fails loudly rather than write an unanswerable question
    return sample


def generate(seed: int, conversations: int = 10) -> list[dict]:
    rng = random.Random(seed)
    used: set[str] = set()
    return [generate_sample(rng, i, used) for i in range(conversations)]


def dumps(samples: list[dict]) -> str:
    return json.dumps(samples, ensure_ascii=False, indent=1) + "\n"


def write(path: str | Path, seed: int, conversations: int = 10) -> list[dict]:
    samples = generate(seed, conversations)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dumps(samples), encoding="utf-8")
    return samples
