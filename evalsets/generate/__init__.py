"""Deterministic generator of retrieval-evaluation data in the LoCoMo JSON format.

    python -m evalsets.generate --seed 7 --conversations 10 --out data.json

Each sample is a two-person chat over 8-15 sessions of 12-25 turns, days to weeks apart
(`session_<n>_date_time` like "1:56 pm on 8 May, 2023"), plus 45-75 questions.

What the conversations contain:
- Mostly distractors: greetings, small talk on ~15 topics (weather, shows, cooking, sleep, ...),
  reactions and follow-ups, shared photos with a `blip_caption`; built from slot-filled pools
  so the wording varies and shares everyday words with the questions.
- Personal facts, each stated once in its own turn: home city, job, pet (species, breed,
  name), one or two named relatives (where they live in one session, their new job in a later
  one), hobby, health event, purchases, favourite dish, favourite author, a one-off event and
  a planned trip. Timed facts say "yesterday", "last weekend", "next month", ... relative to
  the session date.
- Updates: some speakers later move city, change job or rename the pet (at least one update per
  conversation); later mentions use the new value.
- Entity reuse: the pet, city, workplace, relatives, hobby and purchases come up again in
  unrelated turns ("Biscuit knocked a glass onto my laptop"), so a name match is rarely the
  evidence.

Questions (`qa`), per conversation, by LoCoMo category:
- 4 single-hop (25%): one fact; for updated facts the current value with the update turn as
  evidence. When a paraphrase with no content word in common with the evidence turn exists
  (stopwords removed, crude stemming; see textutil), it is used 80% of the time ("What kind of
  animal did Maria bring home?" for "I adopted a beagle from the shelter").
- 1 multi-hop (20%): relative's job via the relation stated elsewhere, "the speaker who works as
  a nurse"-style joins, old-and-new value pairs, trips to a relative's city, and
  aggregations (all purchases, all activities); evidence lists every turn needed.
- 2 temporal (20%): "When did X ...?" answered from the session date ("The weekend before 8 May
  2023"), and "which happened first" across two facts whose date windows do not overlap.
- 3 open-domain (20%): a small inference or world knowledge on top of a fact (country of a
  city, language for a trip, field of a job, whether the pet needs walks); same paraphrase rule.
- 5 adversarial (15%): a fact asked about the wrong speaker, or an attribute never stated
  (the other speaker's species, a relative who never came up); `answer` is "Not mentioned in
  the conversation", `adversarial_answer` the trap, `evidence` the misleading turn.
About 30% of multi-evidence questions write their ids in one string ("D2:4; D5:1" or "D2:4 D5:1").

Everything is drawn from one `random.Random(seed)`; no clock, no `hash()`, no set iteration, so
the same seed gives byte-identical output.
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
