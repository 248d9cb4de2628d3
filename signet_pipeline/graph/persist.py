"""Graph persistence of extracted triples (spec memory-pipeline "Knowledge Graph").

Runs last in the source memory's write transaction, under a savepoint: a failure is logged and
rolls back the triples alone, never the facts. Entities are resolved by canonical name within the
memory's agent (names shorter than 4 characters rejected, as the spec has it, unless written as a
given name the agent already knows as a person: a speaker "Jon" of the conversation), both ends get
a mention of the source memory, the relation is asserted (running-average confidence) and mirrored
as a typed dependency edge for traversal. Idempotent: re-processing a memory adds nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import apsw

from signet_pipeline.graph.linker import known_person
from signet_pipeline.models import ExtractedEntity, StructuredAspect
from signet_pipeline.service import MemoryService
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.queue import STRUCTURAL_CLASSIFY
from signet_pipeline.text.content import normalize_content
from signet_pipeline.text.entities import MIN_ENTITY_NAME, canonical_name, is_short_name
from signet_pipeline.timeutil import now_iso

log = logging.getLogger("signet.graph")

# Relationship phrase -> dependency type (the reference's DependencyType values).
DEPENDENCY_TYPES: list[tuple[str, re.Pattern[str]]] = [(t, re.compile(p, re.IGNORECASE)) for t, p in (
    ("uses", r"\b(use|uses|used|using|built (with|on)|runs? on|deployed (to|on))\b"),
    ("depends_on", r"\b(depends?|requires?|needs?|relies)\b"),
    ("part_of", r"\b(part of|member of|belongs? to|works? (at|for)|joined|inside|within)\b"),
)]


def dependency_type(relationship: str) -> str:
    return next((t for t, pattern in DEPENDENCY_TYPES if pattern.search(relationship)), "related_to")


@dataclass
class GraphReport:
    triples: int = 0
    rejected: int = 0
    new_relations: int = 0
    new_mentions: int = 0
    attributes: int = 0
    failed: str | None = None


def _resolvable(name: str, canonical: str, known: Callable[[str], bool]) -> bool:
    """Long enough to resolve, or a short given name the agent has as a person ("Jon", not "AI" or "Bob")."""
    return len(canonical) >= MIN_ENTITY_NAME or (is_short_name(name.strip()) and known(canonical))


def _attach_facts(conn: apsw.Connection, entity_id: str, name: str, facts: Sequence[tuple[str, str]], now: str,
                  max_attempts: int) -> int:
    added = 0
    # The name as a word: "Jon" is not in "Jonathan moved", "Anna" not in "Annabel's"; a short name only
    # as written ("May", not "I may move").
    name = name.strip()
    needle = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", 0 if is_short_name(name) else re.IGNORECASE)
    for memory_id, content in facts:
        if needle.search(content) and graph_store.add_attribute(
                conn, entity_id=entity_id, aspect_id=None, memory_id=memory_id, kind="attribute", content=content,
                normalized=normalize_content(content).normalized, confidence=0.5, importance=0.5, now=now):
            added += 1
    if added:
        job_store.enqueue(conn, job_type=STRUCTURAL_CLASSIFY, entity_id=entity_id, now=now, max_attempts=max_attempts)
    return added


def persist_triples(svc: MemoryService, source: Row, triples: list[ExtractedEntity],
                    facts: Sequence[tuple[str, str]] = ()) -> GraphReport:
    """`facts`: (memory id, content) of the facts written for this source; a fact naming an entity
    of the triples becomes that entity's attribute, unclassified, and the entity gets one
    `structural_classify` job (deduplicated while pending) to give it an aspect and a kind."""
    report = GraphReport(triples=len(triples))
    if not triples:
        return report
    try:
        # A savepoint: inside the facts' transaction (the pipeline's case) a failure rolls back
        # the triples alone.
        with svc.db.write() as conn, conn:
            now = now_iso()
            known = known_person(conn, source["agent_id"])
            for triple in triples:
                ends = [(name, canonical_name(name)) for name in (triple.source, triple.target)]
                if not all(_resolvable(name, canonical, known) for name, canonical in ends) or ends[0][1] == ends[1][1]:
                    report.rejected += 1
                    continue
                ids = []
                for (name, canonical), kind in zip(ends, (triple.source_type, triple.target_type)):
                    entity_id = graph_store.upsert_entity(conn, agent_id=source["agent_id"], name=name,
                                                          canonical=canonical, now=now, entity_type=kind or "extracted")
                    report.new_mentions += graph_store.add_mention(
                        conn, memory_id=source["id"], entity_id=entity_id, mention_text=name,
                        confidence=triple.confidence, now=now)
                    ids.append(entity_id)
                for (name, _), entity_id in zip(ends, ids):
                    report.attributes += _attach_facts(conn, entity_id, name, facts, now,
                                                       svc.settings.pipeline.worker.max_retries)
                relationship = triple.relationship.strip().lower()
                if graph_store.link_relation(conn, source_id=ids[0], target_id=ids[1], relation_type=relationship,
                                             confidence=triple.confidence, memory_id=source["id"], now=now):
                    report.new_relations += 1
                    graph_store.upsert_dependency(conn, source_id=ids[0], target_id=ids[1],
                                                  dependency_type=dependency_type(relationship),
                                                  strength=triple.confidence, now=now)
    except Exception as exc:  # non-fatal by spec: the facts stay
        log.warning("graph persistence failed for memory %s: %s", source["id"], exc)
        report.failed = str(exc)
    return report


def _settle_claim(conn: apsw.Connection, attribute_id: str, written_at: str, now: str, rivals: list[Row]) -> int:
    """A claim replaces the active rivals on its entity / aspect / group / claim whose memories are
    not newer (superseded_by points at it); a backfilled claim older than the newest rival arrives
    superseded by that rival instead (spec: supersession compares source time, not ingest time).
    Returns the attributes superseded."""
    if rivals and rivals[0]["at"] > written_at:
        graph_store.supersede_attribute(conn, attribute_id, by=rivals[0]["id"], now=now)
        return 1
    for rival in rivals:
        graph_store.supersede_attribute(conn, rival["id"], by=attribute_id, now=now)
    return len(rivals)


def persist_aspects(svc: MemoryService, source: Row, aspects: Sequence[StructuredAspect]) -> dict[str, int]:
    """Aspect attributes a caller authored (remember `structured.aspects`), in one transaction: the
    entity (typed when the caller says), a mention of the memory, the aspect, each attribute with
    its groupKey / claimKey. Claims settle by source time (_settle_claim); attributes without a
    claimKey never supersede anything. Entity names too short to resolve are counted as skipped."""
    counts = {"aspects": 0, "attributes": 0, "superseded": 0, "skipped": 0}
    with svc.db.write() as conn:
        now = now_iso()
        known = known_person(conn, source["agent_id"])
        for item in aspects:
            canonical = canonical_name(item.entity_name)
            if not _resolvable(item.entity_name, canonical, known):
                counts["skipped"] += 1
                continue
            entity_id = graph_store.upsert_entity(conn, agent_id=source["agent_id"], name=item.entity_name,
                                                  canonical=canonical, now=now,
                                                  entity_type=item.entity_type or "extracted")
            graph_store.add_mention(conn, memory_id=source["id"], entity_id=entity_id, mention_text=item.entity_name,
                                    confidence=1.0, now=now)
            aspect_id = graph_store.upsert_aspect(conn, entity_id=entity_id, name=item.aspect, now=now)
            counts["aspects"] += 1
            for attr in item.attributes:
                normalized = normalize_content(attr.content).normalized
                attribute_id = graph_store.add_attribute(
                    conn, entity_id=entity_id, aspect_id=aspect_id, memory_id=source["id"], kind="attribute",
                    content=attr.content, normalized=normalized, confidence=attr.confidence,
                    importance=attr.importance, now=now, group_key=attr.group_key, claim_key=attr.claim_key)
                if attribute_id is None:
                    continue
                counts["attributes"] += 1
                if attr.claim_key:
                    counts["superseded"] += _settle_claim(conn, attribute_id, source["created_at"], now,
                                                          graph_store.claim_rivals(
                                                              conn, entity_id=entity_id, aspect_id=aspect_id,
                                                              group_key=attr.group_key, claim_key=attr.claim_key,
                                                              normalized=normalized, exclude_id=attribute_id))
    return counts
