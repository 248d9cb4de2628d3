"""`session_summary` jobs: lease a batch (one job per ended session with a transcript), summarize
each session (stages/session_summary.py), complete or fail each job (retry with backoff, dead at max)."""

from __future__ import annotations

import json

from signet_pipeline.memory.service import MemoryService
from signet_pipeline.pipeline.queue import SESSION_SUMMARY, JobQueue
from signet_pipeline.pipeline.runner import JobBatch, run_queue_jobs
from signet_pipeline.providers.llm import Llm
from signet_pipeline.stages.session_summary import SessionSummaryReport, summarize_session


def run_session_jobs(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int,
                     ids: list[int] | None = None) -> JobBatch[SessionSummaryReport]:
    cfg = svc.settings.pipeline
    return run_queue_jobs(
        svc.db, queue, (llm.name, llm.model), SESSION_SUMMARY, limit=limit, ids=ids, target="session_key",
        concurrency=cfg.worker.concurrency,
        work=lambda job: summarize_session(svc, llm, job["session_key"] or "", json.loads(job["payload"] or "{}"),
                                           timeout=cfg.extraction.timeout / 1000),
        result=lambda report: report.model_dump(exclude={"session_key", "memory_ids", "warnings"})
        | {"memoriesSaved": len(report.memory_ids), "warnings": report.warnings[:20]})
