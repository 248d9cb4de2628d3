"""The pipeline's backlog as an operator reads it: per job type, how many jobs wait (due now,
waiting out a retry backoff, leased by a worker), how fast the drains work it and when it will be
empty at that rate; and the drain workers alive now. The rate is jobs per second of the time a
drain was working, over the latest completions of the last ten minutes: dividing by the whole
window would count idle time and report a fast drain as a slow one. Served by
GET /api/pipeline/status and observed on the `memory_jobs` asset in the Dagster UI
(sensors.queue_backlog_sensor)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pydantic import BaseModel

from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.db import Database, Row
from signet_pipeline.timeutil import parse_iso, to_iso

WINDOW_S = 600  # older completions say nothing about the drains of now
SAMPLE = 500  # the latest completions per job type the rate is measured on
TICK_S = 0.001  # stored timestamps count milliseconds: jobs done within one took at least that


class QueueBacklog(BaseModel):
    depth: int = 0  # due + waiting + leased: the jobs not finished
    due: int = 0
    waiting: int = 0  # pending, but backing off after a failure
    leased: int = 0
    dead: int = 0
    ratePerS: float = 0.0
    etaS: float | None = None  # None: nothing drains (or nothing waits: 0)


class WorkerView(BaseModel):
    owner: str
    jobType: str
    pid: int
    host: str
    startedAt: str
    beatAgeS: float
    jobsDone: int
    batches: int


class Backlog(BaseModel):
    queues: dict[str, QueueBacklog]
    total: QueueBacklog
    workers: list[WorkerView]
    at: str


def _eta(depth: int, rate: float) -> float | None:
    if depth == 0:
        return 0.0
    return round(depth / rate, 1) if rate > 0 else None


def _rate(done: list[Row]) -> float:
    """Jobs per second of work, `done` oldest first. A job already waiting when the one before it
    completed was worked on from then (the drain went on to it); any other from its lease, so idle
    time, a run's launch and a pipeline that was down do not count as work."""
    busy, previous = 0.0, None
    for job in done:
        if previous is not None and job["ready"] < previous:  # timestamps of one format compare as text
            start = parse_iso(previous)
        else:
            start = parse_iso(job["leased"])
        busy += max(0.0, (parse_iso(job["completed_at"]) - start).total_seconds())
        previous = job["completed_at"]
    return len(done) / max(busy, TICK_S) if done else 0.0


def backlog(db: Database, now: datetime | None = None) -> Backlog:
    now = now or datetime.now(UTC)
    conn = db.reader()
    counts = job_store.counts_by_type(conn)
    due = job_store.due_by_type(conn, to_iso(now))
    recent = job_store.recent_completions(conn, to_iso(now - timedelta(seconds=WINDOW_S)), SAMPLE)
    done: dict[str, list[Row]] = {}
    for job in recent:
        done.setdefault(job["job_type"], []).append(job)
    queues: dict[str, QueueBacklog] = {}
    for job_type, by_status in sorted(counts.items()):
        pending, leased = by_status.get("pending", 0), by_status.get("leased", 0)
        n_due = due.get(job_type, 0)
        rate = _rate(done.get(job_type, []))
        depth = pending + leased
        queues[job_type] = QueueBacklog(depth=depth, due=n_due, waiting=pending - n_due, leased=leased,
                                        dead=by_status.get("dead", 0), ratePerS=round(rate, 2), etaS=_eta(depth, rate))
    total_depth = sum(q.depth for q in queues.values())
    total_rate = _rate(sorted(recent, key=lambda job: job["completed_at"]))  # the pipeline's work, all types
    total = QueueBacklog(depth=total_depth, due=sum(q.due for q in queues.values()),
                         waiting=sum(q.waiting for q in queues.values()), leased=sum(q.leased for q in queues.values()),
                         dead=sum(q.dead for q in queues.values()), ratePerS=round(total_rate, 2),
                         etaS=_eta(total_depth, total_rate))
    workers = [WorkerView(owner=w["owner"], jobType=w["job_type"], pid=w["pid"], host=w["host"],
                          startedAt=w["started_at"], beatAgeS=round((now - parse_iso(w["beat_at"])).total_seconds(), 1),
                          jobsDone=w["jobs_done"], batches=w["batches"]) for w in job_store.workers(conn)]
    return Backlog(queues=queues, total=total, workers=workers, at=to_iso(now))
