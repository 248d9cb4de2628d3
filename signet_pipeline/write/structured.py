"""remember's `structured` payload (memory-api): knowledge the caller authors with a memory —
entity relations, aspect attributes with groupKey / claimKey, prospective hints. Such a memory is
not sent to LLM extraction (the caller did that work) nor to hint generation when it brings hints.

Applied after the memory's own write, each part in its own short transaction: the graph only when
the knowledge graph is on (memory.pipelineV2.graph), hints validated as generated ones are."""

from __future__ import annotations

from signet_pipeline.graph.persist import persist_aspects, persist_triples
from signet_pipeline.models import ExtractedEntity, Structured
from signet_pipeline.service import MemoryService
from signet_pipeline.store import hints as hints_store
from signet_pipeline.store.db import Row
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.hints import parse_hints

MODEL = "structured"  # what memory_hints.model says for caller-authored hints


def apply(svc: MemoryService, memory: Row, structured: Structured) -> dict[str, int]:
    """Counts of what was written: relations, triples_rejected, aspects, attributes, superseded, hints."""
    counts: dict[str, int] = {}
    if svc.settings.pipeline.graph_on:
        triples = [ExtractedEntity(source=t.source, relationship=t.relationship, target=t.target,
                                   confidence=t.confidence, source_type=t.source_type, target_type=t.target_type)
                   for t in structured.entities]
        report = persist_triples(svc, memory, triples)
        counts.update(relations=report.new_relations, triples_rejected=report.rejected)
        counts.update(persist_aspects(svc, memory, structured.aspects))
    if structured.hints:
        hints, _ = parse_hints(structured.hints, memory["content"], svc.settings.pipeline.hints.max)
        with svc.db.write() as conn:
            counts["hints"] = hints_store.replace(conn, memory_id=memory["id"], content_hash=memory["content_hash"],
                                                  hints=hints, model=MODEL, now=now_iso())
    return counts
