"""The tables a snapshot carries and their SQL: streamed reads for export, idempotent writes for import.

A snapshot holds what a person would lose with the database: memories, their vectors and history,
the knowledge graph, documents, sessions and feedback. Queues, caches, telemetry and bookkeeping
(memory_jobs, umap_cache, provider_outcomes, ...) are rebuilt by the pipeline and stay out.

Rows are matched on `key` (what makes a row the same row in another store), never on surrogate
integer ids, which the target assigns (`skip`). Writing a snapshot twice changes nothing.

A snapshot is not trusted with who owns what: `refused` finds the rows whose key, parent or
referenced row the store holds for another agent, and a newer memory never rewrites the columns
that say who owns it and who may see or change it (`_ACCESS`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

import apsw

from signet_pipeline.store.agents import READ_POLICY_SQL
from signet_pipeline.store.db import scalar

# A memory's owner, who may see it, and which project-scoped tokens may change it.
_ACCESS = ("id", "agent_id", "visibility", "project")


@dataclass(frozen=True)
class SnapshotTable:
    """A table a snapshot carries and whose rows they are: `owner` is the column naming the row's
    agent or, with `parent` (table, column), referring to the parent row that does (history -> memory)."""

    name: str
    family: str
    key: tuple[str, ...]
    owner: str
    parent: tuple[str, str] | None = None
    # (column, table): other rows this row refers to by their key; they must be the same agent's.
    refs: tuple[tuple[str, str], ...] = ()
    # A column naming a memory the row's agent must be able to read (tables owned by `agent_id`).
    reads: str | None = None
    skip: tuple[str, ...] = ()
    # False where no unique index covers `key`: the write checks for the row itself.
    key_is_unique: bool = True
    # False for vectors: they belong to their content, which agents share.
    guarded: bool = True

    @property
    def agent_scope(self) -> str:
        """WHERE fragment that keeps one agent's rows (:agent)."""
        if self.parent is None:
            return f"{self.owner} = :agent"
        parent, column = self.parent
        return f"{self.owner} IN (SELECT {column} FROM {parent} WHERE {BY_NAME[parent].agent_scope})"


_MEMORY = ("memory_id", "memories")
_ENTITY = ("entities", "id")

# In write order: a row's parents (entities before aspects, ...) come first.
TABLES: tuple[SnapshotTable, ...] = (
    SnapshotTable("agents", "agents", ("id",), "id"),
    SnapshotTable("memories", "memories", ("id",), "agent_id", skip=("rid",)),
    SnapshotTable("embeddings", "memories", ("content_hash",), "content_hash", ("memories", "content_hash"),
                  skip=("id",)),
    SnapshotTable("memory_history", "history", ("id",), "memory_id", ("memories", "id")),
    SnapshotTable("memory_hints", "memories", ("memory_id", "hint"), "memory_id", ("memories", "id"), skip=("id",)),
    SnapshotTable("entities", "graph", ("id",), "agent_id", refs=(("community_id", "entity_communities"),)),
    SnapshotTable("entity_aspects", "graph", ("id",), "entity_id", _ENTITY),
    SnapshotTable("entity_attributes", "graph", ("id",), "entity_id", _ENTITY,
                  refs=(("aspect_id", "entity_aspects"), _MEMORY)),
    SnapshotTable("entity_dependencies", "graph", ("id",), "source_entity_id", _ENTITY,
                  refs=(("target_entity_id", "entities"), ("aspect_id", "entity_aspects"))),
    SnapshotTable("relations", "graph", ("id",), "source_entity_id", _ENTITY, refs=(("target_entity_id", "entities"),)),
    SnapshotTable("relation_mentions", "graph", ("relation_id", "memory_id"), "relation_id", ("relations", "id"),
                  refs=(_MEMORY,)),
    SnapshotTable("memory_entity_mentions", "graph", ("memory_id", "entity_id"), "entity_id", _ENTITY, refs=(_MEMORY,)),
    SnapshotTable("entity_communities", "graph", ("id",), "agent_id"),
    SnapshotTable("documents", "documents", ("id",), "agent_id"),
    SnapshotTable("document_memories", "documents", ("document_id", "memory_id"), "document_id", ("documents", "id"),
                  refs=(_MEMORY,)),
    SnapshotTable("sessions", "sessions", ("session_key",), "agent_id"),
    SnapshotTable("session_memories", "sessions", ("session_key", "memory_id"), "agent_id",
                  refs=(("session_key", "sessions"),), reads="memory_id"),
    SnapshotTable("session_transcripts", "sessions", ("session_key",), "agent_id", refs=(("session_key", "sessions"),),
                  skip=("rid",)),
    SnapshotTable("session_scores", "sessions", ("session_key",), "agent_id", refs=(("session_key", "sessions"),)),
    SnapshotTable("agent_feedback", "feedback", ("memory_id", "agent_id", "actor", "feedback_type", "created_at"),
                  "agent_id", skip=("id",), key_is_unique=False, reads="memory_id"),
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


def _owner_of(table: SnapshotTable, column: str, value: str) -> str:
    """SQL: the agent owning the store's row of `table` whose `column` is `value` (NULL if none)."""
    if table.parent is None:
        return f"(SELECT {table.owner} FROM {table.name} WHERE {column} = {value})"
    parent, by = table.parent
    via = _owner_of(BY_NAME[parent], by, f"{table.name}.{table.owner}")
    return f"(SELECT {via} FROM {table.name} WHERE {column} = {value})"


def _refs(table: SnapshotTable, cols: Sequence[str]) -> list[tuple[str, str]]:
    """(column, table) for each row a row names by its key: itself, its parent, what it refers to."""
    itself = len(table.key) == 1 and table.key[0] != table.owner  # (an agents row is its own owner)
    refs = ([(table.owner, table.parent[0])] if table.parent else []) \
        + ([(table.key[0], table.name)] if itself else []) + list(table.refs)
    return [(col, ref) for col, ref in refs if col in cols]


def hash_agents(conn: apsw.Connection) -> list[tuple[str, str]]:
    """(content_hash, agent_id) of every memory's text: whose a vector may be."""
    return list(conn.execute("SELECT DISTINCT content_hash, agent_id FROM memories"))


def guarded_refs(table: SnapshotTable, cols: Sequence[str]) -> list[tuple[str, str]]:
    """(column, table) for every row of the store the guards look up: a snapshot row naming none
    the store holds passes them (a bulk import checks only the rows that do)."""
    if not table.guarded:
        return []
    return _refs(table, cols) + ([(table.reads, "memories")] if table.reads is not None and table.reads in cols else [])


# A vector is keyed by its text's hash, which every agent holding that text shares: a snapshot
# writes one only for text its own agent holds in the store, and no other agent does (a vector
# planted under a hash would otherwise change another agent's recall, or be reused for its text).
VECTOR_GUARD = ("EXISTS (SELECT 1 FROM memories WHERE content_hash = :content_hash AND agent_id = :_owner) AND "
                "NOT EXISTS (SELECT 1 FROM memories WHERE content_hash = :content_hash AND agent_id IS NOT :_owner)")


def _guards(table: SnapshotTable, cols: Sequence[str]) -> list[str]:
    """What a row (its agent in the snapshot bound as :_owner) must meet to be written: the rows
    it names (itself, its parent, what it refers to) are absent from the store or the same agent's."""
    if table.name == "embeddings":
        return [VECTOR_GUARD]
    guards = [f"coalesce({_owner_of(BY_NAME[ref], BY_NAME[ref].key[0], f':{col}')}, :_owner) IS :_owner"
              for col, ref in _refs(table, cols)]
    if table.reads in cols:  # another agent's memory it may read (READ_POLICY_SQL binds :agent_id, the owner)
        guards.append(f"NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = :{table.reads} "
                      f"AND m.agent_id <> :_owner AND NOT {READ_POLICY_SQL})")
    return guards


def refused(conn: apsw.Connection, table: SnapshotTable, cols: Sequence[str],
            batch: Sequence[dict[str, Any]]) -> list[int]:
    """Positions in `batch` (rows carrying their snapshot agent as `_owner`) of the rows that would
    touch another agent's rows in the store: they are not written."""
    guards = _guards(table, cols) if table.guarded else []
    if not guards or not batch:
        return []
    sql = f"SELECT :_at WHERE NOT ({' AND '.join(guards)})"
    return [r[0] for r in conn.executemany(sql, [{**row, "_at": at} for at, row in enumerate(batch)])]


def _insert_sql(table: SnapshotTable, cols: Sequence[str]) -> str:
    names = ", ".join(cols)
    values = ", ".join(f":{c}" for c in cols)
    name = _ident(table.name)
    if table.name == "memories":
        # The newer version of a memory wins, but for who owns and may see it; a live memory of the
        # same agent already holding this content under another id keeps it (the unique content
        # index would refuse the row anyway).
        updates = ", ".join(f"{c} = excluded.{c}" for c in cols if c not in _ACCESS)
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
