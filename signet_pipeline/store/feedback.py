"""SQL for agent_feedback (the memory_feedback tool's rows)."""

from __future__ import annotations

import apsw

from signet_pipeline.store.db import Row, one, rows, scalar


def insert(conn: apsw.Connection, *, memory_id: str, agent_id: str, session_id: str | None, feedback_type: str,
           score: float | None, correction_text: str | None, actor: str, actor_type: str | None, now: str) -> int:
    return int(one(conn, "INSERT INTO agent_feedback(memory_id, agent_id, session_id, feedback_type, score, "
                         "correction_text, actor, actor_type, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                   (memory_id, agent_id, session_id, feedback_type, score, correction_text, actor, actor_type,
                    now))["id"])


def for_memory(conn: apsw.Connection, memory_id: str, limit: int = 100) -> list[Row]:
    return rows(conn, "SELECT * FROM agent_feedback WHERE memory_id = ? ORDER BY id DESC LIMIT ?", (memory_id, limit))


def rated_before(conn: apsw.Connection, *, agent_id: str, memory_id: str, session_id: str | None, before_id: int) -> bool:
    """Whether the agent already rated this memory in this session (or, without one, ever)."""
    return scalar(conn, "SELECT 1 FROM agent_feedback WHERE agent_id = ? AND memory_id = ? AND session_id IS ? "
                        "AND id < ? LIMIT 1", (agent_id, memory_id, session_id, before_id)) is not None
