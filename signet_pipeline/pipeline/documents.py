"""`document_ingest` jobs: lease a batch (one job per document), ingest each (stages/documents.py),
complete or fail each job (retry with backoff, dead at max)."""

from __future__ import annotations

from signet_pipeline.memory.service import MemoryService
from signet_pipeline.pipeline.queue import DOCUMENT_INGEST, JobQueue
from signet_pipeline.pipeline.runner import JobBatch, run_queue_jobs
from signet_pipeline.stages.documents import IngestReport, ingest


def run_document_jobs(svc: MemoryService, queue: JobQueue, limit: int,
                      ids: list[int] | None = None) -> JobBatch[IngestReport]:
    return run_queue_jobs(
        svc.db, queue, ("document-fetch", svc.embedder.model), DOCUMENT_INGEST, limit=limit, ids=ids,
        target="document_id", work=lambda job, _completion: ingest(svc, job["document_id"] or ""),
        result=lambda report: report.model_dump(exclude={"document_id"}))
