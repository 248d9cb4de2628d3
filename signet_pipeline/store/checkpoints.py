"""SQL for session_activity and session_checkpoints, and skill_invocations (0026): the skill uses
harnesses report during sessions, the newest rows kept."""

from __future__ import annotations

import json
from typing import Any

import apsw

from signet_pipeline.store.db import Row, one, rows, scalar

MAX_QUERIES = 20
MAX_REMEMBERS = 10


def note_prompt(conn: apsw.Connection, *, session_key: str, agent_id: str, harness: str | None,
                project: str | None, prompt: str, now: str) -> int | None:
    """Count a prompt and keep it among the session's latest; returns the prompt count, or None
    when the session belongs to another agent (nothing is recorded)."""
    found = one(conn, "SELECT agent_id, prompt_count, recent_queries FROM session_activity WHERE session_key = ?",
                (session_key,))
    if found is not None and found["agent_id"] != agent_id:
        return None
    queries = (json.loads(found["recent_queries"]) if found else []) + [prompt]
    count = (found["prompt_count"] if found else 0) + 1
    conn.execute("INSERT INTO session_activity(session_key, agent_id, harness, project, prompt_count, recent_queries, "
                 "started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(session_key) DO UPDATE SET "
                 "prompt_count = excluded.prompt_count, recent_queries = excluded.recent_queries, "
                 "harness = coalesce(excluded.harness, harness), project = coalesce(excluded.project, project), "
                 "updated_at = excluded.updated_at",
                 (session_key, agent_id, harness, project, count, json.dumps(queries[-MAX_QUERIES:]), now, now))
    return count


def activity(conn: apsw.Connection, session_key: str, agent_id: str) -> Row | None:
    return one(conn, "SELECT * FROM session_activity WHERE session_key = ? AND agent_id = ?", (session_key, agent_id))


def recent_remembers(conn: apsw.Connection, session_key: str, agent_id: str) -> list[str]:
    """What the session's agent remembered in it (its own memories only)."""
    return [r[0] for r in conn.execute(
        "SELECT content FROM memories WHERE session_id = ? AND agent_id = ? AND is_deleted = 0 ORDER BY rid DESC "
        "LIMIT ?", (session_key, agent_id, MAX_REMEMBERS))]


def latest(conn: apsw.Connection, session_key: str, agent_id: str, trigger: str) -> Row | None:
    return one(conn, "SELECT * FROM session_checkpoints WHERE session_key = ? AND agent_id = ? AND trigger = ? "
                     "ORDER BY id DESC LIMIT 1", (session_key, agent_id, trigger))


def write(conn: apsw.Connection, values: dict, *, replace_id: int | None) -> int:
    if replace_id is not None:
        conn.execute("UPDATE session_checkpoints SET digest = :digest, prompt_count = :prompt_count, "
                     "memory_queries = :memory_queries, recent_remembers = :recent_remembers, created_at = :created_at "
                     "WHERE id = :id", {**values, "id": replace_id})
        return replace_id
    names = list(values)
    return int(scalar(conn, f"INSERT INTO session_checkpoints({', '.join(names)}) VALUES "
                            f"({', '.join(':' + n for n in names)}) RETURNING id", values))


def cap(conn: apsw.Connection, session_key: str, keep: int) -> int:
    return len(list(conn.execute(
        "DELETE FROM session_checkpoints WHERE session_key = ? AND id NOT IN (SELECT id FROM session_checkpoints "
        "WHERE session_key = ? ORDER BY id DESC LIMIT ?) RETURNING 1", (session_key, session_key, keep))))


def for_session(conn: apsw.Connection, session_key: str, agent_id: str, limit: int) -> list[Row]:
    return rows(conn, "SELECT * FROM session_checkpoints WHERE session_key = ? AND agent_id = ? ORDER BY id DESC "
                      "LIMIT ?", (session_key, agent_id, limit))


def for_project(conn: apsw.Connection, agent_id: str, project_normalized: str | None, limit: int) -> list[Row]:
    return rows(conn, "SELECT * FROM session_checkpoints WHERE agent_id = ? AND (? IS NULL OR project_normalized = ?) "
                      "ORDER BY id DESC LIMIT ?", (agent_id, project_normalized, project_normalized, limit))


def purge_before(conn: apsw.Connection, created_before: str, limit: int) -> int:
    return len(list(conn.execute(
        "DELETE FROM session_checkpoints WHERE id IN (SELECT id FROM session_checkpoints WHERE created_at < ? "
        "ORDER BY id LIMIT ?) RETURNING 1", (created_before, limit))))


# -- skill invocations (0026) -------------------------------------------------------------------

def record_skill_invocation(conn: apsw.Connection, values: dict[str, Any], *, keep: int) -> bool:
    """Insert one invocation; False when its tool call (agent, toolUseId) was recorded already.
    Rows beyond the newest `keep` are dropped in the same transaction (the table stays bounded)."""
    added = bool(list(conn.execute(
        "INSERT INTO skill_invocations(agent_id, harness, skill_name, session_key, tool_use_id, origin, success, "
        "latency_ms, error_text, created_at) VALUES (:agent_id, :harness, :skill_name, :session_key, :tool_use_id, "
        ":origin, :success, :latency_ms, :error_text, :created_at) "
        "ON CONFLICT(agent_id, tool_use_id) WHERE tool_use_id IS NOT NULL DO NOTHING RETURNING 1", values)))
    if added:
        conn.execute("DELETE FROM skill_invocations WHERE id <= (SELECT id FROM skill_invocations ORDER BY id DESC "
                     "LIMIT 1 OFFSET ?)", (keep,))
    return added
