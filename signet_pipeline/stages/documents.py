"""Document ingest (spec "Document Ingest"): fetch or read the content, chunk it, and write each
chunk as a `document_chunk` memory (importance 0.3, tagged with the title) linked to the
document. Every status change (extracting -> chunking -> embedding -> indexing -> done, or
failed) is its own short transaction, so the API shows progress; the fetch and the embedding
calls run outside any transaction. Chunks go through remember_many in slices (one embedding call
and one short write each), so a chunk already stored for the same agent is linked, not copied.
"""

from __future__ import annotations

import hashlib
import time

from pydantic import BaseModel

from signet_pipeline.errors import FetchError, ProviderError
from signet_pipeline.models import RememberRequest
from signet_pipeline.providers.fetch import PERMANENT, chunk_text, fetch_url
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.drain.jobs import JobBatch, run_queue_jobs
from signet_pipeline.store import documents as doc_store
from signet_pipeline.store.queue import DOCUMENT_INGEST, JobQueue
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.documents import retire_chunks
from signet_pipeline.write.remember import Actor, remember_many

CHUNK_TYPE = "document_chunk"
CHUNK_IMPORTANCE = 0.3
SLICE = 32  # chunks per embedding call and write transaction
ACTOR = Actor(name="document-ingest", type="pipeline")


class IngestReport(BaseModel):
    document_id: str
    status: str = "done"
    title: str | None = None
    chunks: int = 0
    memories: int = 0
    deduped: int = 0
    retired: int = 0  # chunks of the document's previous text it no longer has
    bytes: int = 0
    elapsed_ms: float = 0.0
    skipped: str | None = None


def _status(svc: MemoryService, document_id: str, status: str, **fields) -> None:
    with svc.db.write() as conn:
        doc_store.set_status(conn, document_id, status, now=now_iso(), **fields)


def ingest(svc: MemoryService, document_id: str) -> IngestReport:
    """Raises ProviderError (fetch or embedding failed) after marking the document failed; the
    job then retries with backoff."""
    started = time.perf_counter()
    report = IngestReport(document_id=document_id)
    src = doc_store.source(svc.db.reader(), document_id)
    if src is None:
        report.status, report.skipped = "skipped", "document deleted"
        return report
    cfg = svc.settings.pipeline.documents
    try:
        _status(svc, document_id, "extracting")
        if src["source_type"] == "url":
            fetched = fetch_url(src["source_url"], max_bytes=cfg.max_content_bytes,
                                allow_private=cfg.allow_private_urls)
            content, content_type, title, report.bytes = (fetched.content, fetched.content_type, fetched.title,
                                                          fetched.byte_length)
        else:
            content, content_type, title = src["raw_content"] or "", "text/plain", None
            report.bytes = len(content.encode("utf-8"))
        report.title = src["title"] or title
        _status(svc, document_id, "chunking", title=report.title, content_type=content_type,
                content_hash=hashlib.sha256(content.encode("utf-8")).hexdigest())
        chunks = chunk_text(content, size=cfg.chunk_size, overlap=cfg.chunk_overlap)
        report.chunks = len(chunks)
        _status(svc, document_id, "embedding", chunk_count=len(chunks))
        tags = [report.title[:100]] if report.title else None
        results = remember_many(svc, [
            RememberRequest(content=chunk, type=CHUNK_TYPE, importance=CHUNK_IMPORTANCE, tags=tags,
                            sourceType="document", sourceId=document_id, agentId=src["agent_id"],
                            visibility=src["visibility"], project=src["project"]) for chunk in chunks],
            ACTOR, chunk_size=SLICE, pipeline_jobs=False)
        _status(svc, document_id, "indexing")
        kept = {r.id for r in results}
        with svc.db.write() as conn:
            # Text that changed (a connector re-read the file): the chunks it no longer has retire.
            stale = [m for m in doc_store.owned_chunk_ids(conn, document_id) if m not in kept]
            report.retired = retire_chunks(conn, document_id, stale, actor=ACTOR, reason="document changed",
                                           now=now_iso())
            doc_store.link(conn, document_id, [(i, r.id) for i, r in enumerate(results)])
        report.memories = len({r.id for r in results})
        report.deduped = sum(r.deduped for r in results)
        _status(svc, document_id, "done", memory_count=report.memories, completed_at=now_iso())
    except FetchError as exc:
        _status(svc, document_id, "failed", error=exc.message[:500])
        if exc.code in PERMANENT:  # the job completes: retrying the same URL cannot help
            report.status, report.skipped = "failed", exc.message[:500]
            return report
        raise ProviderError(exc.message, code=exc.code) from exc
    except ProviderError as exc:
        _status(svc, document_id, "failed", error=exc.message[:500])
        raise
    except Exception as exc:  # never leave a document stuck mid-way: failed, and the job retries
        _status(svc, document_id, "failed", error=f"{exc.__class__.__name__}: {exc}"[:500])
        raise ProviderError(f"document {document_id}: {exc.__class__.__name__}: {exc}") from exc
    report.elapsed_ms = round((time.perf_counter() - started) * 1000, 1)
    return report


def run_document_jobs(svc: MemoryService, queue: JobQueue, limit: int,
                      ids: list[int] | None = None) -> JobBatch[IngestReport]:
    return run_queue_jobs(
        svc.db, queue, ("document-fetch", svc.embedder.model), DOCUMENT_INGEST, limit=limit, ids=ids,
        target="document_id", provider_event="provider.call",
        work=lambda job, _completion: ingest(svc, job["document_id"] or ""),
        result=lambda report: report.model_dump(exclude={"document_id"}))
