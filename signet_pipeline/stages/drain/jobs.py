"""Running a batch of queue jobs whose work is provider calls: lease, do each job (on a small
thread pool when `concurrency` > 1: HTTP calls overlap), complete it with its report or fail it
(retry with backoff, dead at max attempts), and write the provider outcomes for the diagnostics
once, after every call.

- run_queue_jobs (document ingest, connector syncs, session summaries): `work(job, completion)`
  does the job, its writes in its own transactions; it may call `completion(conn, report)` inside
  the one that writes its result, so work and completion commit together; otherwise the job is
  completed after it returns. Long jobs are leased one at a time (`lease_each`), so a job's lease
  clock starts when its work does.
- run_write_batched_jobs (hints, structural classification): every job's calls first, then one
  write transaction for the batch, each job's writes and completion in a savepoint of their own.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import apsw

from signet_pipeline.analytics import ProviderCalls
from signet_pipeline.config_sections import PipelineV2Config
from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.llm import AnswersTasks, Llm
from signet_pipeline.store.db import Database, Row
from signet_pipeline.store.queue import Completion, JobQueue, LeaseLost

R = TypeVar("R")
P = TypeVar("P")
log = logging.getLogger("signet.pipeline")


def in_flight(pipeline: PipelineV2Config, llm: Llm) -> int:
    """Jobs a run works at once: with an HTTP model their calls overlap (extraction.concurrency);
    the rules provider is CPU-bound Python, where threads only contend for the GIL."""
    return 1 if isinstance(llm, AnswersTasks) else pipeline.llm_concurrency


@dataclass
class JobBatch(Generic[R]):
    reports: list[R] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # "<target>: <provider error>", retried later
    dead: int = 0
    leased: int = 0
    llm_ms: list[float] = field(default_factory=list)

    def add(self, other: JobBatch[R]) -> int:
        """Fold another batch in (a drain run's totals); returns that batch's leased jobs."""
        self.reports += other.reports
        self.failed += other.failed
        self.dead += other.dead
        self.leased += other.leased
        self.llm_ms += other.llm_ms
        return other.leased


def run_queue_jobs(db: Database, queue: JobQueue, provider: tuple[str, str], job_type: str, *, limit: int,
                   ids: list[int] | None, work: Callable[[Row, Completion], R], result: Callable[[R], dict[str, Any]],
                   target: str, concurrency: int = 1, lease_each: bool = False,
                   provider_event: str = "llm.generate") -> JobBatch[R]:
    """`work(job, completion)` makes the provider calls (raising ProviderError to retry the job); `result(report)`
    is stored on the completed job; `target` names the job's column shown in failures; `provider`
    (name, model) is what the outcomes are recorded under. Any other exception fails the job too
    (with its type in the error), so one bad job neither strands its batch nor sits leased;
    LeaseLost leaves the job to whoever holds it now."""
    batch: JobBatch[R] = JobBatch()
    calls = ProviderCalls()

    def one(job: Row) -> None:
        started = time.perf_counter()
        completion = Completion(job, result)
        try:
            report, _ = calls.call(work, job, completion)
        except Exception as exc:  # noqa: BLE001 - provider errors retry; anything else is recorded, not raised
            _failed(batch, queue, job, exc, job_type, target)
            return
        finally:
            batch.llm_ms.append((time.perf_counter() - started) * 1000)
        if completion.committed or queue.complete(job, result(report)):
            batch.reports.append(report)
        else:
            batch.failed.append(f"{job[target]}: lease lost before completion")

    if lease_each:
        for _ in range(limit):
            leased = queue.lease([job_type], limit=1, ids=ids)
            if not leased:
                break
            batch.leased += 1
            one(leased[0])
        calls.flush(db, provider=provider[0], model=provider[1], event=provider_event)
        return batch
    jobs = queue.lease([job_type], limit=limit, ids=ids)
    batch.leased = len(jobs)
    if concurrency > 1 and len(jobs) > 1:
        with ThreadPoolExecutor(min(concurrency, len(jobs))) as pool:
            list(pool.map(one, jobs))
    else:
        for job in jobs:
            one(job)
    calls.flush(db, provider=provider[0], model=provider[1], event=provider_event)
    return batch


def _failed(batch: JobBatch, queue: JobQueue, job: Row, exc: Exception, job_type: str, target: str) -> None:
    """A job that raised: LeaseLost leaves it to whoever holds it now; anything else fails it
    (retry with backoff, dead at max attempts), with its type in the error unless a provider's."""
    if isinstance(exc, LeaseLost):
        batch.failed.append(f"{job[target]}: {exc}")
        return
    if not isinstance(exc, ProviderError):
        log.error("%s job %s failed", job_type, job["id"], exc_info=exc)
    error = str(exc) if isinstance(exc, ProviderError) else f"{type(exc).__name__}: {exc}"
    batch.failed.append(f"{job[target]}: {error}")
    batch.dead += queue.fail(job, error) == "dead"


def run_write_batched_jobs(db: Database, queue: JobQueue, provider: tuple[str, str], job_type: str, *, limit: int,
                           ids: list[int] | None, prepare: Callable[[Row], P],
                           store: Callable[[apsw.Connection, Row, P], R],
                           result: Callable[[R], dict[str, Any]], target: str, concurrency: int = 1,
                           provider_event: str = "llm.generate") -> JobBatch[R]:
    """Jobs whose provider call precedes a short write of their own (hints, classification): every
    job's `prepare(job)` first (its reads and provider calls, never a write; on a small pool when
    `concurrency` > 1), then ONE write transaction for the batch, in which each job's `store(conn,
    job, prepared)` and its completion share a savepoint: a job commits with its work or not at all,
    and one that raises or lost its lease rolls back alone. One transaction instead of one per job:
    a job's write is a fraction of a millisecond, a transaction's begin and commit cost more, and
    across processes each is a turn at the writer lock (the API's remembers take the others).
    Failures are handled as in run_queue_jobs."""
    batch: JobBatch[R] = JobBatch()
    calls = ProviderCalls()
    jobs = queue.lease([job_type], limit=limit, ids=ids)
    batch.leased = len(jobs)
    prepared: list[tuple[Row, P] | None] = [None] * len(jobs)
    failed: list[tuple[Row, Exception]] = []

    def one(i: int) -> None:
        started = time.perf_counter()
        try:
            prepared[i] = (jobs[i], calls.call(prepare, jobs[i])[0])
        except Exception as exc:  # noqa: BLE001 - recorded per job, after the batch's calls
            failed.append((jobs[i], exc))
        finally:
            batch.llm_ms.append((time.perf_counter() - started) * 1000)

    if concurrency > 1 and len(jobs) > 1:
        with ThreadPoolExecutor(min(concurrency, len(jobs))) as pool:
            list(pool.map(one, range(len(jobs))))
    else:
        for i in range(len(jobs)):
            one(i)
    if any(prepared):
        with db.write() as conn:
            for job, value in filter(None, prepared):
                try:
                    with conn:  # a savepoint: this job's writes and completion, or none of them
                        report = store(conn, job, value)
                        Completion(job, result)(conn, report)
                except Exception as exc:  # noqa: BLE001 - one job's failure is not the batch's
                    failed.append((job, exc))
                else:
                    batch.reports.append(report)
    for job, error in failed:
        _failed(batch, queue, job, error, job_type, target)
    calls.flush(db, provider=provider[0], model=provider[1], event=provider_event)
    return batch
