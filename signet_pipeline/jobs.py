"""Dagster jobs: which assets a run materializes.

The queue-draining jobs carry the tag `signet/queue: <job type>`; dagster.yaml limits runs to one
per value of that tag (tag_concurrency_limits), so a queue has at most one drain run at a time even
when an operator launches one by hand beside the sensor's.
"""

from __future__ import annotations

import dagster as dg

from signet_pipeline.assets.documents import document_ingest
from signet_pipeline.assets.extraction import extraction_pipeline
from signet_pipeline.assets.graph import entity_communities, entity_structure
from signet_pipeline.assets.hints import memory_hints
from signet_pipeline.assets.maintenance import maintenance_cycle, retention_sweep
from signet_pipeline.assets.sessions import session_summaries
from signet_pipeline.pipeline.queue import DOCUMENT_INGEST, EXTRACT, PROSPECTIVE_INDEX, SESSION_SUMMARY, \
    STRUCTURAL_CLASSIFY

QUEUE_TAG = "signet/queue"
_DRAIN = ("Launched by {sensor} when jobs are due and no drain run of the queue is in flight; launch it by hand "
          "to drain now (config: max_jobs, budget_s, idle_s).")

extract_memories_job = dg.define_asset_job(
    "extract_memories", selection=dg.AssetSelection.assets(extraction_pipeline), tags={QUEUE_TAG: EXTRACT},
    description="Drains the `extract` queue: lease -> extract -> decide -> controlled writes, batch after batch. "
                + _DRAIN.format(sensor="extract_jobs_sensor"),
)

hints_job = dg.define_asset_job(
    "generate_hints", selection=dg.AssetSelection.assets(memory_hints), tags={QUEUE_TAG: PROSPECTIVE_INDEX},
    description="Drains the `prospective_index` queue: hint questions per memory. "
                + _DRAIN.format(sensor="hints_jobs_sensor"),
)

documents_job = dg.define_asset_job(
    "ingest_documents", selection=dg.AssetSelection.assets(document_ingest), tags={QUEUE_TAG: DOCUMENT_INGEST},
    description="Drains the `document_ingest` queue: fetch or read, chunk, write chunk memories. "
                + _DRAIN.format(sensor="document_jobs_sensor"),
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

classify_entities_job = dg.define_asset_job(
    "classify_entities", selection=dg.AssetSelection.assets(entity_structure), tags={QUEUE_TAG: STRUCTURAL_CLASSIFY},
    description="Drains the `structural_classify` queue: aspects, kinds and entity types for new facts. "
                + _DRAIN.format(sensor="structural_jobs_sensor"),
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
