"""SQL for analytics: the service-wide error ring (analytics_errors), the ring of each provider's
latest call outcomes (provider_outcomes) and job durations read from memory_jobs."""

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


def record_outcomes(conn: apsw.Connection, *, provider: str, model: str, outcomes: list[tuple[str, float, str | None]],
           now: str, keep: int) -> None:
    """Append (outcome, latency ms, error) rows, then drop the provider's entries beyond the newest `keep`."""
    conn.executemany(
        "INSERT INTO provider_outcomes(provider, model, outcome, latency_ms, error, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        [(provider, model, outcome, round(ms, 2), error, now) for outcome, ms, error in outcomes])
    conn.execute("DELETE FROM provider_outcomes WHERE provider = ? AND id <= "
                 "(SELECT id FROM provider_outcomes WHERE provider = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                 (provider, provider, keep))


def provider_summary(conn: apsw.Connection) -> list[Row]:
    """Per provider: calls in the ring by outcome, median latency proxy, the last error."""
    return rows(conn, """
        SELECT provider, max(model) AS model, count(*) AS calls,
               sum(outcome = 'success') AS successes, sum(outcome = 'failure') AS failures,
               sum(outcome = 'timeout') AS timeouts, round(avg(latency_ms), 1) AS mean_latency_ms,
               max(created_at) AS last_call_at,
               (SELECT error FROM provider_outcomes p2 WHERE p2.provider = p.provider AND p2.error IS NOT NULL
                ORDER BY id DESC LIMIT 1) AS last_error
        FROM provider_outcomes p GROUP BY provider ORDER BY provider""")
