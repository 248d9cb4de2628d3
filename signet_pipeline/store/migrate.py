"""Numbered, idempotent migrations recorded in schema_migrations (with checksum).

A migration is `migrations/NNNN_name.sql`. Applied ones are skipped; a changed file that was
already applied is an error (its checksum no longer matches). After applying, every object the
file declares must exist, or the transaction rolls back.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass
from importlib import resources

from signet_pipeline.errors import MigrationError
from signet_pipeline.store.db import Database, rows, scalar
from signet_pipeline.timeutil import now_iso

_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_DECLARED = re.compile(
    r"CREATE\s+(?:UNIQUE\s+)?(?:VIRTUAL\s+)?(TABLE|INDEX|TRIGGER)\s+IF\s+NOT\s+EXISTS\s+([A-Za-z_][A-Za-z0-9_]*)",
    re.IGNORECASE,
)

_BOOKKEEPING = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    checksum   TEXT NOT NULL,
    applied_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS schema_migrations_audit (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    version     INTEGER NOT NULL,
    duration_ms REAL NOT NULL,
    applied_at  TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()

    def declared_objects(self) -> list[tuple[str, str]]:
        return [(kind.lower(), name) for kind, name in _DECLARED.findall(self.sql)]


def discover() -> list[Migration]:
    found = []
    for entry in resources.files("signet_pipeline.store.migrations").iterdir():
        m = _FILE.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda mig: mig.version)
    versions = [mig.version for mig in found]
    if len(set(versions)) != len(versions):
        raise MigrationError(f"duplicate migration numbers: {versions}")
    return found


def migrate(db: Database, migrations: list[Migration] | None = None) -> list[int]:
    """Apply pending migrations; return the versions applied now.

    Each version is checked and applied inside one write transaction, so processes opening a new
    database at the same time (API, Dagster runs) apply each migration exactly once.
    """
    migrations = discover() if migrations is None else migrations
    with db.write() as conn:
        conn.execute(_BOOKKEEPING)
    done: list[int] = []
    for mig in migrations:
        started = time.perf_counter()
        with db.write() as conn:
            prior = scalar(conn, "SELECT checksum FROM schema_migrations WHERE version = ?", (mig.version,))
            if prior is not None:
                if prior != mig.checksum:
                    raise MigrationError(
                        f"migration {mig.version:04d}_{mig.name} changed after it was applied "
                        "(checksum mismatch): add a new migration instead of editing an applied one"
                    )
                continue
            conn.execute(mig.sql)
            _verify(conn, mig)
            stamp = now_iso()
            conn.execute(
                "INSERT INTO schema_migrations(version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                (mig.version, mig.name, mig.checksum, stamp),
            )
            conn.execute(
                "INSERT INTO schema_migrations_audit(version, duration_ms, applied_at) VALUES (?, ?, ?)",
                (mig.version, (time.perf_counter() - started) * 1000, stamp),
            )
        done.append(mig.version)
    return done


def _verify(conn, mig: Migration) -> None:
    present = {(r["type"], r["name"]) for r in rows(conn, "SELECT type, name FROM sqlite_master")}
    missing = [f"{kind} {name}" for kind, name in mig.declared_objects() if (kind, name) not in present]
    if missing:
        raise MigrationError(f"migration {mig.version:04d}_{mig.name} did not create: {', '.join(missing)}")


def created_at(db: Database) -> str | None:
    """When the store was created: its first migration's time (None before any)."""
    return scalar(db.reader(), "SELECT min(applied_at) FROM schema_migrations")


def applied_versions(db: Database) -> list[int]:
    return [r["version"] for r in rows(db.reader(), "SELECT version FROM schema_migrations ORDER BY version")]
