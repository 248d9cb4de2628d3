"""Drain runs: one worker works a job type's queue batch after batch, so a backlog costs a few
Dagster runs rather than one per batch (docs/decisions.md, "Drain runs").

`drain` loops until idle, out of budget (or past it while another run waits), at `max_jobs` or once
its worker is declared dead; `drain_lanes` runs several drains in one run. `Worker` is the drain's
row in queue_workers, kept fresh by a heartbeat thread; `release_dead_workers` frees a dead one's leases.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from signet_pipeline.config_sections import WorkerConfig
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.db import Database
from signet_pipeline.timeutil import now_iso, to_iso

log = logging.getLogger("signet.pipeline")

BEAT_S = 5.0
STALE_S = 30.0  # six missed beats


@dataclass(frozen=True)
class DrainPolicy:
    budget_s: float
    idle_s: float
    poll_s: float = 0.5
    max_jobs: int = 0  # 0: no cap
    max_s: float | None = None  # past budget_s, drain on alone up to this; None: budget_s is a hard stop

    @classmethod
    def from_settings(cls, worker: WorkerConfig, *, max_jobs: int = 0, budget_s: float | None = None,
                      idle_s: float | None = None) -> DrainPolicy:
        """The settings' budget, its extension alone and the linger (worker.runBudgetMs, runMaxMs,
        runIdleMs); a budget given (an operator's run config) is a hard stop."""
        return cls(budget_s=worker.run_budget_ms / 1000 if budget_s is None else budget_s, max_jobs=max_jobs,
                   idle_s=worker.run_idle_ms / 1000 if idle_s is None else idle_s,
                   max_s=max(worker.run_budget_ms, worker.run_max_ms) / 1000 if budget_s is None else None)


@dataclass
class DrainReport:
    jobs: int = 0
    batches: int = 0
    seconds: float = 0.0
    stopped: str = ""  # empty | yielded | budget | max_jobs | lost | interrupted

    @property
    def jobs_per_s(self) -> float:
        return round(self.jobs / self.seconds, 2) if self.seconds > 0 else 0.0

    def as_metadata(self) -> dict[str, float | int | str]:
        return {"drain_jobs": self.jobs, "drain_batches": self.batches, "drain_seconds": round(self.seconds, 2),
                "drain_jobs_per_s": self.jobs_per_s, "drain_stopped": self.stopped}


class Worker:
    """A drain worker's row in queue_workers and its heartbeat thread (use as a context manager)."""

    def __init__(self, db: Database, job_type: str, owner: str, *, beat_s: float = BEAT_S):
        self.db, self.job_type, self.owner, self.beat_s = db, job_type, owner, beat_s
        self.jobs = self.batches = 0
        self.alive = True
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"signet-beat-{job_type}", daemon=True)

    def __enter__(self) -> Worker:
        with self.db.write() as conn:
            job_store.register_worker(conn, owner=self.owner, job_type=self.job_type, pid=os.getpid(),
                                      host=socket.gethostname(), now=now_iso())
        self._thread.start()
        return self

    def progress(self, jobs: int) -> None:
        with self._lock:  # lanes of one run report from their threads
            self.jobs += jobs
            self.batches += 1

    def beat(self) -> None:
        with self.db.write() as conn:
            self.alive = job_store.beat(conn, owner=self.owner, now=now_iso(), jobs_done=self.jobs,
                                        batches=self.batches) and self.alive
        if not self.alive:
            log.warning("worker %s was declared dead (its leases were released); stopping", self.owner)

    def _run(self) -> None:
        while not self._stop.wait(self.beat_s):
            try:
                self.beat()
            except Exception:  # noqa: BLE001 - a missed beat is retried; STALE_S allows several
                log.exception("heartbeat of %s failed", self.owner)

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=self.beat_s + 1)
        # Interrupted (a BaseException that is no Exception: Dagster's interrupt when the run is
        # canceled, Ctrl-C): the stop was asked for, so the jobs in hand go back without losing an attempt.
        interrupted = exc_type is not None and not issubclass(exc_type, Exception)
        error = "run canceled mid-job" if interrupted else "worker stopped mid-job"
        with self.db.write() as conn:
            released = job_store.release_owner(conn, self.owner, now=now_iso(), error=error, refund=interrupted)
            job_store.remove_worker(conn, self.owner)
        if released:
            log.warning("worker %s stopped holding %d lease(s); released them", self.owner, released)


def drain(step: Callable[[int], int], policy: DrainPolicy, *, batch_size: int, worker: Worker | None = None,
          yield_when: Callable[[], bool] | None = None, clock: Callable[[], float] = time.monotonic,
          sleep: Callable[[float], None] = time.sleep, halt: threading.Event | None = None) -> DrainReport:
    """`halt`: set by another lane of the same run that was interrupted; this lane stops after its batch."""
    report = DrainReport()
    started = clock()
    idle_since: float | None = None
    while True:
        if halt is not None and halt.is_set():
            report.stopped = "interrupted"
            break
        if policy.max_jobs and report.jobs >= policy.max_jobs:
            report.stopped = "max_jobs"
            break
        elapsed = clock() - started
        if elapsed >= policy.budget_s and (policy.max_s is None or elapsed >= policy.max_s or yield_when is None):
            report.stopped = "budget"
            break
        # Past the budget: drain on only while alone.
        if elapsed >= policy.budget_s and yield_when is not None and yield_when():
            report.stopped = "yielded"
            break
        if worker is not None and not worker.alive:
            report.stopped = "lost"
            break
        limit = min(batch_size, policy.max_jobs - report.jobs) if policy.max_jobs else batch_size
        leased = step(limit)
        if leased:
            report.jobs += leased
            report.batches += 1
            if worker is not None:
                worker.progress(leased)
            idle_since = None
            continue
        now = clock()
        idle_since = now if idle_since is None else idle_since
        if now - idle_since >= policy.idle_s:
            report.stopped = "empty"
            break
        if yield_when is not None and yield_when():
            report.stopped = "yielded"
            break
        sleep(min(policy.poll_s, policy.idle_s - (now - idle_since)))
    report.seconds = clock() - started
    return report


def drain_lanes(steps: Sequence[Callable[[int], int]], policy: DrainPolicy, *, batch_size: int,
                worker: Worker | None = None, yield_when: Callable[[], bool] | None = None) -> DrainReport:
    """`drain` of each step at once, the first on this thread, the others on their own (the lanes
    of one run: stages whose model calls may overlap). The report sums the lanes' jobs and batches;
    its time is the longest lane's, its stop reason the first lane's."""
    if len(steps) == 1:
        return drain(steps[0], policy, batch_size=batch_size, worker=worker, yield_when=yield_when)
    halt = threading.Event()
    with ThreadPoolExecutor(len(steps) - 1, thread_name_prefix="signet-lane") as pool:
        others = [pool.submit(drain, step, policy, batch_size=batch_size, worker=worker, yield_when=yield_when,
                              halt=halt) for step in steps[1:]]
        try:
            reports = [drain(steps[0], policy, batch_size=batch_size, worker=worker, yield_when=yield_when)]
        except BaseException:
            # Dagster interrupts the run's main thread only: the other lanes stop after their batch,
            # so leaving the pool (which waits for them) takes one batch, not a whole budget.
            halt.set()
            raise
        reports += [future.result() for future in others]
    return DrainReport(jobs=sum(r.jobs for r in reports), batches=sum(r.batches for r in reports),
                       seconds=max(r.seconds for r in reports), stopped=reports[0].stopped)


def release_dead_workers(db: Database, *, stale_s: float = STALE_S) -> list[str]:
    """Workers that stopped beating: their leases back to pending (or dead at their last attempt),
    their rows removed. Returns their owners (a Dagster run id each, for the sensor to fail)."""
    cutoff = to_iso(datetime.now(UTC) - timedelta(seconds=stale_s))
    if not any(row["beat_at"] < cutoff for row in job_store.workers(db.reader())):
        return []  # the common case: a read, no write transaction per sensor tick
    dead: list[str] = []
    with db.write() as conn:
        for row in job_store.workers(conn):
            if row["beat_at"] < cutoff:
                released = release_worker(db, row["owner"], "worker stopped beating (process gone)")
                log.warning("worker %s (%s, pid %s) stopped beating; released %d lease(s)", row["owner"],
                            row["job_type"], row["pid"], released)
                dead.append(row["owner"])
    return dead


def release_worker(db: Database, owner: str, reason: str) -> int:
    """A worker known to be gone: its leases back to pending (or dead at their last attempt) and
    its row removed. Returns the leases released."""
    with db.write() as conn:
        released = job_store.release_owner(conn, owner, now=now_iso(), error=reason)
        job_store.remove_worker(conn, owner)
    return released
