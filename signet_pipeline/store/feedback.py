"""SQL for how memories served: agent_feedback (explicit ratings, the memory_feedback tool's rows),
session_scores (continuity: how well a session's injected memories served it) and the per-memory
relevance in session_memories."""

from __future__ import annotations

import apsw

from signet_pipeline.store.db import Row, rows, scalar


def insert(conn: apsw.Connection, *, memory_id: str, agent_id: str, session_id: str | None, feedback_type: str,
           score: float | None, correction_text: str | None, actor: str, actor_type: str | None, now: str) -> int:
    return int(scalar(conn, "INSERT INTO agent_feedback(memory_id, agent_id, session_id, feedback_type, score, "
                            "correction_text, actor, actor_type, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                            "RETURNING id",
                      (memory_id, agent_id, session_id, feedback_type, score, correction_text, actor, actor_type,
                       now)))


def for_memory(conn: apsw.Connection, memory_id: str, limit: int = 100) -> list[Row]:
    return rows(conn, "SELECT * FROM agent_feedback WHERE memory_id = ? ORDER BY id DESC LIMIT ?", (memory_id, limit))


def rated_before(conn: apsw.Connection, *, agent_id: str, memory_id: str, session_id: str | None,
                 before_id: int) -> bool:
    """Whether the agent already rated this memory in this session (or, without one, ever)."""
    return scalar(conn, "SELECT 1 FROM agent_feedback WHERE agent_id = ? AND memory_id = ? AND session_id IS ? "
                        "AND id < ? LIMIT 1", (agent_id, memory_id, session_id, before_id)) is not None


def injected(conn: apsw.Connection, session_key: str, agent_id: str) -> list[Row]:
    """The memories injected into the agent's session, by rank (id, content, is_deleted; a memory
    purged since has none of them and counts as deleted)."""
    return rows(conn, "SELECT s.memory_id AS id, coalesce(m.content, '') AS content, "
                      "coalesce(m.is_deleted, 1) AS is_deleted FROM session_memories s "
                      "LEFT JOIN memories m ON m.id = s.memory_id WHERE s.session_key = ? AND s.agent_id = ? "
                      "AND s.was_injected = 1 ORDER BY s.rank", (session_key, agent_id))


def save(conn: apsw.Connection, values: dict, relevance: dict[str, float]) -> None:
    """The session's score (replacing an earlier one) and each judged memory's relevance."""
    conn.execute(
        "INSERT INTO session_scores(session_key, agent_id, project, harness, score, confidence, memories_recalled, "
        "memories_used, novel_context_count, reasoning, model, created_at) VALUES (:session_key, :agent_id, "
        ":project, :harness, :score, :confidence, :memories_recalled, :memories_used, :novel_context_count, "
        ":reasoning, :model, :created_at) ON CONFLICT(session_key) DO UPDATE SET score = excluded.score, "
        "confidence = excluded.confidence, memories_recalled = excluded.memories_recalled, "
        "memories_used = excluded.memories_used, novel_context_count = excluded.novel_context_count, "
        "reasoning = excluded.reasoning, model = excluded.model, created_at = excluded.created_at", values)
    conn.executemany("UPDATE session_memories SET relevance_score = ?, updated_at = ? WHERE session_key = ? "
                     "AND memory_id = ? AND agent_id = ?",
                     [(score, values["created_at"], values["session_key"], mid, values["agent_id"])
                      for mid, score in relevance.items()])


def history(conn: apsw.Connection, *, agent_id: str, project: str | None, limit: int) -> list[Row]:
    """The agent's scores, newest first (of one project when named)."""
    return rows(conn, "SELECT * FROM session_scores WHERE agent_id = ? AND (? IS NULL OR project = ?) "
                      "ORDER BY created_at DESC LIMIT ?", (agent_id, project, project, limit))


def latest_per_project(conn: apsw.Connection, agent_id: str) -> list[Row]:
    return rows(conn, "SELECT s.* FROM session_scores s WHERE s.agent_id = ? "
                      "AND s.created_at = (SELECT max(created_at) "
                      "FROM session_scores t WHERE t.agent_id = s.agent_id AND t.project IS s.project) "
                      "ORDER BY s.created_at DESC", (agent_id,))
