"""Running a batch of queue jobs whose work is one provider call each (structural classification,
hints, document ingest): lease, do each job (on a small thread pool when `concurrency` > 1: HTTP calls overlap),
complete it with its report or fail it (retry with backoff, dead at max attempts), and write the
provider outcomes for the diagnostics once, after every call."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from signet_pipeline.errors import ProviderError
from signet_pipeline.pipeline.provider_health import ProviderCalls
from signet_pipeline.pipeline.queue import JobQueue
from signet_pipeline.store.db import Database, Row

R = TypeVar("R")


@dataclass
class JobBatch(Generic[R]):
    reports: list[R] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # "<target>: <provider error>", retried later
    dead: int = 0
    llm_ms: list[float] = field(default_factory=list)


def run_queue_jobs(db: Database, queue: JobQueue, provider: tuple[str, str], job_type: str, *, limit: int,
                   ids: list[int] | None, work: Callable[[Row], R], result: Callable[[R], dict[str, Any]], target: str,
                   concurrency: int = 1) -> JobBatch[R]:
    """`work(job)` makes the provider call (raising ProviderError to retry the job); `result(report)`
    is stored on the completed job; `target` names the job's column shown in failures; `provider`
    (name, model) is what the outcomes are recorded under."""
    batch: JobBatch[R] = JobBatch()
    calls = ProviderCalls()

    def one(job: Row) -> None:
        started = time.perf_counter()
        try:
            report, _ = calls.call(work, job)
        except ProviderError as exc:
            batch.failed.append(f"{job[target]}: {exc}")
            batch.dead += queue.fail(job, str(exc)) == "dead"
            return
        finally:
            batch.llm_ms.append((time.perf_counter() - started) * 1000)
        batch.reports.append(report)
        queue.complete(job["id"], result(report))

    jobs = queue.lease([job_type], limit=limit, ids=ids)
    if concurrency > 1 and len(jobs) > 1:
        with ThreadPoolExecutor(min(concurrency, len(jobs))) as pool:
            list(pool.map(one, jobs))
    else:
        for job in jobs:
            one(job)
    calls.flush(db, provider=provider[0], model=provider[1])
    return batch
