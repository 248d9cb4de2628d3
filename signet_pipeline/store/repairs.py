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
