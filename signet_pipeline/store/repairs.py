"""SQL for repair_runs: the log the repair gate reads (cooldown, hourly budget) and operators audit."""

from __future__ import annotations

import json
from typing import Any

import apsw

from signet_pipeline.store.db import Row, rows, scalar


def record(conn: apsw.Connection, *, action: str, outcome: str, actor: str, actor_type: str, reason: str | None,
           result: dict[str, Any] | None, now: str) -> int:
    return int(scalar(
        conn, "INSERT INTO repair_runs(action, outcome, actor, actor_type, reason, result, created_at) "
              "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (action, outcome, actor, actor_type, reason, json.dumps(result) if result is not None else None, now)))


def last_executed_at(conn: apsw.Connection, action: str) -> str | None:
    return scalar(conn, "SELECT max(created_at) FROM repair_runs WHERE action = ? AND outcome = 'executed'", (action,))


def executed_since(conn: apsw.Connection, action: str, since: str) -> int:
    return int(scalar(conn, "SELECT count(*) FROM repair_runs WHERE action = ? AND outcome = 'executed' "
                            "AND created_at >= ?", (action, since)) or 0)


def recent(conn: apsw.Connection, limit: int) -> list[Row]:
    return rows(conn, "SELECT * FROM repair_runs ORDER BY id DESC LIMIT ?", (limit,))


def finish(conn: apsw.Connection, run_id: int, *, outcome: str, result: dict[str, Any]) -> None:
    conn.execute("UPDATE repair_runs SET outcome = ?, result = ? WHERE id = ?", (outcome, json.dumps(result), run_id))


def recent_results(conn: apsw.Connection, action: str, actor: str, limit: int, after_id: int = 0) -> list[dict[str, Any]]:
    """Results of an actor's latest executed runs of an action (after `after_id`), newest first."""
    return [json.loads(r[0]) for r in conn.execute(
        "SELECT result FROM repair_runs WHERE action = ? AND actor = ? AND outcome = 'executed' AND result IS NOT NULL "
        "AND id > ? ORDER BY id DESC LIMIT ?", (action, actor, after_id, limit))]


def last_clean_cycle(conn: apsw.Connection, cycle_action: str) -> int:
    """Id of the latest maintenance cycle that found nothing to repair (0 if none)."""
    return int(scalar(conn, "SELECT max(id) FROM repair_runs WHERE action = ? "
                            "AND json_array_length(result, '$.recommended') = 0 AND json_array_length(result, '$.halted') = 0",
                            (cycle_action,)) or 0)
