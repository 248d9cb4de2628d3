"""Inline entity linker (spec memory-pipeline "Inline Entity Linker"): runs inside the remember
write transaction, no network, regexes and a few SQLite writes.

For each sentence of a memory: proper-noun names (>= 4 characters; a speaker's at any length, and a
shorter name the agent has met as a speaker) become entities of the memory's agent (resolved by
canonical name or created; the speaker typed a person, a place, organisation or project by what the
sentence says of it, text/entity_types.py) with a mention row;
a capitalised word that only its place at a sentence's start makes a name ("Talk soon!") is linked
once the agent has met that name elsewhere; the sentence becomes
an attribute of each entity it names, under an aspect inferred from its verbs ("prefers" ->
preferences, "uses" -> stack...). Decision language (14 patterns) makes it a `constraint` with
importance 0.85, so traversal always surfaces it. A new attribute retires older siblings on the
same aspect that it contradicts (graph/supersession.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import apsw

from signet_pipeline.graph.supersession import supersede_siblings
from signet_pipeline.store import graph as graph_store
from signet_pipeline.text.aspects import aspect_of, is_decision
from signet_pipeline.text.content import normalize_content
from signet_pipeline.text.entities import canonical_name, is_speaker_name, names, opening_name, sentences, split_label
from signet_pipeline.text.entity_types import context_type

CONSTRAINT_IMPORTANCE = 0.85
ATTRIBUTE_IMPORTANCE = 0.5
LINKER_CONFIDENCE = 0.6


@dataclass
class LinkStats:
    entities: int = 0
    mentions: int = 0
    attributes: int = 0
    constraints: int = 0
    superseded: int = 0


def known_person(conn: apsw.Connection, agent_id: str) -> Callable[[str], bool]:
    """canonical name -> whether the agent has a person of that name. Only a yes is remembered: the
    memory being linked may itself make the person ("Bo: Bo here. I moved to Lyon. Bo loves it.")."""
    people: set[str] = set()

    def known(canonical: str) -> bool:
        if canonical not in people and graph_store.entities_named(conn, agent_id, [canonical], 1, entity_type="person"):
            people.add(canonical)
        return canonical in people

    return known


def link_memory(conn: apsw.Connection, *, memory_id: str, content: str, agent_id: str, now: str) -> LinkStats:
    """Write the graph structure of one memory (call inside the memory's write transaction)."""
    stats = LinkStats()
    entity_ids: dict[str, str] = {}
    speaker: str | None = None  # "Ana: ..." - Ana speaks in every sentence until another label
    known = known_person(conn, agent_id)
    for sentence in sentences(content):
        speaker = split_label(sentence)[0] or speaker
        # Who speaks in a conversation is a person (it stayed "extracted"/"unknown" on real conversations);
        # a role label ("User:", "Assistant:") is not a name.
        person = canonical_name(speaker) if speaker and is_speaker_name(speaker) else None
        found = names(sentence, speaker, known)
        if not found:
            continue
        aspect = aspect_of(sentence)
        constraint = is_decision(sentence)
        normalized = normalize_content(sentence).normalized
        opener = opening_name(sentence)
        for name in found:
            canonical = canonical_name(name)
            entity_id = entity_ids.get(canonical)
            if entity_id is None and name == opener and canonical != person \
                    and not graph_store.entities_named(conn, agent_id, [canonical], 1):
                continue  # a first word is a name once the agent has met it elsewhere ("Talk soon!" is not)
            if entity_id is None:
                kind = "person" if canonical == person else context_type(name, sentence) or "extracted"
                entity_id = graph_store.upsert_entity(conn, agent_id=agent_id, name=name, canonical=canonical, now=now,
                                                      entity_type=kind)
                entity_ids[canonical] = entity_id
                stats.entities += 1
                stats.mentions += graph_store.add_mention(conn, memory_id=memory_id, entity_id=entity_id,
                                                          mention_text=name, confidence=LINKER_CONFIDENCE, now=now)
            aspect_id = graph_store.upsert_aspect(conn, entity_id=entity_id, name=aspect, now=now)
            attribute_id = graph_store.add_attribute(
                conn, entity_id=entity_id, aspect_id=aspect_id, memory_id=memory_id,
                kind="constraint" if constraint else "attribute", content=sentence, normalized=normalized,
                confidence=LINKER_CONFIDENCE, importance=CONSTRAINT_IMPORTANCE if constraint else ATTRIBUTE_IMPORTANCE,
                now=now)
            if attribute_id is None:
                continue
            stats.attributes += 1
            stats.constraints += constraint
            stats.superseded += supersede_siblings(conn, attribute_id=attribute_id, entity_id=entity_id,
                                                   entity_name=canonical, aspect_id=aspect_id, content=sentence,
                                                   now=now)
    return stats
