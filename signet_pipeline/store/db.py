"""The one module that owns SQLite connections.

apsw ships its own SQLite (FTS5, math functions) and can load sqlite-vec; the stdlib sqlite3 on
these machines cannot load extensions (DESIGN.md).

- Reads: one connection per thread, WAL snapshot reads, never blocked by writers.
- Writes: one writer connection per process behind a lock, `BEGIN IMMEDIATE`, short transactions.
  In-process writers queue on the lock instead of spinning in SQLite's busy handler; writers in
  other processes (Dagster runs) are waited for by the busy timeout.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import apsw
import sqlite_vec

from signet_pipeline.errors import QueryTimeout, StoreError
from signet_pipeline.store.fulltext import functions as fts_functions

Row = dict[str, Any]
Params = Sequence[Any] | dict[str, Any]
# Run last inside a write transaction with its report (the job queue completes a job there, so the
# work and its completion commit together).
Commit = Callable[[apsw.Connection, Any], None]

BUSY_TIMEOUT_MS = 30_000
PROGRESS_STEPS = 20_000  # VM instructions between deadline checks: ~0.1-1 ms apart, a negligible cost
_clock = time.monotonic  # looked up at each check, so a test can make time pass
log = logging.getLogger("signet.store")


def _enable_wal(conn: apsw.Connection) -> None:
    """Switching a new file to WAL takes the database exclusively for a moment, and SQLite answers
    BUSY at once there rather than through the busy handler: processes opening a new store together
    (API and Dagster at `signet up`) retry, with backoff, up to the busy timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    delay = 0.005
    while True:
        try:
            mode = scalar(conn, "PRAGMA journal_mode=WAL")
            if str(mode).lower() != "wal":  # e.g. a filesystem without shared memory: readers then block writers
                log.warning("database %s stays in journal mode %r: WAL is not available here", conn.filename, mode)
            return
        except apsw.BusyError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)


def _configure(conn: apsw.Connection) -> None:
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    conn.enable_load_extension(False)
    conn.set_busy_timeout(BUSY_TIMEOUT_MS)
    _enable_wal(conn)
    conn.execute("PRAGMA synchronous=NORMAL")  # durable across app crashes in WAL; fsync at checkpoint
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA temp_store=MEMORY")
    conn.execute("PRAGMA cache_size=-32000")
    fts_functions.register(conn)  # the term-statistics triggers call them on every write


def rows(conn: apsw.Connection, sql: str, params: Params = ()) -> list[Row]:
    """Run a query and return dict rows."""
    cur = conn.execute(sql, params)
    try:
        names = [d[0] for d in cur.getdescription()]
    except apsw.ExecutionCompleteError:  # no rows: the statement already finished
        return []
    return [dict(zip(names, r)) for r in cur]


def one(conn: apsw.Connection, sql: str, params: Params = ()) -> Row | None:
    found = rows(conn, sql, params)
    return found[0] if found else None


def scalar(conn: apsw.Connection, sql: str, params: Params = ()) -> Any:
    for r in conn.execute(sql, params):
        return r[0]
    return None


@contextmanager
def deadline(conn: apsw.Connection, seconds: float) -> Iterator[None]:
    """Statements on `conn` inside the block are interrupted once `seconds` have passed since it
    began (QueryTimeout). SQLite's progress handler makes the check between VM instructions, so a
    sort or an aggregate over a big scan is stopped too, not only a statement that yields rows.
    Blocks nest (each is its own handler: the earliest deadline wins). Open it inside a read
    transaction, not around one, so the transaction's COMMIT never meets a spent deadline."""
    end = _clock() + seconds
    key = object()
    conn.set_progress_handler(lambda: _clock() > end, PROGRESS_STEPS, id=key)
    try:
        yield
    except apsw.InterruptError as exc:
        raise QueryTimeout(f"the query ran past its {seconds:g} s time limit and was stopped",
                           details={"limitMs": round(seconds * 1000)}) from exc
    finally:
        conn.set_progress_handler(None, id=key)


class Database:
    """Connections to one memories.db file."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._write_lock = threading.RLock()
        self._all: list[apsw.Connection] = []
        self._all_lock = threading.Lock()
        self._writer = self._open()

    def _open(self) -> apsw.Connection:
        try:
            conn = apsw.Connection(str(self.path))
            _configure(conn)
        except apsw.Error as exc:
            raise StoreError(f"cannot open database {self.path}: {exc}") from exc
        with self._all_lock:
            self._all.append(conn)
        return conn

    def reader(self) -> apsw.Connection:
        """This thread's read connection (autocommit; each statement sees a committed snapshot)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._open()
        return conn

    @contextmanager
    def read(self) -> Iterator[apsw.Connection]:
        """A consistent snapshot across several statements (deferred read transaction)."""
        conn = self.reader()
        if not conn.in_transaction:
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                conn.execute("COMMIT")
        else:
            yield conn

    @contextmanager
    def write(self) -> Iterator[apsw.Connection]:
        """A short write transaction. Never call a network provider inside it."""
        with self._write_lock:
            conn = self._writer
            if conn.in_transaction:  # nested use inside an open write: join it
                yield conn
                return
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            else:
                conn.execute("COMMIT")

    def ping(self) -> bool:
        try:
            return scalar(self.reader(), "SELECT 1") == 1
        except apsw.Error:
            return False

    def optimize(self) -> None:
        """Refresh planner statistics where SQLite judges it useful (cheap; bounded analysis)."""
        with self.write() as conn:
            conn.execute("PRAGMA optimize=0x10002")

    def close(self) -> None:
        with self._all_lock:
            conns, self._all = self._all, []
        for conn in conns:
            try:
                conn.close()
            except apsw.Error:
                pass
        self._local = threading.local()
