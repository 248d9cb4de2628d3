"""`prospective_index` jobs: lease a batch (one job per memory), generate each memory's hints
(stages/hints.py) on a small thread pool (HTTP LLM calls overlap), complete or fail each job."""

from __future__ import annotations

from signet_pipeline.memory.service import MemoryService
from signet_pipeline.pipeline.queue import PROSPECTIVE_INDEX, JobQueue
from signet_pipeline.pipeline.runner import JobBatch, in_flight, run_queue_jobs
from signet_pipeline.providers.llm import Llm
from signet_pipeline.stages.hints import HintsReport, generate_hints
from signet_pipeline.store import hints as hints_store


def run_hint_jobs(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int,
                  ids: list[int] | None = None) -> JobBatch[HintsReport]:
    cfg = svc.settings.pipeline
    return run_queue_jobs(
        svc.db, queue, (llm.name, llm.model), PROSPECTIVE_INDEX, limit=limit, ids=ids, target="memory_id",
        concurrency=in_flight(cfg, llm),
        work=lambda job, completion: generate_hints(svc, llm, job["memory_id"] or "", limit=cfg.hints.max,
                                                    timeout=cfg.hints.timeout / 1000, commit=completion),
        result=lambda report: {"hints": report.written, "skipped": report.skipped})


def drain(svc: MemoryService, llm: Llm, *, batch: int = 1000) -> int:
    """Run every due `prospective_index` job in process (evaluation, benchmarks); returns the
    hints written. Jobs that fail wait for their backoff, so the loop ends."""
    queue, written = JobQueue(svc.db), 0
    while reports := run_hint_jobs(svc, queue, llm, batch).reports:
        written += sum(r.written for r in reports)
    return written


def enqueue_backfill(svc: MemoryService, queue: JobQueue, limit: int) -> int:
    """Queue hint jobs for up to `limit` live memories that have none (written before hints were
    on, or while they were off); returns how many were queued."""
    ids = hints_store.live_without_hints(svc.db.reader(), limit)
    return sum(queue.enqueue(PROSPECTIVE_INDEX, memory_id=memory_id)[1] for memory_id in ids)
