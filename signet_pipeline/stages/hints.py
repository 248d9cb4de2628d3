"""Prospective hints (spec "Prospective Indexing"): questions a memory would help answer, asked of
the LLM after the memory is written and searched beside its content at recall time.

Replies are validated like every model reply (write/hints.py: question form, length, no echo of
the memory or the prompt, at most `hints.max`). After a batch's calls, one short transaction
replaces each memory's hints and completes its job (stages/drain/jobs.py run_write_batched_jobs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import apsw
from pydantic import BaseModel

from signet_pipeline.providers.llm import AnswersTasks, Llm
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.drain.jobs import JobBatch, in_flight, run_write_batched_jobs
from signet_pipeline.store import hints as hints_store
from signet_pipeline.store import memories as mem_store
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


@dataclass
class Generated:
    """A memory's hints before they are written: the provider's answer, validated."""

    report: HintsReport
    content_hash: str | None = None  # of the content the hints were generated from; None: memory gone


def generate_hints(svc: MemoryService, llm: Llm, memory_id: str, *, limit: int,
                   timeout: float | None = None) -> Generated:
    """The provider call and validation, no write. Raises ProviderError when the provider fails
    (the job then retries)."""
    report = HintsReport(memory_id=memory_id)
    row = mem_store.get(svc.db.reader(), memory_id)
    if row is None:
        report.skipped = "memory no longer exists"
        return Generated(report)
    if isinstance(llm, AnswersTasks):
        reply: Any = llm.hints(row["content"], limit)
    else:
        reply = llm.generate(PROMPT.format(content=row["content"], max=limit), json=True, timeout=timeout)
    report.hints, report.warnings = parse_hints(reply, row["content"], limit)
    return Generated(report, row["content_hash"])


def store_hints(conn: apsw.Connection, generated: Generated, model: str) -> HintsReport:
    """Inside a write transaction: the memory's hints replaced by the generated ones, unless the
    memory was deleted or changed meanwhile."""
    report = generated.report
    if generated.content_hash is None:
        return report
    report.written = hints_store.replace(conn, memory_id=report.memory_id, content_hash=generated.content_hash,
                                         hints=report.hints, model=model, now=now_iso())
    if report.hints and not report.written:
        report.skipped = "memory deleted or changed while its hints were generated"
    return report


def run_hint_jobs(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int,
                  ids: list[int] | None = None) -> JobBatch[HintsReport]:
    cfg = svc.settings.pipeline
    return run_write_batched_jobs(
        svc.db, queue, (llm.name, llm.model), PROSPECTIVE_INDEX, limit=limit, ids=ids, target="memory_id",
        concurrency=in_flight(cfg, llm),
        prepare=lambda job: generate_hints(svc, llm, job["memory_id"] or "", limit=cfg.hints.max,
                                           timeout=cfg.hints.timeout / 1000),
        store=lambda conn, _job, generated: store_hints(conn, generated, llm.model),
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
