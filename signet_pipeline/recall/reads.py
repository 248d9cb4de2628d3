"""Read operations other than hybrid recall: one memory, listing, history, legacy keyword
search, similarity to a stored memory, and importance decay."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import apsw
from pydantic import BaseModel

from signet_pipeline.errors import NotFound
from signet_pipeline.recall.keywords import fts_deadline, keyword_query
from signet_pipeline.recall.legs import vector_candidates
from signet_pipeline.service import MemoryService
from signet_pipeline.store import agents as agents_store
from signet_pipeline.store import documents as documents_store
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import history as history_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.text.content import tags_text
from signet_pipeline.timeutil import parse_iso

DETAIL_FIELDS = (
    "id", "content", "type", "importance", "tags", "pinned", "who", "source_id", "source_type", "source_path",
    "runtime_path", "idempotency_key", "project", "session_id", "confidence", "access_count", "last_accessed",
    "is_deleted", "deleted_at", "extraction_status", "embedding_model", "version", "created_at", "updated_at",
    "updated_by", "agent_id", "visibility", "content_hash", "occurred_at", "observed_at", "source_created_at",
    "valid_from", "valid_until", "source_memory_id", "superseded_by", "superseded_at", "extraction_model",
)
LIST_FIELDS = ("id", "content", "created_at", "who", "importance", "tags", "source_type", "pinned", "type",
               "agent_id", "visibility", "project")


def decayed_importance(row: Row, decay_rate: float, now: datetime | None = None) -> float:
    """importance(t) = base x decay_rate ^ days_since_access; pinned memories never decay."""
    if row["pinned"]:
        return 1.0
    now = now or datetime.now(UTC)
    since = parse_iso(row["last_accessed"] or row["updated_at"])
    days = max(0.0, (now - since).total_seconds() / 86400)
    return float(row["importance"]) * decay_rate ** days


def _view(row: Row, fields: tuple[str, ...]) -> dict[str, Any]:
    out = {f: row[f] for f in fields}
    out["tags"] = tags_text(row["tags"])
    return out


def visible(conn: apsw.Connection, row: Row | None, agent_id: str) -> bool:
    """Whether the agent's read policy lets it see this row (single-row reads)."""
    return row is not None and agents_store.can_read(conn, agent_id=agent_id, owner=row["agent_id"],
                                                      visibility=row["visibility"])


def get_memory(svc: MemoryService, memory_id: str, *, agent_id: str = "default",
               include_deleted: bool = False) -> dict[str, Any]:
    conn = svc.db.reader()
    row = mem_store.get(conn, memory_id, include_deleted=include_deleted)
    if row is None or not visible(conn, row, agent_id):
        raise NotFound(f"memory {memory_id} not found")
    out = _view(row, DETAIL_FIELDS)
    out.update(sourcePath=row["source_path"], runtimePath=row["runtime_path"], idempotencyKey=row["idempotency_key"],
               effective_importance=round(decayed_importance(row, svc.settings.memory.decay_rate), 6))
    return out


def list_memories(svc: MemoryService, *, limit: int, offset: int, memory_type: str | None,
                  agent_id: str = "default", tags: list[str] | None = None, pinned: bool | None = None,
                  since: str | None = None, until: str | None = None) -> dict[str, Any]:
    flt = MemoryFilter(agent_id=agent_id, types=[memory_type] if memory_type else [], tags=tags or [],
                       pinned=pinned, since=since, until=until)
    with svc.db.read() as conn:
        page = mem_store.list_page(conn, flt, limit, offset)
        stats = mem_store.stats(conn, MemoryFilter(agent_id=agent_id))
    return {"memories": [_view(r, LIST_FIELDS) for r in page], "stats": stats, "limit": limit, "offset": offset}


def memory_history(svc: MemoryService, memory_id: str, *, limit: int, agent_id: str = "default") -> dict[str, Any]:
    conn = svc.db.reader()
    if not visible(conn, mem_store.get(conn, memory_id, include_deleted=True), agent_id):
        raise NotFound(f"memory {memory_id} not found")
    events = [
        {
            "id": h["id"], "event": h["event"], "oldContent": h["old_content"], "newContent": h["new_content"],
            "changedBy": h["changed_by"], "actorType": h["actor_type"], "reason": h["reason"],
            "metadata": json.loads(h["metadata"]) if h["metadata"] else None, "createdAt": h["created_at"],
            "sessionId": h["session_id"], "requestId": h["request_id"],
        }
        for h in history_store.for_memory(conn, memory_id, limit)
    ]
    return {"memoryId": memory_id, "count": len(events), "history": events}


def normalize_bm25(hits: list[tuple[str, float]]) -> dict[str, float]:
    """Raw bm25 (negative, lower is better) -> (0, 1], relative to the query's best hit (legacy score)."""
    if not hits:
        return {}
    best = min(raw for _, raw in hits)
    if best >= 0:
        return {mid: 1.0 for mid, _ in hits}
    return {mid: raw / best for mid, raw in hits}


def legacy_search(svc: MemoryService, q: str | None, flt: MemoryFilter, limit: int | None) -> list[dict[str, Any]]:
    """GET /memory/search: keyword only, `q` as plain words OR-ed (recall's bounded MATCH, no raw
    FTS5 syntax: a 2,500-way AND of one repeated word took 21 s), best BM25 first."""
    conn = svc.db.reader()
    if not q or not q.strip():
        return [_view(r, LIST_FIELDS) for r in mem_store.list_page(conn, flt, limit or 50, 0)]
    limit = limit or 20
    with fts_deadline(svc, conn):
        keywords = keyword_query(svc, conn, q, agent_id=flt.agent_id)
        hits = mem_store.fts_search(conn, keywords.match, flt, limit, weights=keywords.weights) if keywords else []
    found = mem_store.fetch_many(conn, [mid for mid, _ in hits])
    scores = normalize_bm25(hits)
    return [{**_view(found[mid], LIST_FIELDS), "score": round(scores[mid], 6)} for mid, _ in hits if mid in found]


def similar(svc: MemoryService, memory_id: str, *, k: int, memory_type: str | None,
            agent_id: str = "default") -> list[dict[str, Any]]:
    conn = svc.db.reader()
    anchor = mem_store.get(conn, memory_id)
    if anchor is None or not visible(conn, anchor, agent_id):
        raise NotFound(f"memory {memory_id} not found")
    stored = emb_store.vector_for_hash(conn, anchor["content_hash"])
    index = svc.vector_index()
    if stored is None or index is None or stored[0].shape[0] != index.dimensions:
        raise NotFound(f"memory {memory_id} has no stored embedding", code="no_embedding")
    flt = MemoryFilter(agent_id=agent_id, types=[memory_type] if memory_type else [])
    scores = vector_candidates(svc, stored[0], flt, k + 1)
    scores.pop(memory_id, None)
    best = list(scores)[:k]
    rows = mem_store.fetch_many(conn, best)
    return [
        {"id": mid, "content": rows[mid]["content"], "type": rows[mid]["type"], "tags": json.loads(rows[mid]["tags"]),
         "score": round(scores[mid], 6), "confidence": rows[mid]["confidence"], "created_at": rows[mid]["created_at"]}
        for mid in best if mid in rows
    ]


def distinct_who(svc: MemoryService, agent_id: str) -> list[str]:
    return mem_store.distinct_who(svc.db.reader(), MemoryFilter(agent_id=agent_id))


class JobView(BaseModel):
    """A pipeline job: our camelCase fields, and the reference SDK's snake_case names of the same
    values (its JobStatus; `next_attempt_at` is when a failed job is due again)."""

    id: int
    jobType: str
    status: str
    memoryId: str | None
    documentId: str | None
    sessionKey: str | None
    attempts: int
    maxAttempts: int
    error: str | None
    result: dict[str, Any] | None  # counts only (_counts)
    createdAt: str
    updatedAt: str
    leasedAt: str | None
    completedAt: str | None
    failedAt: str | None
    job_type: str
    memory_id: str | None
    document_id: str | None
    max_attempts: int
    next_attempt_at: str | None
    created_at: str
    updated_at: str
    leased_at: str | None
    completed_at: str | None
    failed_at: str | None


def get_job(svc: MemoryService, job_id: int, *, agent_id: str = "default") -> JobView:
    """A job the agent may see: one about a memory or document it can read, or its own session."""
    conn = svc.db.reader()
    job = job_store.get(conn, job_id)
    if job is None or not _job_visible(conn, job, agent_id):
        raise NotFound(f"job {job_id} not found")
    return JobView(
        id=job["id"], jobType=job["job_type"], status=job["status"], memoryId=job["memory_id"],
        documentId=job["document_id"], sessionKey=job["session_key"], attempts=job["attempts"],
        maxAttempts=job["max_attempts"], error=job["error"], result=_counts(job["result"]),
        createdAt=job["created_at"], updatedAt=job["updated_at"], leasedAt=job["leased_at"],
        completedAt=job["completed_at"], failedAt=job["failed_at"], next_attempt_at=job["not_before"],
        **{k: job[k] for k in ("job_type", "memory_id", "document_id", "max_attempts", "created_at", "updated_at",
                               "leased_at", "completed_at", "failed_at")},
    )


def _job_visible(conn: apsw.Connection, job: Row, agent_id: str) -> bool:
    if job["memory_id"]:
        return visible(conn, mem_store.get(conn, job["memory_id"], include_deleted=True), agent_id)
    if job["document_id"]:
        return visible(conn, documents_store.get(conn, job["document_id"]), agent_id)
    if job["session_key"]:
        payload = json.loads(job["payload"] or "{}")
        return isinstance(payload, dict) and payload.get("agent_id", "default") == agent_id
    return True  # entity jobs: pipeline bookkeeping that names no one's content


def _counts(result: str | None) -> dict[str, Any] | None:
    """A job's result as counts only: its warnings quote memory text, and a job is not scoped to
    an agent (any reader may poll any job id)."""
    data = json.loads(result) if result else None
    if not isinstance(data, dict):
        return None
    return {k: v for k, v in data.items() if isinstance(v, (int, float, bool))}
