"""remember: normalize -> dedup -> embed (outside any transaction) -> one short write tx
(row + FTS via trigger + vector + history + extraction and hints jobs)."""

from __future__ import annotations

import json
import logging
import uuid
from dataclasses import dataclass

import apsw
import numpy as np

from signet_pipeline import analytics
from signet_pipeline.errors import InvalidRequest, MutationsFrozen, ProviderError
from signet_pipeline.graph.linker import link_memory
from signet_pipeline.models import RememberRequest, RememberResult
from signet_pipeline.service import MemoryService
from signet_pipeline.store import agents as agents_store
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import history as history_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.queue import enqueue_for_new_memory
from signet_pipeline.text.content import NormalizedContent, infer_type, normalize_content, parse_prefixes, tags_text
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write import structured

log = logging.getLogger("signet.remember")


AUTONOMOUS = frozenset({"agent", "pipeline"})  # actor types that may not force-delete pinned memories


def ensure_writable(svc: MemoryService) -> None:
    """Every write path checks the emergency brake first (memory.pipelineV2.mutationsFrozen)."""
    if svc.settings.pipeline.mutations_frozen:
        raise MutationsFrozen("writes are disabled (memory.pipelineV2.mutationsFrozen)")


@dataclass(frozen=True)
class Actor:
    """Who asks for a change (recorded in history)."""

    name: str = "api"
    type: str = "operator"  # operator | agent | daemon | harness
    request_id: str | None = None
    verified: bool = False  # name and type come from a signed token, not from what the caller says

    def author(self, who: str | None) -> str | None:
        """A memory's `who`: an agent token's memories are its subject's, whatever the body
        claims; operators, admins (imports) and trusted local callers name it as they like."""
        return self.name if self.verified and self.type == "agent" else who

    def changed_by(self, who: str | None) -> str:
        """The history's author: the token's subject under a token, else `who` or the actor."""
        return self.name if self.verified else who or self.name


def _result(row: Row, *, embedded: bool, deduped: bool, job_id: int | None) -> RememberResult:
    return RememberResult(
        id=row["id"], memoryId=row["id"], type=row["type"], tags=tags_text(row["tags"]), pinned=bool(row["pinned"]),
        importance=row["importance"], content=row["content"], embedded=embedded, deduped=deduped, jobId=job_id,
    )


def _existing(conn: apsw.Connection, req: RememberRequest, content_hash: str) -> Row | None:
    if req.idempotency_key:
        found = mem_store.find_by_idempotency_key(conn, agent_id=req.agent_id, visibility=req.visibility,
                                                  project=req.project, key=req.idempotency_key)
        if found:
            return found
    return mem_store.find_live_by_hash(conn, req.agent_id, content_hash)


def _deduped(svc: MemoryService, row: Row) -> RememberResult:
    embedded = emb_store.vector_for_hash(svc.db.reader(), row["content_hash"]) is not None
    return _result(row, embedded=embedded, deduped=True, job_id=None)


@dataclass
class _Pending:
    req: RememberRequest
    content: NormalizedContent
    values: dict
    vector: np.ndarray | None = None


def _prepare(svc: MemoryService, req: RememberRequest, actor: Actor) -> _Pending:
    prefixed = parse_prefixes(req.content)
    content = normalize_content(prefixed.content)
    if not content.storage:
        raise InvalidRequest("content is empty once prefixes and whitespace are removed", code="empty_content")
    pinned = req.pinned if req.pinned is not None else prefixed.pinned
    tags = req.tags if req.tags is not None else prefixed.tags
    importance = req.importance if req.importance is not None else (
        1.0 if pinned else svc.settings.memory.default_importance)
    values = {
        "id": str(uuid.uuid4()), "type": req.type or infer_type(content.storage), "content": content.storage,
        "normalized_content": content.normalized, "content_hash": content.content_hash,
        "importance": importance, "tags": json.dumps(tags), "who": actor.author(req.who), "project": req.project,
        "session_id": req.session_id, "source_id": req.source_id, "source_type": req.source_type or "manual",
        "source_path": req.source_path, "runtime_path": req.runtime_path, "idempotency_key": req.idempotency_key,
        "pinned": int(pinned), "agent_id": req.agent_id, "visibility": req.visibility,
        # A structured memory brings its own knowledge: no extraction job, so nothing pending.
        "extraction_status": "pending" if svc.settings.pipeline.enabled and req.structured is None else "none",
        "embedding_model": None,
        "occurred_at": req.occurred_at, "observed_at": req.observed_at, "source_created_at": req.source_created_at,
        "valid_from": req.valid_from, "valid_until": req.valid_until,
        "created_at": req.created_at, "updated_by": actor.changed_by(req.who),
    }
    return _Pending(req, content, values)


def embed_missing(svc: MemoryService, texts: list[str]) -> tuple[dict[str, np.ndarray], set[str]]:
    """(new vectors, hashes that already have one for this model), both keyed by content hash, for
    storage-form texts: one provider call for the texts without a vector, made before any write
    transaction. A provider failure is not fatal: those memories are stored keyword-only and the
    refresh stage finds them later (no embeddings row)."""
    model = svc.embedder.model
    reader = svc.db.reader()
    stored: set[str] = set()
    need: dict[str, str] = {}
    for text in texts:
        norm = normalize_content(text)
        if not norm.storage or norm.content_hash in stored or norm.content_hash in need:
            continue
        if emb_store.exists_for_hash(reader, norm.content_hash, model):
            stored.add(norm.content_hash)
        else:
            need[norm.content_hash] = norm.storage
    if not need or not svc.embedder.enabled:
        return {}, stored
    try:
        return dict(zip(need, svc.embedder.embed(list(need.values())))), stored
    except ProviderError as exc:
        log.warning("embedding failed for %d texts, stored keyword-only: %s", len(need), exc)
        analytics.record_errors(svc.db, [analytics.embedding_failure(exc, texts=len(need))])
        return {}, stored


def _embed(svc: MemoryService, pending: list[_Pending]) -> None:
    vectors, stored = embed_missing(svc, [item.content.storage for item in pending])
    for item in pending:
        content_hash = item.content.content_hash
        item.vector = vectors.get(content_hash)
        if item.vector is not None or content_hash in stored:
            item.values["embedding_model"] = svc.embedder.model


def _mark_behind(svc: MemoryService, pending: list[_Pending]) -> None:
    """Memories whose vector exists (same text elsewhere) carry its model now; the others get
    theirs from the write-behind embedder after the commit."""
    reader, model = svc.db.reader(), svc.embedder.model
    for item in pending:
        if emb_store.exists_for_hash(reader, item.content.content_hash, model):
            item.values["embedding_model"] = model


def remember(svc: MemoryService, req: RememberRequest, actor: Actor = Actor(), *,
             behind: bool = False) -> RememberResult:
    """One memory. With `behind` (the API's remember) and a write-behind embedder on the service
    (`embedding.writeBehind`), it is answered once its row is committed and its vector follows,
    `embedded` then meaning the vector is on its way (the provider is not cooling down after a failure)."""
    return remember_many(svc, [req], actor, behind=behind and svc.embed_behind is not None)[0]


def remember_many(svc: MemoryService, reqs: list[RememberRequest], actor: Actor = Actor(),
                  *, chunk_size: int = 256, pipeline_jobs: bool = True, behind: bool = False) -> list[RememberResult]:
    """Remember several memories: one embedding call and one write transaction per chunk.
    Results are in request order; duplicates (also within the batch) come back `deduped`.
    `pipeline_jobs=False` writes no extraction or hints jobs (document chunks); `behind` hands the
    embedding to the service's write-behind embedder instead of doing it first."""
    ensure_writable(svc)
    results: list[RememberResult] = []
    for start in range(0, len(reqs), chunk_size):
        svc.reads_first.yield_to_reads()  # a recall in flight goes first (service/reads_first.py)
        prepared = [_prepare(svc, req, actor) for req in reqs[start:start + chunk_size]]
        reader = svc.db.reader()
        fresh = [p for p in prepared if _existing(reader, p.req, p.content.content_hash) is None]
        if behind:
            _mark_behind(svc, fresh)
        else:
            _embed(svc, fresh)  # before taking the write lock: no provider call inside a write tx
        svc.reads_first.yield_to_reads()
        written = _write(svc, prepared, actor, pipeline_jobs, behind)
        if behind:
            assert svc.embed_behind is not None  # asked for only where the service has a write-behind embedder
            svc.embed_behind.submit([(r.id, p.content.content_hash, p.content.storage, p.req.agent_id)
                                     for p, r in zip(prepared, written)
                                     if p.vector is None and p.values["embedding_model"] is None and not r.deduped])
        results.extend(written)
    _keep_transcripts(svc, reqs)
    for req, result in zip(reqs, results):
        # The caller's knowledge, after the row exists; also for a deduped retry (every part is
        # idempotent), so a retry after a failure, or with a corrected payload, still lands.
        if req.structured is None:
            continue
        row = mem_store.get(svc.db.reader(), result.id)
        if row is not None:
            result.structured = structured.apply(svc, row, req.structured)
    return results


def _keep_transcripts(svc: MemoryService, reqs: list[RememberRequest]) -> None:
    """Transcripts sent along with memories, under the memory's sourceId (the session key), in
    their own short transaction (spec "Lossless Session Transcripts"); the sender's agent owns them."""
    kept = [(r.source_id, r.transcript, r) for r in reqs if r.transcript and r.transcript.strip() and r.source_id]
    if not kept:
        return
    with svc.db.write() as conn:
        now = now_iso()
        for session_key, transcript, req in kept:
            sessions_store.add_transcript(conn, session_key=session_key, content=transcript,
                                          project=req.project, agent_id=req.agent_id, now=now)


def _write(svc: MemoryService, prepared: list[_Pending], actor: Actor, pipeline_jobs: bool,
           behind: bool) -> list[RememberResult]:
    pipeline = svc.settings.pipeline
    out: list[RememberResult | Row] = []
    with svc.db.write() as conn:
        now = now_iso()
        for item in prepared:
            existing = _existing(conn, item.req, item.content.content_hash)
            if existing:
                out.append(existing)
                continue
            values = {**item.values, "created_at": item.values["created_at"] or now, "updated_at": now}
            mem_store.insert(conn, values)
            agents_store.register_seen(conn, values["agent_id"], now)
            if item.vector is not None:
                emb_store.upsert(conn, content_hash=item.content.content_hash, vector=item.vector,
                                 model=svc.embedder.model, source_id=values["id"], now=now)
            history_store.record(conn, memory_id=values["id"], event="created", new_content=values["content"],
                                 changed_by=values["updated_by"], actor_type=actor.type, now=now,
                                 session_id=item.req.session_id, request_id=actor.request_id,
                                 metadata={"agentId": values["agent_id"], "visibility": values["visibility"]})
            if pipeline.graph_on and item.req.structured is None:  # a structured memory brings its own graph
                link_memory(conn, memory_id=values["id"], content=values["content"], agent_id=values["agent_id"],
                            now=now)
            authored = item.req.structured
            job_id = enqueue_for_new_memory(
                conn, pipeline, memory_id=values["id"], now=now, extract=authored is None,
                hints=not (authored and authored.hints)) if pipeline_jobs else None
            on_its_way = behind and not svc.embedder.cooling_down
            out.append(_result(values, embedded=values["embedding_model"] is not None or on_its_way, deduped=False,
                               job_id=job_id))
    return [r if isinstance(r, RememberResult) else _deduped(svc, r) for r in out]
