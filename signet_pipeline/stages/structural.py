"""Structural classification (spec memory-pipeline "Structural Classification"): an entity's
unclassified facts get an aspect and a kind (attribute | constraint) in one provider call per
entity; an entity still typed 'extracted' gets a type. Replies are validated like every model
reply (unknown indices, empty aspects and bad kinds are dropped with a warning). After a batch's
calls, one short transaction writes each entity's classification, the supersession of the siblings
each classified attribute contradicts, and completes its job (stages/drain/jobs.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import apsw
from pydantic import BaseModel

from signet_pipeline.graph.linker import ATTRIBUTE_IMPORTANCE, CONSTRAINT_IMPORTANCE
from signet_pipeline.graph.supersession import supersede_siblings
from signet_pipeline.providers.llm import AnswersTasks, Llm
from signet_pipeline.providers.llm.output import extract_json
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.drain.jobs import JobBatch, in_flight, run_write_batched_jobs
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.queue import STRUCTURAL_CLASSIFY, JobQueue
from signet_pipeline.timeutil import now_iso

ENTITY_TYPES = ("person", "project", "system", "tool", "concept", "skill", "task", "unknown")
ASPECT_SUGGESTIONS = {
    "person": ["preferences", "work", "location", "relationships", "schedule", "decisions"],
    "project": ["decisions", "stack", "schedule", "people", "status"],
    "system": ["stack", "configuration", "operations", "decisions"],
    "tool": ["usage", "configuration", "decisions"],
}
DEFAULT_SUGGESTIONS = ["general", "decisions", "preferences", "stack"]
MAX_ASPECT_CHARS = 40

PROMPT = """Organize facts about the entity "{name}" (type: {type}).

Existing aspects: {aspects}
Suggested aspects: {suggestions}

Facts:
{facts}

Return ONLY a JSON object: {{"items": [{{"i": fact number, "aspect": short lowercase aspect name,
"kind": "attribute" | "constraint", "new": true if the aspect is not an existing one}}],
"entityType": {type_request}}}
A constraint is a rule or decision that must hold ("we decided...", "never...", "must...").
"""


class ClassifyReport(BaseModel):
    entity_id: str
    entity_name: str | None = None
    classified: int = 0
    constraints: int = 0
    superseded: int = 0
    type_set: str | None = None
    warnings: list[str] = []


def build_prompt(entity: dict[str, Any], facts: list[str], aspects: list[str]) -> str:
    suggestions = ASPECT_SUGGESTIONS.get(entity["entity_type"], DEFAULT_SUGGESTIONS)
    type_request = (f"one of {' | '.join(ENTITY_TYPES)}" if entity["entity_type"] == "extracted" else "null")
    return PROMPT.format(name=entity["name"], type=entity["entity_type"], aspects=", ".join(aspects) or "none",
                         suggestions=", ".join(suggestions), type_request=type_request,
                         facts="\n".join(f"{i}. {fact}" for i, fact in enumerate(facts)))


def parse_classification(reply: str | dict[str, Any], count: int) -> tuple[dict[int, tuple[str, str]], str | None,
                                                                             list[str]]:
    """({fact index: (aspect, kind)}, entity type or None, warnings). Never raises."""
    data = reply if isinstance(reply, dict) else extract_json(reply)
    if isinstance(data, list):
        data = {"items": data}
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        return {}, None, ["classification reply has no items list"]
    out: dict[int, tuple[str, str]] = {}
    warnings: list[str] = []
    for item in data["items"]:
        index = item.get("i") if isinstance(item, dict) else None
        aspect = str(item.get("aspect") or "").strip().lower()[:MAX_ASPECT_CHARS] if isinstance(item, dict) else ""
        kind = str(item.get("kind") or "attribute").strip().lower() if isinstance(item, dict) else ""
        if not isinstance(index, int) or not 0 <= index < count:
            warnings.append(f"item {item!r}: no such fact")
        elif not aspect:
            warnings.append(f"fact {index}: empty aspect")
        elif kind not in ("attribute", "constraint"):
            warnings.append(f"fact {index}: unknown kind {kind!r}")
        else:
            out[index] = (aspect, kind)
    entity_type = str(data.get("entityType") or "").strip().lower() or None
    if entity_type is not None and entity_type not in ENTITY_TYPES:
        warnings.append(f"unknown entity type {entity_type!r} ignored")
        entity_type = None
    return out, entity_type, warnings


@dataclass
class Classified:
    """An entity's facts as the provider classified them, before they are written."""

    report: ClassifyReport
    entity: Row | None = None  # None: nothing to write (entity gone, no unclassified fact)
    pending: list[Row] = field(default_factory=list)  # the facts classified, in prompt order
    assigned: dict[int, tuple[str, str]] = field(default_factory=dict)  # fact index -> (aspect, kind)
    entity_type: str | None = None


def classify_entity(svc: MemoryService, llm: Llm, entity_id: str, *, batch_size: int = 20,
                    timeout: float | None = None) -> Classified:
    """The provider call and validation for up to `batch_size` unclassified facts, no write.
    Raises ProviderError when the provider fails (the job then retries)."""
    report = ClassifyReport(entity_id=entity_id)
    conn = svc.db.reader()
    entity = graph_store.entity_row(conn, entity_id)
    if entity is None:
        report.warnings.append("entity no longer exists")
        return Classified(report)
    report.entity_name = entity["name"]
    pending = graph_store.unclassified_attributes(conn, entity_id, batch_size)
    # The inline linker classifies what it attaches; a name it met without a type is typed from what is
    # said of it (the job remember queued for it).
    typing = [] if pending or entity["entity_type"] != "extracted" else graph_store.recent_attributes(
        conn, entity_id, batch_size)
    if not pending and not typing:
        return Classified(report)
    facts = [a["content"] for a in pending or typing]
    aspects = graph_store.aspect_names(conn, entity_id)
    if isinstance(llm, AnswersTasks):
        reply: str | dict[str, Any] = llm.classify(entity["name"], entity["entity_type"], facts, aspects)
    else:
        reply = llm.generate(build_prompt(entity, facts, aspects), json=True, timeout=timeout)
    assigned, entity_type, report.warnings = parse_classification(reply, len(facts))
    if typing:  # its facts are classified already; asked once, "unknown" when the reply names no type
        return Classified(report, entity, [], {}, entity_type or "unknown")
    return Classified(report, entity, pending, assigned, entity_type)


def store_classification(conn: apsw.Connection, classified: Classified) -> ClassifyReport:
    """Inside a write transaction: each classified fact's aspect and kind, the supersession of the
    siblings an attribute contradicts, and the entity's type."""
    report, entity = classified.report, classified.entity
    if entity is None:
        return report
    now = now_iso()
    for index, (aspect, kind) in sorted(classified.assigned.items()):
        attribute = classified.pending[index]
        aspect_id = graph_store.upsert_aspect(conn, entity_id=entity["id"], name=aspect, now=now)
        importance = CONSTRAINT_IMPORTANCE if kind == "constraint" else ATTRIBUTE_IMPORTANCE
        graph_store.classify_attribute(conn, attribute["id"], aspect_id=aspect_id, kind=kind, now=now,
                                       importance=importance)
        report.classified += 1
        report.constraints += kind == "constraint"
        if kind == "attribute":
            report.superseded += supersede_siblings(conn, attribute_id=attribute["id"], entity_id=entity["id"],
                                                    entity_name=entity["name"], aspect_id=aspect_id,
                                                    content=attribute["content"], now=now)
    if classified.entity_type and graph_store.set_entity_type(conn, entity["id"], classified.entity_type, now):
        report.type_set = classified.entity_type
    return report


def run_structural_jobs(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int,
                        ids: list[int] | None = None) -> JobBatch[ClassifyReport]:
    timeout = svc.settings.pipeline.extraction.timeout / 1000
    return run_write_batched_jobs(
        svc.db, queue, (llm.name, llm.model), STRUCTURAL_CLASSIFY, limit=limit, ids=ids, target="entity_id",
        concurrency=in_flight(svc.settings.pipeline, llm),
        prepare=lambda job: classify_entity(svc, llm, job["entity_id"] or "", timeout=timeout),
        store=lambda conn, _job, classified: store_classification(conn, classified),
        result=lambda report: report.model_dump(mode="json"))
