"""SQL for a memory's lineage: what it was derived from (source_memory_id), what was derived from
it, the memories a session left (source_id = the session key: its summaries), the session
summaries about an entity, and the session and transcript rows they point at. Memory reads take
a MemoryFilter, so the reader's policy applies to every row (private memories of other agents,
deleted ones, never come back)."""

from __future__ import annotations

import apsw

from signet_pipeline.store.db import Row, one, rows
from signet_pipeline.store.memories import MemoryFilter


def derived_from(conn: apsw.Connection, memory_id: str, flt: MemoryFilter, limit: int) -> list[Row]:
    """Visible memories derived from this one (facts extracted from a summary), newest first."""
    where, params = flt.sql()
    return rows(conn, f"SELECT m.* FROM memories m WHERE m.source_memory_id = :source AND {where} "
                      "ORDER BY m.created_at DESC, m.rid DESC LIMIT :limit",
                {**params, "source": memory_id, "limit": limit})


def by_source(conn: apsw.Connection, source_id: str, flt: MemoryFilter, limit: int) -> list[Row]:
    """Visible memories whose source is this id (a session's summaries: source_id = its key),
    newest first."""
    where, params = flt.sql()
    return rows(conn, f"SELECT m.* FROM memories m WHERE m.source_id = :source AND {where} "
                      "ORDER BY m.created_at DESC, m.rid DESC LIMIT :limit",
                {**params, "source": source_id, "limit": limit})


def about_entity(conn: apsw.Connection, entity_id: str, flt: MemoryFilter, *, source_id: str | None,
                 limit: int) -> list[Row]:
    """Visible memories (of the filter's types) that mention the entity, or that a memory
    mentioning it was derived from (a summary whose extracted facts name it), newest first;
    `source_id`: only those of this source (a summary's session)."""
    where, params = flt.sql()
    return rows(conn, f"""
        SELECT m.* FROM memories m WHERE m.id IN (
            SELECT x.memory_id FROM memory_entity_mentions x WHERE x.entity_id = :entity
            UNION SELECT d.source_memory_id FROM memory_entity_mentions x JOIN memories d ON d.id = x.memory_id
            WHERE x.entity_id = :entity AND d.source_memory_id IS NOT NULL)
          AND (:source IS NULL OR m.source_id = :source) AND {where}
        ORDER BY m.created_at DESC, m.rid DESC LIMIT :limit""",
                {**params, "entity": entity_id, "source": source_id, "limit": limit})


def session(conn: apsw.Connection, session_key: str, agent_id: str) -> Row | None:
    """The agent's session row (another agent's session under the same key is not its)."""
    return one(conn, "SELECT * FROM sessions WHERE session_key = ? AND agent_id = ?", (session_key, agent_id))


def transcript(conn: apsw.Connection, session_key: str, agent_id: str) -> Row | None:
    """The agent's stored transcript of the session, with when it last changed."""
    return one(conn, "SELECT session_key, harness, project, content, coalesce(updated_at, created_at) AS updated_at "
                     "FROM session_transcripts WHERE session_key = ? AND agent_id = ?", (session_key, agent_id))
