"""Picks the question mix for one conversation and writes LoCoMo `qa` items.

Quotas: 25% single-hop (4), 20% multi-hop (1), 20% temporal (2), 20% open-domain (3), 15%
adversarial (5) of a per-conversation total drawn from 45-75. Within a category, candidates are
taken round-robin over the facts they are about, so no fact dominates. For single-hop and
open-domain candidates, a paraphrase wording with zero content-word overlap with the evidence
turns is used 80% of the time when one exists.
"""

from __future__ import annotations

import random

from .questions import NOT_MENTIONED, Cand
from .textutil import cap, overlap

SHARES = {4: 0.25, 1: 0.20, 2: 0.20, 3: 0.20}


def quotas(total: int) -> dict[int, int]:
    q = {c: round(total * s) for c, s in SHARES.items()}
    q[5] = total - sum(q.values())
    return q


def _pick(rng: random.Random, pool: list[Cand], n: int) -> list[Cand]:
    keys: dict[str, list[Cand]] = {}
    for c in pool:
        keys.setdefault(c.key, []).append(c)
    order = list(keys)
    rng.shuffle(order)
    for k in order:
        rng.shuffle(keys[k])
    out: list[Cand] = []
    while len(out) < n and any(keys[k] for k in order):
        for k in order:
            if keys[k] and len(out) < n:
                out.append(keys[k].pop())
    return out


def _variant(rng: random.Random, c: Cand) -> tuple[str, str]:
    texts = [f.text for f in c.ev]
    if c.cat in (3, 4) and c.para:
        zero = [v for v in c.para if not overlap(v[0], texts)]
        if zero and rng.random() < 0.8:
            return rng.choice(zero)
        if not c.direct:
            return min(c.para, key=lambda v: len(overlap(v[0], texts)))
    return rng.choice(c.direct + c.para)


def _evidence(rng: random.Random, c: Cand) -> list[str]:
    ids = sorted({f.dia_id for f in c.ev}, key=lambda i: tuple(int(x) for x in i[1:].split(":")))
    if len(ids) > 1 and rng.random() < 0.3:
        return [rng.choice(("; ", " ")).join(ids)]
    return ids


def build_qa(rng: random.Random, cands: list[Cand], total: int) -> list[dict]:
    out: list[dict] = []
    seen: set[str] = set()
    for cat, n in quotas(total).items():
        pool = [c for c in cands if c.cat == cat]
        for c in _pick(rng, pool, len(pool)):
            if sum(1 for x in out if x["category"] == cat) >= n:
                break
            q, a = _variant(rng, c)
            if q in seen:
                continue
            seen.add(q)
            item = {"question": q, "answer": cap(a) if cat != 5 else NOT_MENTIONED,
                    "evidence": _evidence(rng, c), "category": cat}
            if cat == 5:
                item["adversarial_answer"] = cap(a)
            out.append(item)
    rng.shuffle(out)
    return out
