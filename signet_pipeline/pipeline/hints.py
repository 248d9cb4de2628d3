"""`prospective_index` jobs: lease a batch (one job per memory), generate each memory's hints
(stages/hints.py) on a small thread pool (HTTP LLM calls overlap), complete or fail each job."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from signet_pipeline.errors import ProviderError
from signet_pipeline.memory.service import MemoryService
from signet_pipeline.pipeline.provider_health import ProviderCalls
from signet_pipeline.pipeline.queue import PROSPECTIVE_INDEX, JobQueue
from signet_pipeline.providers.llm import Llm
from signet_pipeline.stages.hints import HintsReport, generate_hints
from signet_pipeline.store.db import Row


@dataclass
class HintsBatch:
    reports: list[HintsReport] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    dead: int = 0
    llm_ms: list[float] = field(default_factory=list)


def run_hint_jobs(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int,
                  ids: list[int] | None = None) -> HintsBatch:
    cfg = svc.settings.pipeline
    batch = HintsBatch()
    calls = ProviderCalls()

    def one(job: Row) -> None:
        started = time.perf_counter()
        try:
            report, _ = calls.call(generate_hints, svc, llm, job["memory_id"] or "", limit=cfg.hints.max,
                                   timeout=cfg.hints.timeout / 1000)
        except ProviderError as exc:
            batch.failed.append(f"{job['memory_id']}: {exc}")
            batch.dead += queue.fail(job, str(exc)) == "dead"
            return
        finally:
            batch.llm_ms.append((time.perf_counter() - started) * 1000)
        batch.reports.append(report)
        queue.complete(job["id"], {"hints": report.written, "skipped": report.skipped})

    jobs = queue.lease([PROSPECTIVE_INDEX], limit=limit, ids=ids)
    with ThreadPoolExecutor(max(1, min(cfg.worker.concurrency, len(jobs) or 1))) as pool:
        list(pool.map(one, jobs))
    calls.flush(svc.db, provider=llm.name, model=llm.model)
    return batch


def drain(svc: MemoryService, llm: Llm, *, batch: int = 1000) -> int:
    """Run every due `prospective_index` job in process (evaluation, benchmarks); returns the
    hints written. Jobs that fail wait for their backoff, so the loop ends."""
    queue, written = JobQueue(svc.db), 0
    while reports := run_hint_jobs(svc, queue, llm, batch).reports:
        written += sum(r.written for r in reports)
    return written
