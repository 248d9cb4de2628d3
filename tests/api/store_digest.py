"""What a request changed in the store: a hash of every table's rows, before and after."""

from __future__ import annotations

import hashlib

from signet_pipeline.service import MemoryService
from tests.conftest import settle

# What the service writes about itself while frozen: logs, counters, telemetry, the projection
# request queue and its cache, the repair audit, worker heartbeats, the query planner's statistics.
BOOKKEEPING = frozenset({"analytics_errors", "log_entries", "provider_outcomes", "telemetry_events", "umap_requests",
                         "umap_cache", "repair_runs", "pipeline_heartbeats", "queue_workers", "sqlite_stat1",
                         "sqlite_stat4"})


def store_digest(svc: MemoryService) -> dict[str, str]:
    """table -> hash of its rows, for every table but BOOKKEEPING (virtual tables are seen
    through their shadow tables). Access counts a recall queued are flushed first."""
    svc.access.flush()
    settle(svc)
    conn = svc.db.reader()
    tables = [name for name, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
              if name not in BOOKKEEPING and not (sql or "").upper().startswith("CREATE VIRTUAL")]
    return {t: hashlib.sha256("\n".join(sorted(repr(r) for r in conn.execute(f'SELECT * FROM "{t}"'))).encode())
            .hexdigest() for t in tables}


def changed_tables(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(t for t in before.keys() | after.keys() if before.get(t) != after.get(t))
