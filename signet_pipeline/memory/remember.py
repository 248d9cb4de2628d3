"""remember: normalize -> dedup -> embed (outside any transaction) -> one short write tx
(row + FTS via trigger + vector + history + extraction job)."""

from __future__ import annotations

import json
import logging
import uuid
from dataclasses import dataclass

import apsw

from signet_pipeline.errors import InvalidRequest, MutationsFrozen, ProviderError
from signet_pipeline.memory.content import infer_type, normalize_content, parse_prefixes
from signet_pipeline.memory.models import RememberRequest, RememberResult
from signet_pipeline.memory.service import MemoryService
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import history as history_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Row
from signet_pipeline.timeutil import now_iso

log = logging.getLogger("signet.remember")


@dataclass(frozen=True)
class Actor:
    """Who asks for a change (recorded in history)."""

    name: str = "api"
    type: str = "operator"  # operator | agent | daemon | harness
    request_id: str | None = None


def tags_text(tags_json: str) -> str:
    return ",".join(json.loads(tags_json or "[]"))


def _result(row: Row, *, embedded: bool, deduped: bool, job_id: int | None) -> RememberResult:
    return RememberResult(
        id=row["id"], memoryId=row["id"], type=row["type"], tags=tags_text(row["tags"]), pinned=bool(row["pinned"]),
        importance=row["importance"], content=row["content"], embedded=embedded, deduped=deduped, jobId=job_id,
    )


def _existing(conn: apsw.Connection, req: RememberRequest, content_hash: str) -> Row | None:
    if req.idempotency_key:
        found = mem_store.find_by_idempotency_key(conn, req.agent_id, req.idempotency_key)
        if found:
            return found
    return mem_store.find_live_by_hash(conn, content_hash)


def _deduped(svc: MemoryService, row: Row) -> RememberResult:
    embedded = emb_store.vector_for_hash(svc.db.reader(), row["content_hash"]) is not None
    return _result(row, embedded=embedded, deduped=True, job_id=None)


def remember(svc: MemoryService, req: RememberRequest, actor: Actor = Actor()) -> RememberResult:
    pipeline = svc.settings.pipeline
    if pipeline.mutations_frozen:
        raise MutationsFrozen("writes are disabled (memory.pipelineV2.mutationsFrozen)")

    prefixed = parse_prefixes(req.content)
    content = normalize_content(prefixed.content)
    if not content.storage:
        raise InvalidRequest("content is empty once prefixes and whitespace are removed", code="empty_content")
    pinned = req.pinned if req.pinned is not None else prefixed.pinned
    tags = req.tags if req.tags is not None else prefixed.tags
    if req.importance is not None:
        importance = req.importance
    else:
        importance = 1.0 if pinned else svc.settings.memory.default_importance

    existing = _existing(svc.db.reader(), req, content.content_hash)
    if existing:
        return _deduped(svc, existing)

    # Embed before taking the write lock (no provider call inside a write transaction).
    vector = None
    model = svc.embedder.model
    if not emb_store.exists_for_hash(svc.db.reader(), content.content_hash, model):
        try:
            vector = svc.embedder.embed_one(content.storage)
        except ProviderError as exc:
            log.warning("embedding failed, memory stored keyword-only (refresh will retry): %s", exc)
            model = None
    embedded = model is not None

    now = now_iso()
    memory_id = str(uuid.uuid4())
    values = {
        "id": memory_id, "type": req.type or infer_type(content.storage), "content": content.storage,
        "normalized_content": content.normalized, "content_hash": content.content_hash,
        "importance": importance, "tags": json.dumps(tags), "who": req.who, "project": req.project,
        "session_id": req.session_id, "source_id": req.source_id, "source_type": req.source_type or "manual",
        "source_path": req.source_path, "runtime_path": req.runtime_path, "idempotency_key": req.idempotency_key,
        "pinned": int(pinned), "agent_id": req.agent_id, "visibility": req.visibility,
        "extraction_status": "pending" if pipeline.enabled else "none", "embedding_model": model,
        "occurred_at": req.occurred_at, "observed_at": req.observed_at, "source_created_at": req.source_created_at,
        "valid_from": req.valid_from, "valid_until": req.valid_until,
        "created_at": req.created_at or now, "updated_at": now, "updated_by": req.who or actor.name,
    }
    job_id = None
    try:
        with svc.db.write() as conn:
            raced = _existing(conn, req, content.content_hash)
            if raced:
                existing = raced
            else:
                mem_store.insert(conn, values)
                if vector is not None:
                    emb_store.upsert(conn, content_hash=content.content_hash, vector=vector, model=svc.embedder.model,
                                     source_id=memory_id, now=now)
                history_store.record(conn, memory_id=memory_id, event="created", new_content=content.storage,
                                     changed_by=req.who or actor.name, actor_type=actor.type, now=now,
                                     session_id=req.session_id, request_id=actor.request_id,
                                     metadata={"agentId": req.agent_id, "visibility": req.visibility})
                if pipeline.enabled:
                    job_id, _ = job_store.enqueue(conn, job_type="extract", memory_id=memory_id, now=now,
                                                  max_attempts=pipeline.worker.max_retries)
    except apsw.ConstraintError:
        # Another process inserted the same content between our check and our write.
        existing = _existing(svc.db.reader(), req, content.content_hash)
        if existing is None:
            raise
    if existing:
        return _deduped(svc, existing)
    return _result(values, embedded=embedded, deduped=False, job_id=job_id)
