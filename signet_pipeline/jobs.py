"""Dagster jobs: which assets a run materializes."""

from __future__ import annotations

import dagster as dg

from signet_pipeline.assets.documents import document_ingest
from signet_pipeline.assets.extraction import derived_facts, memory_decisions, memory_extractions
from signet_pipeline.assets.graph import entity_communities, entity_structure
from signet_pipeline.assets.hints import memory_hints
from signet_pipeline.assets.maintenance import maintenance_cycle, retention_sweep
from signet_pipeline.assets.sessions import session_summaries

extract_memories_job = dg.define_asset_job(
    "extract_memories",
    selection=dg.AssetSelection.assets(memory_extractions, memory_decisions, derived_facts),
    description="One batch of `extract` jobs: lease -> extract -> decide -> controlled writes. Launched by "
                "extract_jobs_sensor; launch it by hand with an empty job_ids to drain the oldest due jobs.",
)

hints_job = dg.define_asset_job(
    "generate_hints", selection=dg.AssetSelection.assets(memory_hints),
    description="One batch of `prospective_index` jobs: hint questions per memory. Launched by hints_jobs_sensor; "
                "launch it by hand with an empty job_ids to drain the oldest due jobs.",
)

documents_job = dg.define_asset_job(
    "ingest_documents", selection=dg.AssetSelection.assets(document_ingest),
    description="One batch of `document_ingest` jobs: fetch or read, chunk, write chunk memories. Launched by "
                "document_jobs_sensor; launch it by hand with an empty job_ids to drain the oldest due jobs.",
)

sessions_job = dg.define_asset_job(
    "summarize_sessions", selection=dg.AssetSelection.assets(session_summaries),
    description="One batch of `session_summary` jobs: ended sessions' transcripts -> session_summary memories. "
                "Launched by session_jobs_sensor; launch it by hand with an empty job_ids to drain the oldest due jobs.",
)

communities_job = dg.define_asset_job(
    "detect_communities", selection=dg.AssetSelection.assets(entity_communities),
    description="Recompute entity communities for every agent.",
)

classify_entities_job = dg.define_asset_job(
    "classify_entities", selection=dg.AssetSelection.assets(entity_structure),
    description="One batch of `structural_classify` jobs: aspects, kinds and entity types for new facts. Launched by "
                "structural_jobs_sensor; launch it by hand with an empty job_ids to drain the oldest due jobs.",
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
