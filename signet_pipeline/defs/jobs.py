"""Dagster jobs: which assets a run materializes.

The queue-draining jobs carry the tag `signet/queue: <queue>` (`memory` for the extract,
structural_classify and prospective_index queues, else the job type); dagster.yaml limits runs to
one per value of that tag (tag_concurrency_limits), so a queue has at most one drain run at a time
even when an operator launches one by hand beside the sensor's.
"""

from __future__ import annotations

import dagster as dg

from signet_pipeline.defs.assets.backups import store_backup
from signet_pipeline.defs.assets.documents import connector_sync, document_ingest
from signet_pipeline.defs.assets.graph import entity_communities
from signet_pipeline.defs.assets.maintenance import maintenance_cycle, retention_sweep
from signet_pipeline.defs.assets.memory_pipeline import memory_pipeline
from signet_pipeline.defs.assets.sessions import memory_md, session_summaries
from signet_pipeline.store.queue import CONNECTOR_SYNC, DOCUMENT_INGEST, SESSION_SUMMARY

QUEUE_TAG = "signet/queue"
MEMORY_QUEUE_TAG = "memory"  # the extract, structural_classify and prospective_index queues
_DRAIN = ("Launched by {sensor} when jobs are due and no drain run of the queue is in flight; launch it by hand "
          "to drain now (config: max_jobs, budget_s, idle_s).")

process_memories_job = dg.define_asset_job(
    "process_memories", selection=dg.AssetSelection.assets(memory_pipeline), tags={QUEUE_TAG: MEMORY_QUEUE_TAG},
    description="Drains the memory queues in one run: extraction (lease -> extract -> decide -> controlled writes) "
                "first, then structural classification, then prospective hints, batch after batch. "
                + _DRAIN.format(sensor="memory_jobs_sensor") + " hints_backfill queues hints for old memories first.",
)

documents_job = dg.define_asset_job(
    "ingest_documents", selection=dg.AssetSelection.assets(document_ingest), tags={QUEUE_TAG: DOCUMENT_INGEST},
    description="Drains the `document_ingest` queue: fetch or read, chunk, write chunk memories. "
                + _DRAIN.format(sensor="document_jobs_sensor"),
)

connectors_job = dg.define_asset_job(
    "sync_connectors", selection=dg.AssetSelection.assets(connector_sync), tags={QUEUE_TAG: CONNECTOR_SYNC},
    description="Drains the `connector_sync` queue: each requested sync reads new or changed files into documents "
                "and queues their ingest. " + _DRAIN.format(sensor="connector_jobs_sensor"),
)

sessions_job = dg.define_asset_job(
    "summarize_sessions", selection=dg.AssetSelection.assets(session_summaries), tags={QUEUE_TAG: SESSION_SUMMARY},
    description="Drains the `session_summary` queue: ended sessions' transcripts -> session_summary memories. "
                + _DRAIN.format(sensor="session_jobs_sensor"),
)

communities_job = dg.define_asset_job(
    "detect_communities", selection=dg.AssetSelection.assets(entity_communities),
    description="Recompute entity communities for every agent.",
)

retention_job = dg.define_asset_job(
    "retention", selection=dg.AssetSelection.assets(retention_sweep),
    description="One retention sweep (six ordered purge steps, batch-limited). Scheduled every "
                "memory.pipelineV2.retention.intervalHours; launch it by hand to sweep now.",
)

maintenance_job = dg.define_asset_job(
    "maintenance", selection=dg.AssetSelection.assets(maintenance_cycle),
    description="One maintenance cycle: diagnose, then (execute mode) repair through the gate.",
)

backup_job = dg.define_asset_job(
    "backup", selection=dg.AssetSelection.assets(store_backup),
    description="Back up one day (database copy + Parquet snapshot). Scheduled daily at backup.hour:backup.minute "
                "for the day that ended; launch a partition or a backfill by hand for a backup now.",
)

memory_md_job = dg.define_asset_job(
    "synthesize_memory_md", selection=dg.AssetSelection.assets(memory_md),
    description="Regenerate MEMORY.md for the default agent and every isolated agent (memory.synthesis.schedule).",
)
