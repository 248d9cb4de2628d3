"""The one job queue every background stage uses (memory_jobs; spec "Job Queue").

Leases are atomic write transactions and belong to an owner (a Dagster run id, or this process's
own name): only that owner, in that attempt, completes or fails the job. A failed job waits
`min(1 s x 2^(attempts-1), 30 s)` plus up to 500 ms of jitter before it is due again (recorded as
`not_before`, so the wait survives restarts and holds across processes); at max_attempts it is
`dead`. Stale leases (a worker died) return to pending after the lease timeout.
"""

from __future__ import annotations

import os
import random
import socket
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import apsw

from signet_pipeline.config_sections import PipelineV2Config
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.db import Database, Row
from signet_pipeline.timeutil import now_iso, to_iso

EXTRACT = "extract"
PROSPECTIVE_INDEX = "prospective_index"
STRUCTURAL_CLASSIFY = "structural_classify"
DOCUMENT_INGEST = "document_ingest"
SESSION_SUMMARY = "session_summary"
CONNECTOR_SYNC = "connector_sync"
JOB_TYPES = (EXTRACT, PROSPECTIVE_INDEX, STRUCTURAL_CLASSIFY, DOCUMENT_INGEST, SESSION_SUMMARY, CONNECTOR_SYNC)

BASE_DELAY_S = 1.0


class LeaseLost(Exception):
    """A job's lease was released or reaped: another worker may hold the job now, so this one must
    neither write nor complete it."""


class Completion:
    """Completes a leased job inside the write transaction that stores its work, so the work and
    the completion commit together (a crash between the two cannot run the job twice). Raises
    LeaseLost there when the lease is gone, which rolls the work back."""

    def __init__(self, job: Row, result: Callable[[Any], dict[str, Any] | None]):
        self.job, self._result = job, result
        self.committed = False

    def __call__(self, conn: apsw.Connection, report: Any) -> None:
        if not job_store.complete(conn, self.job, now=now_iso(), result=self._result(report)):
            raise LeaseLost(f"job {self.job['id']}: lease lost before its work was committed")
        self.committed = True


def enqueue_for_new_memory(conn: apsw.Connection, pipeline: PipelineV2Config, *, memory_id: str, now: str,
                           extract: bool = True, hints: bool = True) -> int | None:
    """Inside the write tx that stored a memory: its `extract` job (returned) when asked and the
    pipeline is on, its `prospective_index` job when asked and hints are on, and a `structural_classify`
    job for each entity it mentions that has no type yet."""
    job_id = None
    if pipeline.enabled and extract:
        job_id, _ = job_store.enqueue(conn, job_type=EXTRACT, memory_id=memory_id, now=now,
                                      max_attempts=pipeline.worker.max_retries)
    if pipeline.enabled and pipeline.hints.enabled and hints:
        job_store.enqueue(conn, job_type=PROSPECTIVE_INDEX, memory_id=memory_id, now=now,
                          max_attempts=pipeline.worker.max_retries)
    if pipeline.enabled and pipeline.graph_on:  # names the linker met without a type: the structural stage types them
        for entity_id in graph_store.untyped_entities_of(conn, memory_id):
            job_store.enqueue(conn, job_type=STRUCTURAL_CLASSIFY, entity_id=entity_id, now=now,
                              max_attempts=pipeline.worker.max_retries)
    return job_id

MAX_DELAY_S = 30.0
MAX_JITTER_S = 0.5


def backoff_s(attempts: int, rng: random.Random | None = None) -> float:
    """Delay before the next try after `attempts` failed ones."""
    jitter = (rng or random).uniform(0, MAX_JITTER_S)
    return min(BASE_DELAY_S * 2 ** max(attempts - 1, 0), MAX_DELAY_S) + jitter


def process_owner() -> str:
    """A lease owner name for work done in this process outside Dagster (tests, benchmarks, eval)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class JobQueue:
    def __init__(self, db: Database, *, max_attempts: int = 3, lease_timeout_ms: int = 300_000,
                 rng: random.Random | None = None, owner: str | None = None):
        self._db = db
        self.max_attempts = max_attempts
        self.lease_timeout_ms = lease_timeout_ms
        self._rng = rng or random.Random()
        self.owner = owner or process_owner()

    def enqueue(self, job_type: str, *, memory_id: str | None = None, document_id: str | None = None,
                entity_id: str | None = None, payload: dict[str, Any] | None = None) -> tuple[int, bool]:
        if job_type not in JOB_TYPES:
            raise ValueError(f"unknown job type {job_type!r}")
        with self._db.write() as conn:
            return job_store.enqueue(conn, job_type=job_type, memory_id=memory_id, document_id=document_id,
                                     entity_id=entity_id, payload=payload, max_attempts=self.max_attempts,
                                     now=now_iso())

    def lease(self, job_types: list[str], limit: int = 1, ids: list[int] | None = None) -> list[Row]:
        with self._db.write() as conn:
            return job_store.lease(conn, job_types=job_types, now=now_iso(), owner=self.owner, limit=limit, ids=ids)

    def due_count(self, *job_types: str) -> int:
        """Jobs of these types a lease would take now (one query for all of them)."""
        return sum(job_store.due_by_type(self._db.reader(), now_iso(), list(job_types)).values())

    def keeper(self, job: Row) -> Callable[[], None]:
        """A heartbeat for a job that may outlast its lease: each call extends the lease, or raises
        LeaseLost when it was reaped meanwhile."""
        def renew() -> None:
            with self._db.write() as conn:
                if not job_store.renew(conn, job, now=now_iso()):
                    raise LeaseLost(f"job {job['id']}: lease expired and was reaped")

        return renew

    def complete(self, job: Row, result: dict[str, Any] | None = None) -> bool:
        with self._db.write() as conn:
            return job_store.complete(conn, job, now=now_iso(), result=result)

    def fail(self, job: Row, error: str) -> str | None:
        """Record a failure of a leased job; returns its new status (pending or dead)."""
        now = datetime.now(UTC)
        due = to_iso(now + timedelta(seconds=backoff_s(job["attempts"], self._rng)))
        with self._db.write() as conn:
            return job_store.fail(conn, job, now=to_iso(now), error=error, not_before=due)

    def reap_stale_leases(self, job_type: str | None = None) -> int:
        now = datetime.now(UTC)
        cutoff = to_iso(now - timedelta(milliseconds=self.lease_timeout_ms))
        if not job_store.has_stale_leases(self._db.reader(), leased_before=cutoff, job_type=job_type):
            return 0  # a sensor tick's common case: a read, no turn at the writer lock
        with self._db.write() as conn:
            return job_store.reap_stale_leases(conn, leased_before=cutoff, now=to_iso(now), job_type=job_type)

    def requeue_dead(self, limit: int = 50) -> int:
        with self._db.write() as conn:
            return job_store.requeue_dead(conn, now=now_iso(), limit=limit)
