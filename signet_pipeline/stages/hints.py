"""Prospective hints (spec "Prospective Indexing"): questions a memory would help answer, asked of
the LLM after the memory is written and searched beside its content at recall time.

Replies are validated like every model reply (write/hints.py: question form, length, no echo of
the memory or the prompt, at most `hints.max`). The write replaces the memory's hints in one short
transaction after the call.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from signet_pipeline.providers.llm import AnswersTasks, Llm
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.drain.jobs import JobBatch, in_flight, run_queue_jobs
from signet_pipeline.store import hints as hints_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Commit
from signet_pipeline.store.queue import PROSPECTIVE_INDEX, JobQueue
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.hints import parse_hints

PROMPT = """A memory was saved for an AI agent:

{content}

Imagine {max} different questions a user might ask later that this memory would help answer. Use the
words such a user would use (synonyms, categories, the reason they would ask), not only the memory's words.
Return ONLY a JSON object: {{"hints": ["question?", ...]}}
"""


class HintsReport(BaseModel):
    memory_id: str
    hints: list[str] = []
    written: int = 0
    warnings: list[str] = []
    skipped: str | None = None


def generate_hints(svc: MemoryService, llm: Llm, memory_id: str, *, limit: int, timeout: float | None = None,
                   commit: Commit | None = None) -> HintsReport:
    """Raises ProviderError when the provider fails (the job then retries). `commit` runs last in
    the write transaction (the queue completes the job there)."""
    report = HintsReport(memory_id=memory_id)
    row = mem_store.get(svc.db.reader(), memory_id)
    if row is None:
        report.skipped = "memory no longer exists"
        return report
    if isinstance(llm, AnswersTasks):
        reply: Any = llm.hints(row["content"], limit)
    else:
        reply = llm.generate(PROMPT.format(content=row["content"], max=limit), json=True, timeout=timeout)
    report.hints, report.warnings = parse_hints(reply, row["content"], limit)
    with svc.db.write() as conn:
        report.written = hints_store.replace(conn, memory_id=memory_id, content_hash=row["content_hash"],
                                             hints=report.hints, model=llm.model, now=now_iso())
        if commit is not None:
            commit(conn, report)
    if report.hints and not report.written:
        report.skipped = "memory deleted or changed while its hints were generated"
    return report


def run_hint_jobs(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int,
                  ids: list[int] | None = None) -> JobBatch[HintsReport]:
    cfg = svc.settings.pipeline
    return run_queue_jobs(
        svc.db, queue, (llm.name, llm.model), PROSPECTIVE_INDEX, limit=limit, ids=ids, target="memory_id",
        concurrency=in_flight(cfg, llm),
        work=lambda job, completion: generate_hints(svc, llm, job["memory_id"] or "", limit=cfg.hints.max,
                                                    timeout=cfg.hints.timeout / 1000, commit=completion),
        result=lambda report: {"hints": report.written, "skipped": report.skipped})


def drain_hints(svc: MemoryService, llm: Llm, *, batch: int = 1000) -> int:
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
