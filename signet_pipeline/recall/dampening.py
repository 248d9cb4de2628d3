"""Post-fusion dampening (spec memory-pipeline "Post-Fusion Dampening"), after fusion and before
the final sort; each stage toggleable in `memory.pipelineV2.dampening`.

1. gravity: a result found by meaning alone (cosine > 0.3) that shares no query word x 0.5;
2. hub: a result whose linked entities are all at or above the P90 of mentions x 0.7 — unless
   the query names one of them (a focal entity): a memory about what was asked is not generic;
3. resolution: constraints and decisions x 1.2, other date-anchored memories x 1.1 (half the
   boost); content under 50 characters gets no boost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import apsw

from signet_pipeline.config_sections import DampeningConfig
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store.db import Row

GRAVITY_MIN_COSINE = 0.3
RESOLUTION_MIN_CHARS = 50
_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|"
    r"sep(tember)?|oct(ober)?|nov(ember)?|dec(ember)?)\b", re.IGNORECASE)


@dataclass
class Candidate:
    score: float
    source: str
    cosine: float | None
    keyword: float  # query-word coverage


def dampen(conn: apsw.Connection, agent_id: str, candidates: dict[str, Candidate], rows: dict[str, Row],
           cfg: DampeningConfig, focal: set[str] = frozenset()) -> dict[str, int]:
    """Adjust scores in place; returns how many results each stage touched."""
    touched = {"gravity": 0, "hub": 0, "resolution": 0}
    if cfg.gravity_enabled:
        for c in candidates.values():
            if c.keyword == 0.0 and c.cosine is not None and c.cosine > GRAVITY_MIN_COSINE:
                c.score *= cfg.gravity_penalty
                touched["gravity"] += 1
    if cfg.hub_enabled and candidates:
        threshold = graph_store.mentions_percentile(conn, agent_id, cfg.hub_percentile)
        if threshold:
            for memory_id, links in graph_store.linked_entities(conn, list(candidates)).items():
                if links and all(mentions >= threshold and entity not in focal for entity, mentions in links):
                    candidates[memory_id].score *= cfg.hub_penalty
                    touched["hub"] += 1
    if cfg.resolution_enabled:
        for memory_id, c in candidates.items():
            row = rows.get(memory_id)
            if row is None or len(row["content"]) < RESOLUTION_MIN_CHARS:
                continue
            if row["type"] in ("constraint", "decision"):
                c.score *= cfg.resolution_boost
            elif _DATE.search(row["content"]):
                c.score *= 1 + (cfg.resolution_boost - 1) * 0.5
            else:
                continue
            touched["resolution"] += 1
    return touched
