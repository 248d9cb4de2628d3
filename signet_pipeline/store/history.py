"""SQL for memory_history (the immutable audit trail of every mutation and proposal) and the
timelines of a memory or an entity built on it."""

from __future__ import annotations

import json
import uuid
from typing import Any

import apsw

from signet_pipeline.store.agents import READ_POLICY_SQL
from signet_pipeline.store.db import Row, rows, scalar


def record(conn: apsw.Connection, *, memory_id: str, event: str, now: str, old_content: str | None = None,
           new_content: str | None = None, changed_by: str | None = None, actor_type: str | None = None,
           reason: str | None = None, metadata: dict[str, Any] | None = None, session_id: str | None = None,
           request_id: str | None = None) -> str:
    event_id = str(uuid.uuid4())
    conn.execute(
        "INSERT INTO memory_history(id, memory_id, event, old_content, new_content, changed_by, actor_type, reason, "
        "metadata, session_id, request_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (event_id, memory_id, event, old_content, new_content, changed_by, actor_type, reason,
         json.dumps(metadata) if metadata is not None else None, session_id, request_id, now),
    )
    return event_id


def for_memory(conn: apsw.Connection, memory_id: str, limit: int) -> list[Row]:
    return rows(conn, "SELECT * FROM memory_history WHERE memory_id = ? ORDER BY created_at, rowid LIMIT ?",
                (memory_id, limit))


def purge_before(conn: apsw.Connection, created_before: str, limit: int) -> int:
    """Delete the oldest history rows created before the cutoff (at most `limit`)."""
    return len(list(conn.execute(
        "DELETE FROM memory_history WHERE rowid IN (SELECT rowid FROM memory_history WHERE created_at < ? "
        "ORDER BY created_at LIMIT ?) RETURNING 1", (created_before, limit))))


def count_events_since(conn: apsw.Connection, event: str, since: str) -> int:
    return int(scalar(conn, "SELECT count(*) FROM memory_history WHERE event = ? AND created_at >= ?",
                      (event, since)) or 0)


def memory_timeline(conn: apsw.Connection, memory_id: str, limit: int) -> list[Row]:
    """What touched a memory, oldest first (at one instant: created, mentions, attributes, the rest):
    its history events, the entities it mentions and the attributes derived from it (added, and
    superseded or deleted later)."""
    return rows(conn, """
        SELECT created_at AS at, 'memory.' || event AS type, changed_by AS actor, reason AS detail, NULL AS ref,
               CASE event WHEN 'created' THEN 0 ELSE 3 END AS seq
          FROM memory_history WHERE memory_id = :id
        UNION ALL
        SELECT m.created_at, 'mention', NULL, coalesce(m.mention_text, e.name), e.id, 1
          FROM memory_entity_mentions m JOIN entities e ON e.id = m.entity_id WHERE m.memory_id = :id
        UNION ALL
        SELECT created_at, 'attribute.added', NULL, kind, id, 2 FROM entity_attributes WHERE memory_id = :id
        UNION ALL
        SELECT updated_at, 'attribute.' || status, NULL, superseded_by, id, 4 FROM entity_attributes
          WHERE memory_id = :id AND status <> 'active'
        ORDER BY at, seq LIMIT :limit""", {"id": memory_id, "limit": limit})


def _readable(memory_id_column: str) -> str:
    """Whether :agent_id may read that memory by id (store/agents.py policy). A deleted memory stays
    readable by id and in its history to the same readers (recall/reads.py), so its events do too."""
    return f"EXISTS (SELECT 1 FROM memories m WHERE m.id = {memory_id_column} AND {READ_POLICY_SQL})"


def mentioned_in_readable(conn: apsw.Connection, entity_id: str, agent_id: str) -> bool:
    return scalar(conn, "SELECT 1 FROM memory_entity_mentions x WHERE x.entity_id = :id "
                        f"AND {_readable('x.memory_id')} LIMIT 1", {"id": entity_id, "agent_id": agent_id}) is not None


def entity_timeline(conn: apsw.Connection, entity_id: str, agent_id: str, limit: int) -> list[Row]:
    """What touched an entity, oldest first: created, each memory mentioning it, attributes added
    and superseded or deleted, relations formed, pinned. Events that come from a memory (mentions,
    attributes, relations asserted by it) only when agent_id may read one such memory."""
    return rows(conn, f"""
        SELECT created_at AS at, 'entity.created' AS type, NULL AS actor, name AS detail, NULL AS ref, 0 AS seq
          FROM entities WHERE id = :id
        UNION ALL
        SELECT created_at, 'mention', NULL, mention_text, memory_id, 1 FROM memory_entity_mentions x
          WHERE entity_id = :id AND {_readable('x.memory_id')}
        UNION ALL
        SELECT created_at, 'attribute.added', NULL, kind, memory_id, 2 FROM entity_attributes x
          WHERE entity_id = :id AND (memory_id IS NULL OR {_readable('x.memory_id')})
        UNION ALL
        SELECT updated_at, 'attribute.' || status, NULL, superseded_by, memory_id, 4 FROM entity_attributes x
          WHERE entity_id = :id AND status <> 'active' AND (memory_id IS NULL OR {_readable('x.memory_id')})
        UNION ALL
        SELECT created_at, 'relation', NULL, relation_type, CASE WHEN source_entity_id = :id THEN target_entity_id
               ELSE source_entity_id END, 3 FROM relations r WHERE (source_entity_id = :id OR target_entity_id = :id)
           AND EXISTS (SELECT 1 FROM relation_mentions x WHERE x.relation_id = r.id AND {_readable('x.memory_id')})
        UNION ALL
        SELECT pinned_at, 'entity.pinned', NULL, NULL, NULL, 5 FROM entities WHERE id = :id AND pinned = 1
          AND pinned_at IS NOT NULL
        ORDER BY at, seq LIMIT :limit""", {"id": entity_id, "agent_id": agent_id, "limit": limit})
