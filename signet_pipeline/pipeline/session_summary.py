"""`session_summary` jobs: one job per new or changed session transcript, leased one at a time (a
job can run many provider calls: its lease starts when it does, and a heartbeat extends it per
window), summarized by stages/session_summary.py, then completed or failed (retry with backoff,
dead at max)."""

from __future__ import annotations

import json

from signet_pipeline.memory.service import MemoryService
from signet_pipeline.pipeline.queue import SESSION_SUMMARY, JobQueue
from signet_pipeline.pipeline.runner import JobBatch, run_queue_jobs
from signet_pipeline.providers.llm import Llm
from signet_pipeline.stages.session_summary import SessionSummaryReport, SummaryPayload, summarize_session


def run_session_jobs(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int,
                     ids: list[int] | None = None) -> JobBatch[SessionSummaryReport]:
    cfg = svc.settings.pipeline
    return run_queue_jobs(
        svc.db, queue, (llm.name, llm.model), SESSION_SUMMARY, limit=limit, ids=ids, target="session_key",
        lease_each=True,
        work=lambda job, _completion: summarize_session(
            svc, llm, job["session_key"] or "", SummaryPayload.model_validate(json.loads(job["payload"] or "{}")),
            timeout=cfg.extraction.timeout / 1000, heartbeat=queue.keeper(job)),
        result=lambda report: report.model_dump(exclude={"session_key", "memory_ids", "warnings"})
        | {"memoriesSaved": len(report.memory_ids), "warnings": report.warnings[:20]})
