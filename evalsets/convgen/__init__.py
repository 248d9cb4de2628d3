"""A second, independently designed generator of LoCoMo-format retrieval data: multi-session
chats between two people, with questions whose gold evidence names the turns that answer
them (multi-hop, temporal, open-domain, single-hop, adversarial). Everything is drawn from
one `random.Random(seed)`, so a seed always yields the same bytes."""

from __future__ import annotations

import json
import random
from pathlib import Path

from evalsets.convgen.assemble import conversation

CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}


def generate(seed: int = 13, conversations: int = 10) -> list[dict]:
    rng = random.Random(seed)
    return [conversation(rng, f"convgen-{seed}-{i + 1:02d}") for i in range(conversations)]


def dumps(samples: list[dict]) -> str:
    return json.dumps(samples, ensure_ascii=False, indent=1) + "\n"


def write(path: str | Path, samples: list[dict]) -> None:
    Path(path).write_text(dumps(samples), encoding="utf-8")


def summary(samples: list[dict]) -> str:
    """One line: conversations, sessions, turns, questions per category."""
    sessions = turns = 0
    for sample in samples:
        conv = sample["conversation"]
        keys = [k for k in conv if k.startswith("session_") and not k.endswith("_date_time")]
        sessions += len(keys)
        turns += sum(len(conv[k]) for k in keys)
    counts = {c: sum(1 for s in samples for q in s["qa"] if q["category"] == c) for c in CATEGORY_NAMES}
    per = ", ".join(f"{name} {counts[c]}" for c, name in CATEGORY_NAMES.items())
    return (f"{len(samples)} conversations, {sessions} sessions, {turns} turns, "
            f"{sum(counts.values())} questions ({per})")
