"""SQL for loading many rows at once (a large snapshot import, snapshots/bulk_import.py).

Inside the caller's one write transaction, `deferred` drops the secondary indexes of the loaded
tables and sets aside the insert triggers it knows how to replace; rows then go in with plain
INSERTs, and on the way out the indexes are built once (a UNIQUE one refuses duplicates there),
the full-text index is filled in one pass, the vector change log is told, and the triggers come
back. SQLite's DDL is transactional: a failure anywhere rolls all of it back, triggers and
indexes included, and a crash leaves the store as it was before the transaction.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import cast

import apsw

from signet_pipeline.store.db import scalar
from signet_pipeline.store.fulltext import agent_terms

# The tables a bulk load writes with plain INSERTs (the others keep their per-row SQL).
TABLES = ("memories", "embeddings", "memory_history")
# Insert triggers a bulk load sets aside; `deferred` does their work once for every new row.
# Any other insert trigger on TABLES stays and fires per row (tests/pipeline/snapshots/test_bulk_import.py lists them).
REPLACED_TRIGGERS = ("memories_ai", "memories_terms_ai", "embeddings_ai")
_ROWID = {"memories": "rid", "embeddings": "id"}
# Pages kept in memory during the load (KiB, as cache_size takes a negative number): the indexes
# kept while loading (memories.id, embeddings.content_hash) stay cached instead of re-read.
CACHE_KIB = 262_144


def _table(name: str) -> str:
    if name not in TABLES:  # every name reaching SQL text comes from TABLES
        raise ValueError(f"not a bulk-loaded table: {name}")
    return name


def live_content(conn: apsw.Connection) -> list[tuple[str, str]]:
    """(agent_id, content_hash) of every live memory: what a new memory may not repeat."""
    # both columns are TEXT NOT NULL
    return cast(list[tuple[str, str]],
                conn.execute("SELECT agent_id, content_hash FROM memories WHERE is_deleted = 0").fetchall())


def insert(conn: apsw.Connection, table: str, cols: Sequence[str], rows: Sequence[tuple]) -> int:
    """Plain INSERTs of rows (tuples in `cols` order): a row breaking a constraint raises."""
    conn.executemany(f"INSERT INTO {_table(table)} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", rows)
    return len(rows)


def rowids_after(conn: apsw.Connection, table: str, mark: int) -> list[int]:
    """Rowids of the rows written past a high-water mark of `deferred`."""
    return [r[0] for r in conn.execute(f"SELECT {_ROWID[table]} FROM {_table(table)} WHERE {_ROWID[table]} > ?",
                                       (mark,))]


def _high_water(conn: apsw.Connection, table: str) -> int:
    return int(scalar(conn, f"SELECT coalesce(max({_ROWID[table]}), 0) FROM {_table(table)}") or 0)


@contextmanager
def deferred(conn: apsw.Connection) -> Iterator[dict[str, int]]:
    """Load TABLES inside the caller's write transaction without per-row index and trigger work.
    Yields each table's rowid high-water mark before the load: rows past it are the new ones
    (rowids grow, and nothing is deleted meanwhile). On an error nothing is restored here: the
    caller's rollback undoes the drops."""
    marks = {t: _high_water(conn, t) for t in _ROWID}
    names = ", ".join("?" * len(TABLES))
    # (name, sql) text pairs: only automatic indexes have no sql, and they are left out
    indexes = cast(list[tuple[str, str]],
                   conn.execute(f"SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                                f"AND tbl_name IN ({names})", TABLES).fetchall())
    triggers = cast(list[tuple[str, str]],
                    conn.execute(f"SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                                 f"AND name IN ({', '.join('?' * len(REPLACED_TRIGGERS))})",
                                 REPLACED_TRIGGERS).fetchall())
    for name, _ in indexes:
        conn.execute(f'DROP INDEX "{name}"')
    for name, _ in triggers:
        conn.execute(f'DROP TRIGGER "{name}"')
    yield marks
    for _, sql in indexes:
        conn.execute(sql)
    dropped = {name for name, _ in triggers}
    if "memories_ai" in dropped:  # what the trigger does per row, once: index the new rows' content
        conn.execute("INSERT INTO memories_fts(rowid, content) SELECT rid, content FROM memories WHERE rid > ?",
                     (marks["memories"],))
    if "memories_terms_ai" in dropped:  # and count their terms for their agents
        agent_terms.add_rows_after(conn, marks["memories"])
    if "embeddings_ai" in dropped and _high_water(conn, "embeddings") > marks["embeddings"]:
        _log_gap(conn)
    for _, sql in triggers:
        conn.execute(sql)


def _log_gap(conn: apsw.Connection) -> None:
    """Tell every vector index following `embedding_changes` to reload, with one entry instead of
    one per new vector: the log is emptied and one entry is written two past the highest sequence
    number ever given, so whatever an index last read, the next entry it sees is past a gap
    (service/vectors.py reloads from the table then, as after retention prunes the log)."""
    newest = scalar(conn, "SELECT max(id) FROM embeddings")
    issued = scalar(conn, "SELECT max(seq) FROM (SELECT seq FROM sqlite_sequence WHERE name = 'embedding_changes' "
                          "UNION ALL SELECT max(seq) FROM embedding_changes)")
    conn.execute("DELETE FROM embedding_changes")
    conn.execute("INSERT INTO embedding_changes(seq, embedding_id, op) VALUES (?, ?, 'upsert')",
                 (int(issued or 0) + 2, newest))


@contextmanager
def tuned(conn: apsw.Connection) -> Iterator[None]:
    """A larger page cache for the load, the connection's own afterwards. Durability settings
    (journal mode, synchronous) are left alone: the store holds users' rows."""
    before = scalar(conn, "PRAGMA cache_size")
    conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA cache_size={int(before)}")


def truncate_wal(conn: apsw.Connection) -> None:
    """Copy the load out of the write-ahead log and shrink the log file (it would otherwise keep
    the size of the whole load on disk); a reader in the way only makes it a partial checkpoint."""
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    except apsw.BusyError:
        pass
