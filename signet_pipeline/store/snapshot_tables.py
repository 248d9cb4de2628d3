"""The tables a snapshot carries and their SQL: streamed reads for export, idempotent writes for import.

A snapshot holds what a person would lose with the database: memories, their vectors and history,
the knowledge graph, documents, sessions and feedback. Queues, caches, telemetry and bookkeeping
(memory_jobs, umap_cache, provider_outcomes, ...) are rebuilt by the pipeline and stay out.

Rows are matched on `key` (what makes a row the same row in another store), never on surrogate
integer ids, which the target assigns (`skip`). Writing a snapshot twice changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

import apsw

from signet_pipeline.store.db import scalar

_OF_AGENT_MEMORIES = "memory_id IN (SELECT id FROM memories WHERE agent_id = :agent)"
_OF_AGENT_ENTITIES = "entity_id IN (SELECT id FROM entities WHERE agent_id = :agent)"
_OF_AGENT_SOURCES = "source_entity_id IN (SELECT id FROM entities WHERE agent_id = :agent)"


@dataclass(frozen=True)
class SnapshotTable:
    name: str
    family: str
    key: tuple[str, ...]
    agent_scope: str  # WHERE fragment that keeps one agent's rows (:agent)
    skip: tuple[str, ...] = ()
    # False where no unique index covers `key`: the write checks for the row itself.
    key_is_unique: bool = True


# In write order: a row's parents (entities before aspects, ...) come first.
TABLES: tuple[SnapshotTable, ...] = (
    SnapshotTable("agents", "agents", ("id",), "id = :agent"),
    SnapshotTable("memories", "memories", ("id",), "agent_id = :agent", skip=("rid",)),
    SnapshotTable("embeddings", "memories", ("content_hash",),
                  "content_hash IN (SELECT content_hash FROM memories WHERE agent_id = :agent)", skip=("id",)),
    SnapshotTable("memory_history", "history", ("id",), _OF_AGENT_MEMORIES),
    SnapshotTable("memory_hints", "memories", ("memory_id", "hint"), _OF_AGENT_MEMORIES, skip=("id",)),
    SnapshotTable("entities", "graph", ("id",), "agent_id = :agent"),
    SnapshotTable("entity_aspects", "graph", ("id",), _OF_AGENT_ENTITIES),
    SnapshotTable("entity_attributes", "graph", ("id",), _OF_AGENT_ENTITIES),
    SnapshotTable("entity_dependencies", "graph", ("id",), _OF_AGENT_SOURCES),
    SnapshotTable("relations", "graph", ("id",), _OF_AGENT_SOURCES),
    SnapshotTable("relation_mentions", "graph", ("relation_id", "memory_id"),
                  f"relation_id IN (SELECT id FROM relations WHERE {_OF_AGENT_SOURCES})"),
    SnapshotTable("memory_entity_mentions", "graph", ("memory_id", "entity_id"), _OF_AGENT_ENTITIES),
    SnapshotTable("entity_communities", "graph", ("id",), "agent_id = :agent"),
    SnapshotTable("documents", "documents", ("id",), "agent_id = :agent"),
    SnapshotTable("document_memories", "documents", ("document_id", "memory_id"),
                  "document_id IN (SELECT id FROM documents WHERE agent_id = :agent)"),
    SnapshotTable("sessions", "sessions", ("session_key",), "agent_id = :agent"),
    SnapshotTable("session_memories", "sessions", ("session_key", "memory_id"), "agent_id = :agent"),
    SnapshotTable("session_transcripts", "sessions", ("session_key",), "agent_id = :agent"),
    SnapshotTable("session_scores", "sessions", ("session_key",), "agent_id = :agent"),
    SnapshotTable("agent_feedback", "feedback", ("memory_id", "agent_id", "actor", "feedback_type", "created_at"),
                  "agent_id = :agent", skip=("id",), key_is_unique=False),
)
BY_NAME = {t.name: t for t in TABLES}


def columns(conn: apsw.Connection, table: str) -> list[tuple[str, str]]:
    """(name, declared type) of a table's columns, in table order."""
    return [(r[1], (r[2] or "").upper()) for r in conn.execute(f"PRAGMA table_info({_ident(table)})")]


def _ident(name: str) -> str:
    if name not in BY_NAME:  # every name reaching SQL text comes from TABLES
        raise ValueError(f"not a snapshot table: {name}")
    return name


def _where(table: SnapshotTable, agent: str | None, extra: str | None) -> str:
    parts = [p for p in (table.agent_scope if agent is not None else None, extra) if p]
    return f" WHERE {' AND '.join(f'({p})' for p in parts)}" if parts else ""


def count(conn: apsw.Connection, table: SnapshotTable, *, agent: str | None = None, extra: str | None = None,
          params: dict[str, Any] | None = None) -> int:
    return int(scalar(conn, f"SELECT count(*) FROM {_ident(table.name)}{_where(table, agent, extra)}",
                      {"agent": agent, **(params or {})}) or 0)


def stream(conn: apsw.Connection, table: SnapshotTable, cols: Sequence[str], *, agent: str | None = None,
           extra: str | None = None, params: dict[str, Any] | None = None,
           chunk: int = 10_000) -> Iterator[list[tuple]]:
    """The table's rows in chunks, read by one cursor (call inside a read transaction so that every
    table comes from the same snapshot)."""
    names = ", ".join(cols)
    cur = conn.execute(f"SELECT {names} FROM {_ident(table.name)}{_where(table, agent, extra)}",
                       {"agent": agent, **(params or {})})
    while True:
        batch = list(islice(cur, chunk))
        if not batch:
            return
        yield batch


def _insert_sql(table: SnapshotTable, cols: Sequence[str]) -> str:
    names = ", ".join(cols)
    values = ", ".join(f":{c}" for c in cols)
    name = _ident(table.name)
    if table.name == "memories":
        # The newer version of a memory wins; a live memory of the same agent already holding this
        # content under another id keeps it (the unique content index would refuse the row anyway).
        updates = ", ".join(f"{c} = excluded.{c}" for c in cols if c != "id")
        return (f"INSERT INTO memories ({names}) SELECT {values} WHERE NOT EXISTS (SELECT 1 FROM memories o "
                "WHERE o.agent_id = :agent_id AND o.content_hash = :content_hash AND o.is_deleted = 0 "
                f"AND o.id <> :id AND :is_deleted = 0) ON CONFLICT(id) DO UPDATE SET {updates} "
                "WHERE excluded.version > memories.version RETURNING 1")
    if table.name == "embeddings":
        # A vector of another model under this hash is stale: the snapshot's (the store's model) replaces it.
        return (f"INSERT INTO embeddings ({names}) VALUES ({values}) ON CONFLICT(content_hash) DO UPDATE SET "
                "vector = excluded.vector, dimensions = excluded.dimensions, model = excluded.model, "
                "updated_at = excluded.updated_at WHERE embeddings.model <> excluded.model "
                "OR embeddings.dimensions <> excluded.dimensions RETURNING id")
    if table.key_is_unique:
        return f"INSERT INTO {name} ({names}) VALUES ({values}) ON CONFLICT DO NOTHING RETURNING 1"
    same = " AND ".join(f"t.{k} IS :{k}" for k in table.key)
    return (f"INSERT INTO {name} ({names}) SELECT {values} WHERE NOT EXISTS "
            f"(SELECT 1 FROM {name} t WHERE {same}) RETURNING 1")


def write(conn: apsw.Connection, table: SnapshotTable, cols: Sequence[str], batch: Sequence[dict[str, Any]]) -> list:
    """Write rows (dicts keyed by column) inside the caller's transaction; return what the write
    RETURNED for the rows it inserted or replaced (rows it left alone return nothing)."""
    if not batch:
        return []
    return [r[0] for r in conn.executemany(_insert_sql(table, cols), batch)]
