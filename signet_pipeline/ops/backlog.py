"""The pipeline's backlog as an operator reads it: per job type, how many jobs wait (due now,
waiting out a retry backoff, leased by a worker), how fast the queue drains (jobs completed per
second over the last minute, or the last ten when the last minute saw few) and when it will be
empty at that rate; and the drain workers alive now. Served by GET /api/pipeline/status and
observed on the `memory_jobs` asset in the Dagster UI (sensors.queue_backlog_sensor).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from pydantic import BaseModel

from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.db import Database
from signet_pipeline.timeutil import parse_iso, to_iso

SHORT_WINDOW_S = 60
LONG_WINDOW_S = 600
MIN_SAMPLE = 20  # completions the short window needs before its rate is trusted


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


def backlog(db: Database, now: datetime | None = None) -> Backlog:
    now = now or datetime.now(timezone.utc)
    conn = db.reader()
    counts = job_store.counts_by_type(conn)
    due = job_store.due_by_type(conn, to_iso(now))
    short = job_store.finished_since(conn, to_iso(now - timedelta(seconds=SHORT_WINDOW_S)))
    long = job_store.finished_since(conn, to_iso(now - timedelta(seconds=LONG_WINDOW_S)))
    queues: dict[str, QueueBacklog] = {}
    for job_type, by_status in sorted(counts.items()):
        pending, leased = by_status.get("pending", 0), by_status.get("leased", 0)
        n_due = due.get(job_type, 0)
        recent = short.get(job_type, 0)
        rate = recent / SHORT_WINDOW_S if recent >= MIN_SAMPLE else long.get(job_type, 0) / LONG_WINDOW_S
        depth = pending + leased
        queues[job_type] = QueueBacklog(depth=depth, due=n_due, waiting=pending - n_due, leased=leased,
                                        dead=by_status.get("dead", 0), ratePerS=round(rate, 2), etaS=_eta(depth, rate))
    total_depth = sum(q.depth for q in queues.values())
    total_rate = sum(q.ratePerS for q in queues.values())
    total = QueueBacklog(depth=total_depth, due=sum(q.due for q in queues.values()),
                         waiting=sum(q.waiting for q in queues.values()), leased=sum(q.leased for q in queues.values()),
                         dead=sum(q.dead for q in queues.values()), ratePerS=round(total_rate, 2),
                         etaS=_eta(total_depth, total_rate))
    workers = [WorkerView(owner=w["owner"], jobType=w["job_type"], pid=w["pid"], host=w["host"],
                          startedAt=w["started_at"], beatAgeS=round((now - parse_iso(w["beat_at"])).total_seconds(), 1),
                          jobsDone=w["jobs_done"], batches=w["batches"]) for w in job_store.workers(conn)]
    return Backlog(queues=queues, total=total, workers=workers, at=to_iso(now))
