"""Recall's graph path: the walk from the focal entities (pinned, project, named by the query)
through their constraints, top aspects and one-hop dependencies, whose memories join recall as
candidates. It runs under a deadline and a cap on memories, so named entities are walked rarest
first and hubs (past `hub_mentions`) not at all: a name in thousands of memories narrows nothing.
Design: docs/internals.md; figures: docs/decisions.md.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import apsw

from signet_pipeline.config_sections import TraversalConfig
from signet_pipeline.store import graph as graph_store
from signet_pipeline.text.entities import MIN_ENTITY_NAME, canonical_name, is_proper, is_short_name
from signet_pipeline.timeutil import now_iso

MAX_PHRASE_WORDS = 3
_WORD = re.compile(r"[\w.+#-]+")
_last_run: str | None = None  # when this process last walked the graph (GET /api/pipeline/status)


@dataclass
class Traversal:
    memory_ids: set[str] = field(default_factory=set)
    constraints: set[str] = field(default_factory=set)
    focal: list[str] = field(default_factory=list)
    walked: list[str] = field(default_factory=list)  # entities whose memories were collected, in order
    hubs: list[str] = field(default_factory=list)  # entities left out for their mentions (hub_mentions)
    timed_out: bool = False

    @property
    def entities(self) -> int:
        return len(self.walked)


def query_phrases(text: str) -> list[str]:
    """Canonical words and 2-3 word phrases of a query: candidate entity names. A word shorter than an
    entity name's minimum is one when written as a name ("What did Jon ...": speakers are entities at
    any length, text/entities.py)."""
    raw = [w.strip(".-") for w in _WORD.findall(text)]
    words = [w.lower() for w in raw if w]
    phrases = {canonical_name(" ".join(words[i:i + n]))
               for n in range(1, MAX_PHRASE_WORDS + 1) for i in range(len(words) - n + 1)}
    short = {w.lower() for w in raw if is_short_name(w) and is_proper(w, False)}
    return sorted({p for p in phrases if len(p) >= MIN_ENTITY_NAME} | short)


def focal_entities(conn: apsw.Connection, agent_id: str, query: str, project: str | None,
                   cfg: TraversalConfig) -> tuple[list[str], list[str]]:
    """(entities the caller chose: pinned, then the project's; entities the query names, rarest first)."""
    chosen = graph_store.pinned_entities(conn, agent_id)
    if project:
        parts = [canonical_name(p) for p in re.split(r"[\\/]", project) if p.strip()]
        chosen += graph_store.entities_named(conn, agent_id, parts, 5, entity_type="project")
    chosen = list(dict.fromkeys(chosen))
    phrases = query_phrases(query)
    # entities_named keeps the most mentioned max_focal_entities, most mentioned first.
    named = list(reversed(graph_store.entities_named(conn, agent_id, phrases, cfg.max_focal_entities))) \
        if phrases else []
    return chosen, [e for e in named if e not in chosen]


def last_run() -> str | None:
    return _last_run


def traverse(conn: apsw.Connection, agent_id: str, query: str, project: str | None,
             cfg: TraversalConfig, *, hub_mentions: int = 0) -> Traversal:
    global _last_run
    _last_run = now_iso()
    chosen, named = focal_entities(conn, agent_id, query, project, cfg)
    hubs = [e for e in named if _is_hub(conn, e, hub_mentions)]
    result = walk(conn, chosen + [e for e in named if e not in hubs], cfg, hub_mentions=hub_mentions)
    result.hubs = hubs + result.hubs
    return result


def _is_hub(conn: apsw.Connection, entity_id: str, hub_mentions: int) -> bool:
    if hub_mentions <= 0:
        return False
    row = graph_store.entity_row(conn, entity_id)
    return row is not None and row["mentions"] > hub_mentions


def walk(conn: apsw.Connection, focal: list[str], cfg: TraversalConfig, *, hub_mentions: int = 0) -> Traversal:
    """The walk from these focal entities (of one agent: so are their dependency neighbours), in
    this order; dependency neighbours that are hubs (`hub_mentions`) are left out."""
    deadline = time.perf_counter() + cfg.timeout_ms / 1000
    result = Traversal(focal=focal)

    def collect(entity_id: str) -> bool:
        """Add one entity's memories; False once the walk holds max_memories."""
        room = cfg.max_memories - len(result.memory_ids)
        constraints = graph_store.constraint_memories(conn, entity_id, room)
        result.constraints.update(constraints)
        result.memory_ids.update(constraints)
        attributes = graph_store.aspect_memories(conn, entity_id, aspects=cfg.max_aspects_per_entity,
                                                 per_aspect=cfg.max_attributes_per_aspect)
        result.memory_ids.update(attributes[:max(0, cfg.max_memories - len(result.memory_ids))])
        result.walked.append(entity_id)
        return len(result.memory_ids) < cfg.max_memories

    for entity_id in result.focal:
        if time.perf_counter() > deadline:
            result.timed_out = True
            return result
        if not collect(entity_id):
            return result
    if result.focal and cfg.max_dependency_hops:
        visited = set(result.focal)
        for neighbour, _ in graph_store.dependency_neighbours(conn, result.focal,
                                                              min_strength=cfg.min_dependency_strength,
                                                              limit=cfg.max_dependency_hops):
            if neighbour in visited:
                continue
            if time.perf_counter() > deadline:
                result.timed_out = True
                break
            visited.add(neighbour)
            if _is_hub(conn, neighbour, hub_mentions):
                result.hubs.append(neighbour)
                continue
            if not collect(neighbour):
                break
    return result
