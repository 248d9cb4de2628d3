"""SQL for analytics: the service-wide error ring (analytics_errors) and job durations read from
memory_jobs."""

from __future__ import annotations

import apsw

from signet_pipeline.store.db import Row, rows

ErrorRow = tuple[str, str, str, str, str | None, str | None]  # created_at, stage, code, message, memory_id, actor


def record_errors(conn: apsw.Connection, errors: list[ErrorRow], *, keep: int) -> None:
    """Append errors, then evict the oldest beyond the newest `keep` (one ring for the service)."""
    conn.executemany("INSERT INTO analytics_errors(created_at, stage, code, message, memory_id, actor) "
                     "VALUES (?, ?, ?, ?, ?, ?)", errors)
    conn.execute("DELETE FROM analytics_errors WHERE id <= "
                 "(SELECT id FROM analytics_errors ORDER BY id DESC LIMIT 1 OFFSET ?)", (keep,))


def recent_errors(conn: apsw.Connection, *, limit: int, stage: str | None = None, code: str | None = None,
                  since: str | None = None) -> list[Row]:
    """Newest first, filtered by stage, code and timestamp (>= since)."""
    return rows(conn, """
        SELECT created_at, stage, code, message, memory_id, actor FROM analytics_errors
        WHERE (:stage IS NULL OR stage = :stage) AND (:code IS NULL OR code = :code)
          AND (:since IS NULL OR created_at >= :since)
        ORDER BY id DESC LIMIT :limit""", {"stage": stage, "code": code, "since": since, "limit": limit})


def error_counts(conn: apsw.Connection) -> dict[str, int]:
    """Entries in the ring per code."""
    return {code: n for code, n in conn.execute("SELECT code, count(*) FROM analytics_errors GROUP BY code")}


def job_durations_ms(conn: apsw.Connection, limit: int) -> list[float]:
    """Lease -> completion time of the `limit` most recently completed jobs (all types; for a retried
    job, its last attempt). INDEXED BY: the planner otherwise takes the status index and sorts every
    completed job (100k: 15 ms cold vs 0.4 ms walking the partial completed_at index backwards)."""
    return [ms for (ms,) in conn.execute(
        "SELECT (julianday(completed_at) - julianday(leased_at)) * 86400000.0 "
        "FROM memory_jobs INDEXED BY idx_memory_jobs_completed "
        "WHERE status = 'completed' AND leased_at IS NOT NULL ORDER BY completed_at DESC LIMIT ?", (limit,))]
