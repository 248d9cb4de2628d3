"""The store as Dagster sees it: the tables of memories.db the pipeline reads and writes, as
external assets (group store), and the days its data spans, where the daily partitions start
(`history_backfill`: the decorator of the two backfills over memory days).

An asset that reads a table depends on it, and a table depends on the assets that write it, so the
lineage reads as the pipeline runs (documents -> document_ingest -> memories -> memory_extractions
-> ... -> derived_facts -> entity_graph -> entity_structure -> entity_communities; memories ->
embeddings -> embedding_projection). Where a write would close a circle the edge is left out:
derived facts are memories too, but show as derived_facts. Dagster materializes none of these
tables (the API writes them); the queue itself, memory_jobs, is in queue/. The deps name other
domains' assets by key (a shared module imports no domain); tests/pipeline/dagster/test_dagster_ui.py checks them.
"""

import warnings
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from typing import Any

import apsw
import dagster as dg

from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.errors import ConfigError, StoreError
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store import migrate
from signet_pipeline.timeutil import parse_iso, to_iso

GROUP = "store"
_NOT_MATERIALIZED = " A table of memories.db, never materialized by Dagster: the lineage shows who writes and reads it."

MEMORIES = dg.AssetSpec(
    "memories", group_name=GROUP, kinds={"sqlite"}, deps=["document_ingest", "session_summaries"],
    description="memories and memories_fts: what remember writes (API, MCP, hooks, imports), plus document chunks "
                "(document_ingest) and session summaries (session_summaries). The pipeline's derived facts are "
                "memories too, shown as derived_facts." + _NOT_MATERIALIZED,
)
EMBEDDINGS = dg.AssetSpec(
    "embeddings", group_name=GROUP, kinds={"sqlite"},
    deps=[MEMORIES, "derived_facts", "embedding_refresh", "embedding_backfill"],
    description="embeddings and vec_embeddings: one vector per memory content, written behind remember by the API's "
                "embedder and with each derived fact; embedding_refresh and embedding_backfill fill the gaps and "
                "follow a model switch." + _NOT_MATERIALIZED,
)
ENTITY_GRAPH = dg.AssetSpec(
    "entity_graph", group_name=GROUP, kinds={"sqlite"}, deps=[MEMORIES, "derived_facts"],
    description="entities, aspects, attributes, dependencies and relations: the inline linker writes them as remember "
                "commits, the triples of the pipeline's controlled writes add to them (derived_facts); "
                "entity_structure classifies them, entity_communities groups them, recall walks them."
                + _NOT_MATERIALIZED,
)
DOCUMENTS = dg.AssetSpec(
    "documents", group_name=GROUP, kinds={"sqlite"}, deps=["connector_sync"],
    description="documents: URLs and texts posted to /api/documents, and the files connector syncs find "
                "(connector_sync); document_ingest chunks them into memories." + _NOT_MATERIALIZED,
)
SESSION_TRANSCRIPTS = dg.AssetSpec(
    "session_transcripts", group_name=GROUP, kinds={"sqlite"},
    description="session_transcripts: the transcripts the session-end hook keeps; session_summaries reads them."
                + _NOT_MATERIALIZED,
)
TABLES = [MEMORIES, EMBEDDINGS, ENTITY_GRAPH, DOCUMENTS, SESSION_TRANSCRIPTS]


def data_days() -> tuple[str, str]:
    """(the oldest memory's day, the day the store was created), UTC, read when the code location
    loads; today for what the store cannot tell yet (no store, nothing in it)."""
    today = datetime.now(UTC).date().isoformat()

    def day(at: str | None) -> str:
        return min(parse_iso(at).date().isoformat(), today) if at else today

    try:
        with SignetStoreResource().database() as db:
            if db is None:
                return today, today
            return day(mem_store.oldest_created_at(db.reader())), day(migrate.created_at(db))
    except (apsw.Error, ConfigError, StoreError, ValueError):  # an unreadable store must not stop the location loading
        return today, today


# Daily partitions start where the data does, not at a fixed date (a wall of days with nothing to
# process). History backfills (reextracted_facts, embedding_backfill) are keyed by memory
# created_at, which imports may back-date: from the oldest memory's day. A backup snapshots the store
# as it is when it runs, named for the day that ended: from the day before the store was created, so
# a store can be backed up on its first day. Read once per process; memories imported with older
# dates show up after a reload of the code location.
MEMORY_DAY, STORE_DAY = data_days()
MEMORY_DAYS = dg.DailyPartitionsDefinition(start_date=MEMORY_DAY, end_offset=1)
BACKUP_DAYS = dg.DailyPartitionsDefinition(start_date=(date.fromisoformat(STORE_DAY) - timedelta(1)).isoformat())


def selected_days(context: dg.AssetExecutionContext) -> tuple[str, str]:
    """The run's partition range as [start, end) ISO timestamps in UTC (a range of days is one run)."""
    window = context.partition_time_window
    return to_iso(window.start.astimezone(UTC)), to_iso(window.end.astimezone(UTC))


def history_backfill(days: dg.PartitionsDefinition = MEMORY_DAYS, **asset_kwargs: Any) -> Callable:
    """@dg.asset over `days` (MEMORY_DAYS; a test passes its own) whose backfill of a range of days is
    one run. BackfillPolicy is a beta parameter with no stable equivalent; its BetaWarning repeated in
    every process that loads the code location (daemon, webserver, each run) and told the operator
    nothing, so it is silenced here, for this call alone."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Parameter `backfill_policy`", category=dg.BetaWarning)
        return dg.asset(partitions_def=days, backfill_policy=dg.BackfillPolicy.single_run(), **asset_kwargs)
