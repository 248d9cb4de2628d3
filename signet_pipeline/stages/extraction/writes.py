"""Controlled writes (spec memory-pipeline "Controlled Writes", "Pipeline Modes").

All provider work (extraction, decisions, embeddings) is done before this runs; here one short
write transaction per source memory applies the proposals the mode allows and records every
proposal in memory_history:

- shadow (shadowMode or mutationsFrozen): nothing but `proposed` audit rows by `pipeline-shadow`;
- controlled: ADD passes the gates (confidence floor -> `skipped` low_fact_confidence, empty ->
  `skipped` empty_fact_content, same hash for the agent -> `deduped`) and is `created` with
  who=pipeline-v2, why=extracted-fact, source_memory_id=the source; NONE is recorded as `none`;
  UPDATE/DELETE are `blocked` (destructive_mutations_disabled);
- full (allowUpdateDelete): UPDATE/DELETE write the fact as ADD does, then supersede the target
  (kept, linked through superseded_by, hidden from recall) — nothing is ever hard-deleted.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Literal

import apsw
import numpy as np

from signet_pipeline.models import ExtractedFact, RecallHit
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.extraction.contradiction import ContradictionCheck
from signet_pipeline.stages.extraction.decision import Decision
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import history as history_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Commit, Row
from signet_pipeline.store.queue import enqueue_for_new_memory
from signet_pipeline.text.content import normalize_content
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import embed_missing

PIPELINE_ACTOR = "pipeline-v2"
SHADOW_ACTOR = "pipeline-shadow"
DERIVED_WHY = "extracted-fact"
DESTRUCTIVE_BLOCKED = "destructive_mutations_disabled"


@dataclass
class Proposal:
    fact: ExtractedFact
    decision: Decision
    target: RecallHit | None = None  # the candidate an update/delete/none names
    contradiction: ContradictionCheck | None = None


@dataclass
class WriteReport:
    mode: str
    proposals: int = 0
    created: dict[str, str] = field(default_factory=dict)  # new memory id -> its content
    deduped: int = 0
    skipped: dict[str, int] = field(default_factory=dict)  # reason -> count
    none: int = 0
    blocked: int = 0
    superseded: int = 0
    review_needed: int = 0
    shadow: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "proposals": self.proposals, "created": len(self.created),
                "createdIds": list(self.created), "deduped": self.deduped, "skipped": dict(self.skipped),
                "none": self.none, "blocked": self.blocked, "superseded": self.superseded,
                "reviewNeeded": self.review_needed, "shadow": self.shadow}


def _metadata(p: Proposal, source: Row, *, model: str, fact_count: int, entity_count: int, mode: str,
              job_id: int | None, rerun: bool) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "proposalAction": p.decision.action, "factContent": p.fact.content, "factType": p.fact.type,
        "factConfidence": p.fact.confidence, "decisionConfidence": p.decision.confidence,
        "sourceMemoryId": source["id"], "extractionModel": model, "factCount": fact_count,
        "entityCount": entity_count, "mode": mode, "targetId": p.target.id if p.target else None,
    }
    if p.contradiction is not None:
        meta.update(contradictionRisk=p.contradiction.contradiction_risk,
                    reviewNeeded=p.contradiction.contradiction_risk)
        if p.contradiction.semantic is not None:
            meta.update(semanticContradiction=p.contradiction.semantic,
                        semanticConfidence=p.contradiction.semantic_confidence,
                        semanticReasoning=p.contradiction.reasoning)
    if job_id is not None:
        meta["jobId"] = job_id
    if rerun:
        meta["rerun"] = True
    return meta


# The existing id of a dedup is None when the memory that won the unique index is gone again.
WriteOutcome = tuple[Literal["skipped", "created"], str] | tuple[Literal["deduped"], str | None]


def _write_fact(svc: MemoryService, conn: apsw.Connection, p: Proposal, source: Row, *, floor: float,
                model: str, vectors: dict[str, np.ndarray], now: str) -> WriteOutcome:
    """Gates then insert. ('skipped', reason) | ('deduped', existing id) | ('created', new id)."""
    if p.fact.confidence < floor:
        return "skipped", "low_fact_confidence"
    norm = normalize_content(p.fact.content)
    if not norm.storage:
        return "skipped", "empty_fact_content"
    existing = mem_store.find_live_by_hash(conn, source["agent_id"], norm.content_hash)
    if existing:
        return "deduped", existing["id"]
    vector = vectors.get(norm.content_hash)
    has_vector = vector is not None or emb_store.exists_for_hash(conn, norm.content_hash, svc.embedder.model)
    values = {
        "id": str(uuid.uuid4()), "type": p.fact.type, "content": norm.storage, "normalized_content": norm.normalized,
        "content_hash": norm.content_hash, "confidence": p.fact.confidence,
        "importance": svc.settings.memory.default_importance, "tags": "[]", "who": PIPELINE_ACTOR, "why": DERIVED_WHY,
        "project": source["project"], "session_id": source["session_id"], "source_id": source["id"],
        "source_type": PIPELINE_ACTOR, "pinned": 0, "agent_id": source["agent_id"], "visibility": source["visibility"],
        "extraction_status": "none", "embedding_model": svc.embedder.model if has_vector else None,
        "extraction_model": model, "source_memory_id": source["id"], "created_at": now, "updated_at": now,
        "updated_by": PIPELINE_ACTOR,
    }
    try:
        mem_store.insert(conn, values)
    except apsw.ConstraintError:
        # Defensive (spec): the unique (agent, hash) index is the last word on duplicates.
        existing = mem_store.find_live_by_hash(conn, source["agent_id"], norm.content_hash)
        return "deduped", existing["id"] if existing else None
    if vector is not None:
        emb_store.upsert(conn, content_hash=norm.content_hash, vector=vector, model=svc.embedder.model,
                         source_id=values["id"], now=now)
    enqueue_for_new_memory(conn, svc.settings.pipeline, memory_id=values["id"], now=now, extract=False)
    return "created", values["id"]


def _dedup_reason(existing_id: str | None, source_id: str) -> str:
    """Why a fact was not written though the decision said add: a live memory has its very content
    (the decision's own reason, kept as decisionReason, spoke of the candidates it was shown)."""
    if existing_id == source_id:
        return "the memory it was extracted from already says exactly this"
    return f"{f'memory {existing_id}' if existing_id else 'a live memory'} already says exactly this"


def _refuse_supersede(target: Row | None, source: Row) -> str | None:
    """Why a target may not be superseded: pinned memories are the user's word, and a fact from
    an older memory never replaces a newer one (re-extraction and out-of-order jobs)."""
    if target is None:
        return None
    if target["pinned"]:
        return "target_pinned"
    if target["created_at"] > source["created_at"]:
        return "target_newer_than_source"
    return None


def apply_proposals(svc: MemoryService, source: Row, proposals: list[Proposal], *, model: str, fact_count: int,
                    entity_count: int, vectors: dict[str, np.ndarray] | None = None, job_id: int | None = None,
                    rerun: bool = False, commit: Commit | None = None) -> WriteReport:
    """Apply one source memory's proposals in one write transaction; mark its extraction completed.
    `commit(conn, report)` runs last in that transaction (graph triples, the job's completion)."""
    pipeline = svc.settings.pipeline
    mode = pipeline.write_mode
    report = WriteReport(mode=mode, proposals=len(proposals))
    vectors = vectors if vectors is not None else (
        embed_missing(svc, [p.fact.content for p in proposals])[0] if mode != "shadow" else {})
    with svc.db.write() as conn:
        now = now_iso()

        def audit(memory_id: str, event: str, p: Proposal, *, reason: str | None = None, actor: str = PIPELINE_ACTOR,
                  old: str | None = None, **extra: Any) -> None:
            meta = _metadata(p, source, model=model, fact_count=fact_count, entity_count=entity_count, mode=mode,
                             job_id=job_id, rerun=rerun) | extra
            history_store.record(conn, memory_id=memory_id, event=event, now=now, old_content=old,
                                 new_content=p.fact.content, changed_by=actor, actor_type="pipeline",
                                 reason=reason or p.decision.reason, metadata=meta, session_id=source["session_id"])

        for p in proposals:
            action = p.decision.action
            if p.contradiction is not None and p.contradiction.contradiction_risk:
                report.review_needed += 1
            if mode == "shadow":
                report.shadow += 1
                audit(source["id"], "proposed", p, actor=SHADOW_ACTOR)
                continue
            if action == "none":
                report.none += 1
                audit(source["id"], "none", p)
                continue
            target = None
            if action in ("update", "delete"):
                if mode != "full":
                    report.blocked += 1
                    audit(source["id"], "blocked", p, reason=DESTRUCTIVE_BLOCKED)
                    continue
                target = mem_store.get(conn, p.target.id) if p.target else None
                refused = _refuse_supersede(target, source)
                if refused:
                    report.blocked += 1
                    audit(source["id"], "blocked", p, reason=refused)
                    continue
            outcome = _write_fact(svc, conn, p, source, floor=pipeline.write_confidence_floor, model=model,
                                  vectors=vectors, now=now)
            if outcome[0] == "skipped":
                reason = outcome[1]
                report.skipped[reason] = report.skipped.get(reason, 0) + 1
                audit(source["id"], "skipped", p, reason=reason)
                continue
            if outcome[0] == "deduped":
                detail = outcome[1]
                report.deduped += 1
                audit(source["id"], "deduped", p, reason=_dedup_reason(detail, source["id"]), existingId=detail,
                      decisionReason=p.decision.reason)
            else:
                detail = outcome[1]  # the new memory's id
                report.created[detail] = normalize_content(p.fact.content).storage
                audit(detail, "created", p)
            if target is not None and detail and detail != target["id"] and mem_store.supersede(
                    conn, target["id"], by=detail, now=now, actor=PIPELINE_ACTOR):
                report.superseded += 1
                audit(target["id"], "superseded", p, old=target["content"], supersededBy=detail)
        mem_store.set_extraction_status(conn, source["id"], "completed", now=now, model=model)
        if rerun:
            history_store.record(conn, memory_id=source["id"], event="reextracted", now=now, changed_by=PIPELINE_ACTOR,
                                 actor_type="pipeline", reason="re-extraction backfill",
                                 metadata={"extractionModel": model, **report.as_dict()})
        if commit is not None:
            commit(conn, report)
    return report
