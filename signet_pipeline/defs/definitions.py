"""Dagster code location for the Signet pipeline (referenced by workspace.yaml and `signet up`).

Every run executes in one process (in-process executor): the memory service (embedder, vector
index) loads once per run. Queue-driven runs drain their queue batch after batch
(stages/drain/loop.py); the sensors launch one when jobs are due and none is in flight.
"""

from __future__ import annotations

import dagster as dg

from signet_pipeline.defs.assets.backups import store_backup
from signet_pipeline.defs.assets.documents import connector_sync, document_ingest
from signet_pipeline.defs.assets.embeddings import (
    embedding_backfill,
    embedding_backfill_job,
    embedding_refresh,
    embedding_refresh_job,
    embedding_refresh_sensor,
)
from signet_pipeline.defs.assets.extraction import reextracted_facts
from signet_pipeline.defs.assets.graph import entity_communities
from signet_pipeline.defs.assets.maintenance import maintenance_cycle, retention_sweep
from signet_pipeline.defs.assets.memory_pipeline import memory_pipeline
from signet_pipeline.defs.assets.projection import (
    embedding_projection,
    projection_job,
    projection_refresh_schedule,
    projection_request_sensor,
)
from signet_pipeline.defs.assets.sessions import memory_md, session_summaries
from signet_pipeline.defs.checks import DIAGNOSTIC_CHECKS, derived_facts_provenance
from signet_pipeline.defs.jobs import (
    backup_job,
    communities_job,
    connectors_job,
    documents_job,
    maintenance_job,
    memory_md_job,
    process_memories_job,
    retention_job,
    sessions_job,
)
from signet_pipeline.defs.resources import EmbedderResource, LlmResource, SignetStoreResource
from signet_pipeline.defs.schedules import (
    backup_schedule,
    communities_schedule,
    maintenance_schedule,
    memory_md_schedule,
    retention_schedule,
)
from signet_pipeline.defs.sensors import (
    MEMORY_JOBS,
    connector_jobs_sensor,
    document_jobs_sensor,
    memory_jobs_sensor,
    queue_backlog_sensor,
    session_jobs_sensor,
)

defs = dg.Definitions(
    assets=[MEMORY_JOBS, memory_pipeline, reextracted_facts, entity_communities, retention_sweep, maintenance_cycle, embedding_projection,
            embedding_refresh, embedding_backfill, document_ingest, session_summaries, store_backup,
            connector_sync, memory_md],
    asset_checks=[derived_facts_provenance, *DIAGNOSTIC_CHECKS],
    jobs=[process_memories_job, communities_job, retention_job, maintenance_job,
          projection_job, embedding_refresh_job, embedding_backfill_job, documents_job, sessions_job, backup_job,
          connectors_job, memory_md_job],
    sensors=[memory_jobs_sensor, projection_request_sensor,
             embedding_refresh_sensor, document_jobs_sensor, session_jobs_sensor, queue_backlog_sensor,
             connector_jobs_sensor],
    schedules=[communities_schedule, retention_schedule, maintenance_schedule, projection_refresh_schedule,
               backup_schedule, memory_md_schedule],
    resources={
        "signet": SignetStoreResource(embedder=EmbedderResource()),
        "llm": LlmResource(),
    },
    executor=dg.in_process_executor,
)
