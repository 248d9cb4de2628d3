"""SQL for the service's operational records: the error ring (analytics_errors), the ring of each
provider's latest call outcomes (provider_outcomes), job durations read from memory_jobs, and
repair_runs, the log the repair gate reads (cooldown, hourly budget) and operators audit; the
telemetry rings (events, memory searches) and the structured log."""

from __future__ import annotations

import json
from typing import Any

import apsw

from signet_pipeline.store.db import Row, rows, scalar

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
        "INSERT INTO provider_outcomes(provider, model, outcome, latency_ms, error, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)",
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


# -- repair_runs ---------------------------------------------------------------------------------

def record_repair(conn: apsw.Connection, *, action: str, outcome: str, actor: str, actor_type: str, reason: str | None,
           result: dict[str, Any] | None, now: str) -> int:
    return int(scalar(
        conn, "INSERT INTO repair_runs(action, outcome, actor, actor_type, reason, result, created_at) "
              "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (action, outcome, actor, actor_type, reason, json.dumps(result) if result is not None else None, now)))


def repair_last_executed_at(conn: apsw.Connection, action: str) -> str | None:
    return scalar(conn, "SELECT max(created_at) FROM repair_runs WHERE action = ? AND outcome = 'executed'", (action,))


def repairs_executed_since(conn: apsw.Connection, action: str, since: str) -> int:
    return int(scalar(conn, "SELECT count(*) FROM repair_runs WHERE action = ? AND outcome = 'executed' "
                            "AND created_at >= ?", (action, since)) or 0)


def recent_repairs(conn: apsw.Connection, limit: int) -> list[Row]:
    return rows(conn, "SELECT * FROM repair_runs ORDER BY id DESC LIMIT ?", (limit,))


def finish_repair(conn: apsw.Connection, run_id: int, *, outcome: str, result: dict[str, Any]) -> None:
    conn.execute("UPDATE repair_runs SET outcome = ?, result = ? WHERE id = ?", (outcome, json.dumps(result), run_id))


def recent_repair_results(conn: apsw.Connection, action: str, actor: str, limit: int,
                          after_id: int = 0) -> list[dict[str, Any]]:
    """Results of an actor's latest executed runs of an action (after `after_id`), newest first."""
    return [json.loads(r[0]) for r in conn.execute(
        "SELECT result FROM repair_runs WHERE action = ? AND actor = ? AND outcome = 'executed' AND result IS NOT NULL "
        "AND id > ? ORDER BY id DESC LIMIT ?", (action, actor, after_id, limit))]


def last_clean_repair_cycle(conn: apsw.Connection, cycle_action: str) -> int:
    """Id of the latest maintenance cycle that found nothing to repair (0 if none)."""
    return int(scalar(conn, "SELECT max(id) FROM repair_runs WHERE action = ? "
                            "AND json_array_length(result, '$.recommended') = 0 "
                            "AND json_array_length(result, '$.halted') = 0",
                            (cycle_action,)) or 0)


# -- telemetry_events and log_entries: bounded, newest kept ----------------------------------------

def append_telemetry(conn: apsw.Connection, events: list[tuple[str, str, str]], *, keep: int) -> None:
    """(event, properties JSON, created_at) rows; the oldest beyond the newest `keep` go."""
    conn.executemany("INSERT INTO telemetry_events(event, properties, created_at) VALUES (?, ?, ?)", events)
    conn.execute("DELETE FROM telemetry_events WHERE id <= (SELECT id FROM telemetry_events ORDER BY id DESC "
                 "LIMIT 1 OFFSET ?)", (keep,))


def telemetry(conn: apsw.Connection, *, event: str | None, since: str | None, until: str | None,
              limit: int) -> list[Row]:
    return rows(conn, "SELECT id, event, properties, created_at FROM telemetry_events WHERE (:event IS NULL OR "
                      "event = :event) AND (:since IS NULL OR created_at >= :since) AND (:until IS NULL OR "
                      "created_at <= :until) ORDER BY id DESC LIMIT :limit",
                {"event": event, "since": since, "until": until, "limit": limit})


def telemetry_since(conn: apsw.Connection, since: str | None) -> list[Row]:
    return rows(conn, "SELECT event, properties FROM telemetry_events WHERE ? IS NULL OR created_at >= ?",
                (since, since))


def prune_telemetry(conn: apsw.Connection, *, before: str, limit: int) -> int:
    return len(list(conn.execute("DELETE FROM telemetry_events WHERE id IN (SELECT id FROM telemetry_events "
                                 "WHERE created_at < ? ORDER BY id LIMIT ?) RETURNING 1", (before, limit))))


# One memory search (memory_search_telemetry, 0028): created_at, route, agent_id, session_key, project,
# query, keyword_query, filters JSON, method, result_count, top_score, no_hits, duration_ms,
# timings JSON, results JSON.
SEARCH_COLUMNS = ("created_at", "route", "agent_id", "session_key", "project", "query", "keyword_query", "filters",
                  "method", "result_count", "top_score", "no_hits", "duration_ms", "timings", "results")


def append_searches(conn: apsw.Connection, searches: list[tuple[Any, ...]], *, keep: int) -> None:
    """Rows in SEARCH_COLUMNS order; the oldest beyond the newest `keep` go."""
    conn.executemany(f"INSERT INTO memory_search_telemetry({', '.join(SEARCH_COLUMNS)}) "
                     f"VALUES ({', '.join('?' * len(SEARCH_COLUMNS))})", searches)
    conn.execute("DELETE FROM memory_search_telemetry WHERE id <= (SELECT id FROM memory_search_telemetry "
                 "ORDER BY id DESC LIMIT 1 OFFSET ?)", (keep,))


def searches(conn: apsw.Connection, *, agent_id: str | None, session_key: str | None, project: str | None,
             route: str | None, since: str | None, until: str | None, no_hits: bool | None, limit: int,
             offset: int = 0, before_id: int | None = None) -> list[Row]:
    """Newest first, each filter applied when given (`before_id`: older than that row, for paging)."""
    return rows(conn, f"SELECT id, {', '.join(SEARCH_COLUMNS)} FROM memory_search_telemetry "
                      "WHERE (:agent IS NULL OR agent_id = :agent) AND (:session IS NULL OR session_key = :session) "
                      "AND (:project IS NULL OR project = :project) AND (:route IS NULL OR route = :route) "
                      "AND (:since IS NULL OR created_at >= :since) AND (:until IS NULL OR created_at <= :until) "
                      "AND (:no_hits IS NULL OR no_hits = :no_hits) AND (:before IS NULL OR id < :before) "
                      "ORDER BY id DESC LIMIT :limit OFFSET :offset",
                {"agent": agent_id, "session": session_key, "project": project, "route": route, "since": since,
                 "until": until, "no_hits": no_hits, "limit": limit, "offset": offset, "before": before_id})


def prune_searches(conn: apsw.Connection, *, before: str, limit: int) -> int:
    return len(list(conn.execute("DELETE FROM memory_search_telemetry WHERE id IN (SELECT id FROM "
                                 "memory_search_telemetry WHERE created_at < ? ORDER BY id LIMIT ?) RETURNING 1",
                                 (before, limit))))


def append_logs(conn: apsw.Connection, entries: list[tuple[int, str, str, str | None, str, str]], *,
                keep: int) -> None:
    """(level, category, message, fields JSON, process, at) rows; the oldest beyond `keep` go."""
    conn.executemany("INSERT INTO log_entries(level, category, message, fields, process, at) VALUES (?, ?, ?, ?, ?, ?)",
                     entries)
    conn.execute("DELETE FROM log_entries WHERE id <= (SELECT id FROM log_entries ORDER BY id DESC LIMIT 1 OFFSET ?)",
                 (keep,))


def logs(conn: apsw.Connection, *, min_level: int, category: str | None, since: str | None, after_id: int,
         limit: int) -> list[Row]:
    """Newest first, or (after_id > 0) the entries after that id oldest first: what a stream tails."""
    order = "ASC" if after_id else "DESC"
    return rows(conn, f"SELECT id, level, category, message, fields, process, at FROM log_entries WHERE level >= :lvl "
                      "AND (:category IS NULL OR category = :category OR category LIKE :category || '.%') "
                      "AND (:since IS NULL OR at >= :since) AND id > :after "
                      f"ORDER BY id {order} LIMIT :limit",
                {"lvl": min_level, "category": category, "since": since, "after": after_id, "limit": limit})


def last_log_id(conn: apsw.Connection) -> int:
    return int(scalar(conn, "SELECT coalesce(max(id), 0) FROM log_entries") or 0)
