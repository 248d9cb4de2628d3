"""Deterministic generator of retrieval-evaluation data in the LoCoMo JSON format.

    python -m evalsets.generate --seed 7 --conversations 10 --out data.json

Each sample is a two-person chat over several sessions, mostly small talk around personal facts
(some later updated, their entities reused in passing so a name match is rarely the evidence), with
questions in LoCoMo's five categories citing the turns that answer them (mix: select.py). One
random.Random(seed) drives everything, no clock, hash() or set iteration: a seed gives the same bytes.
"""

from __future__ import annotations

import random

from signet_eval.locomo import parse_sample

from . import adversarial, dialogue
from .profile import make_facts, make_people
from .questions import Builder
from .select import build_qa

GENERATOR_VERSION = 1


def conversation(rng: random.Random, sample_id: str) -> dict:
    people = make_people(rng)
    facts = make_facts(people)
    conv = dialogue.build(rng, people, facts, rng.randint(8, 15))
    said = {t["dia_id"]: t["text"] for k, v in conv.items() if k.startswith("session_") and isinstance(v, list) for t in v}
    for f in facts:  # every fact was said, in the turn its questions will cite
        assert f.dia_id and said[f.dia_id] == f.text, f.fid
    b = Builder(rng, people, facts)
    b.single_and_open()
    b.temporal()
    b.multi_hop()
    adversarial.wrong_speaker(b)
    adversarial.never_said(b)
    return {"sample_id": sample_id, "conversation": conv, "qa": build_qa(rng, b.out, rng.randint(45, 75))}


def generate(seed: int, conversations: int) -> list[dict]:
    rng = random.Random(seed)
    return [conversation(rng, f"gen-{seed}-{i + 1}") for i in range(conversations)]


def remember_bodies(count: int, seed: int) -> list[dict]:
    """Remember requests for the first `count` turns of generated conversations, one private agent
    per conversation (the pipeline benchmark and the crash tests load a store with them)."""
    conversations = 2
    while True:
        samples = [parse_sample(raw, i) for i, raw in enumerate(generate(seed, conversations))]
        bodies = [t.remember_body(f"conv-{s.sample_id}") for s in samples for t in s.turns]
        if len(bodies) >= count:
            return bodies[:count]
        conversations *= 2
