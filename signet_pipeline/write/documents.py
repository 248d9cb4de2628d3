"""Documents through the API: queue one (its ingest job in the same transaction), list, read,
read its chunks, delete it (its chunk memories are soft-deleted with history rows)."""

from __future__ import annotations

import uuid
from typing import Any, Literal
from urllib.parse import urlparse

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

from signet_pipeline.errors import Forbidden, NotFound
from signet_pipeline.request_rules import HTTP_URL, NOT_GIVEN
from signet_pipeline.service import MemoryService
from signet_pipeline.store import documents as doc_store
from signet_pipeline.store import history as history_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store import memory_writes as writes
from signet_pipeline.store.queue import DOCUMENT_INGEST
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import AUTONOMOUS, Actor, ensure_writable

MAX_DOCUMENT_CHARS = 2_000_000  # text given inline (a URL's content is capped in bytes instead)


# Either a URL or a text, never both.
_ONE_SOURCE: dict[str, Any] = {
    "oneOf": [{"required": ["url"], "properties": {"url": {"type": "string"}, "content": NOT_GIVEN}},
              {"required": ["content"], "properties": {"content": {"type": "string"}, "url": NOT_GIVEN}}]}


class DocumentRequest(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, json_schema_extra=_ONE_SOURCE)

    url: str | None = Field(None, max_length=4096, pattern=HTTP_URL)
    content: str | None = Field(None, min_length=1, max_length=MAX_DOCUMENT_CHARS)
    title: str | None = Field(None, max_length=500)
    visibility: Literal["global", "private"] = "global"
    project: str | None = Field(None, max_length=1000)
    agent_id: str | None = Field(None, min_length=1, max_length=200,
                                 validation_alias=AliasChoices("agentId", "agent_id"))

    @model_validator(mode="after")
    def _one_source(self) -> DocumentRequest:
        if (self.url is None) == (self.content is None):
            raise ValueError("give either url or content")
        if self.url is not None:
            parsed = urlparse(self.url)
            if parsed.scheme not in ("http", "https") or not parsed.netloc:
                raise ValueError("url must be an http(s) URL")
        return self


class DocumentView(BaseModel):
    """A document and its ingest status: our camelCase fields, and the reference SDK's snake_case
    names of the same values (its DocumentRecord)."""

    id: str
    status: str
    title: str | None
    sourceType: str
    sourceUrl: str | None
    contentType: str | None
    contentLength: int | None
    chunkCount: int
    memoryCount: int
    error: str | None
    agentId: str
    visibility: str
    project: str | None
    createdAt: str
    updatedAt: str
    completedAt: str | None
    source_type: str
    source_url: str | None
    chunk_count: int
    memory_count: int
    created_at: str
    updated_at: str


class DocumentCreated(DocumentView):
    jobId: int  # GET /api/memory/jobs/{jobId}: the ingest job


class DocumentPage(BaseModel):
    documents: list[DocumentView]
    total: int
    limit: int
    offset: int


class DocumentChunk(BaseModel):
    index: int
    memoryId: str
    content: str
    deleted: bool
    # The SDK's names: the chunk is the memory `id`, at `chunk_index`.
    id: str
    type: str
    created_at: str
    chunk_index: int


class DocumentChunks(BaseModel):
    documentId: str
    chunks: list[DocumentChunk]
    count: int


class DocumentDeleted(BaseModel):
    id: str
    status: Literal["deleted"]
    memoriesDeleted: int  # chunk memories tombstoned (recoverable until retention purges them)
    memoriesRemoved: int  # the same count under the SDK's name


def _view(row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "status": row["status"], "sourceType": row["source_type"], "sourceUrl": row["source_url"],
            "title": row["title"], "contentType": row["content_type"], "contentLength": row["content_length"],
            "chunkCount": row["chunk_count"], "memoryCount": row["memory_count"], "error": row["error"],
            "agentId": row["agent_id"], "visibility": row["visibility"], "project": row["project"],
            "createdAt": row["created_at"], "updatedAt": row["updated_at"], "completedAt": row["completed_at"],
            **{k: row[k] for k in ("source_type", "source_url", "chunk_count", "memory_count", "created_at",
                                   "updated_at")}}


def create(svc: MemoryService, req: DocumentRequest, *, agent_id: str) -> DocumentCreated:
    ensure_writable(svc)
    document_id = str(uuid.uuid4())
    pipeline = svc.settings.pipeline
    with svc.db.write() as conn:
        now = now_iso()
        doc_store.insert(conn, {
            "id": document_id, "source_url": req.url, "source_type": "url" if req.url else "text",
            "raw_content": req.content, "title": req.title, "agent_id": agent_id, "visibility": req.visibility,
            "project": req.project, "created_at": now, "updated_at": now})
        job_id, _ = job_store.enqueue(conn, job_type=DOCUMENT_INGEST, document_id=document_id, now=now,
                                      max_attempts=pipeline.worker.max_retries)
        row = doc_store.get(conn, document_id)
    assert row is not None  # inserted above, in this transaction
    return DocumentCreated(**_view(row), jobId=job_id)


def _visible(svc: MemoryService, document_id: str, agent_id: str) -> dict[str, Any]:
    row = doc_store.visible(svc.db.reader(), document_id, agent_id)
    if row is None:
        raise NotFound(f"document {document_id} not found")
    return row


def get(svc: MemoryService, document_id: str, *, agent_id: str) -> DocumentView:
    return DocumentView(**_view(_visible(svc, document_id, agent_id)))


def page(svc: MemoryService, *, agent_id: str, status: str | None, limit: int, offset: int) -> DocumentPage:
    found, total = doc_store.page(svc.db.reader(), agent_id, status=status, limit=limit, offset=offset)
    return DocumentPage(documents=[DocumentView(**_view(r)) for r in found], total=total, limit=limit, offset=offset)


def chunks(svc: MemoryService, document_id: str, *, agent_id: str) -> DocumentChunks:
    _visible(svc, document_id, agent_id)
    found = [DocumentChunk(index=r["chunk_index"], memoryId=r["id"], content=r["content"],
                           deleted=bool(r["is_deleted"]), id=r["id"], type=r["type"], created_at=r["created_at"],
                           chunk_index=r["chunk_index"])
             for r in doc_store.chunks(svc.db.reader(), document_id)]
    return DocumentChunks(documentId=document_id, chunks=found, count=len(found))


def retire_chunks(conn, document_id: str, memory_ids: list[str], *, actor: Actor, reason: str, now: str) -> int:
    """Tombstone chunk memories of a document (recoverable, then purged by retention), a history row
    each, and unlink them; returns how many were live. Inside the caller's write transaction."""
    tombstoned = 0
    for memory_id in memory_ids:
        version = writes.soft_delete_if_live(conn, memory_id, now=now, actor=actor.name)
        if version is not None:
            tombstoned += 1
            history_store.record(conn, memory_id=memory_id, event="deleted", now=now, changed_by=actor.name,
                                 actor_type=actor.type, reason=reason, request_id=actor.request_id,
                                 metadata={"documentId": document_id, "toVersion": version})
    doc_store.unlink(conn, document_id, memory_ids)
    return tombstoned


def delete(svc: MemoryService, document_id: str, *, agent_id: str, actor: Actor,
           project_scope: str | None = None) -> DocumentDeleted:
    """The document and its links go; the chunk memories it created (and no other document
    shares) are tombstoned (recoverable, then purged by retention) with a history row each.
    An agent deletes only its own documents; a project-scoped token only its project's."""
    ensure_writable(svc)
    row = _visible(svc, document_id, agent_id)
    if (actor.type in AUTONOMOUS and row["agent_id"] != agent_id) or \
            (project_scope is not None and row["project"] != project_scope):
        raise Forbidden(f"document {document_id} is not this caller's to delete", code="scope_denied")
    with svc.db.write() as conn:
        tombstoned = retire_chunks(conn, document_id, doc_store.owned_chunk_ids(conn, document_id), actor=actor,
                                   reason="document deleted", now=now_iso())
        doc_store.delete(conn, document_id)
    return DocumentDeleted(id=document_id, status="deleted", memoriesDeleted=tombstoned, memoriesRemoved=tombstoned)
