from datetime import date, timedelta

import dagster as dg

from signet_pipeline.defs.definitions import defs
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.defs.store import data_days
from tests.conftest import ROOT


def test_definitions_load_and_validate():
    assert isinstance(defs, dg.Definitions)
    dg.Definitions.validate_loadable(defs)


def test_store_resource_resolves_the_workspace(tmp_path):
    resource = SignetStoreResource(workspace=str(tmp_path))
    assert resource.settings().db_path == tmp_path / "memory" / "memories.db"


def test_the_shipped_instance_config_loads(tmp_path, monkeypatch):
    import shutil

    shutil.copy(ROOT / "dagster.yaml", tmp_path / "dagster.yaml")
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    instance = dg.DagsterInstance.get()
    try:
        assert instance.run_coordinator.dequeue_interval_seconds == 1
        assert not instance.telemetry_enabled and not instance.nux_enabled
    finally:
        instance.dispose()


def test_every_definition_is_described_and_grouped():
    specs = defs.resolve_all_asset_specs()
    assert len(specs) >= 4
    for spec in specs:
        assert spec.description, spec.key
        assert spec.group_name and spec.group_name != "default", spec.key
    graph = defs.resolve_asset_graph()
    checks = [graph.get_check_spec(key) for key in graph.asset_check_keys]
    assert len(checks) >= 2 and all(c.description for c in checks)
    repo = defs.get_repository_def()
    assert repo.sensor_defs and all(s.description for s in repo.sensor_defs)
    assert repo.schedule_defs and all(s.description for s in repo.schedule_defs)
    for job in repo.get_all_jobs():
        if not job.name.startswith("__"):
            assert job.description, job.name


# What an operator's run history, backfills and schedules are keyed on: renaming any of these
# orphans past runs in the UI, so a layout change must leave them exactly as they are.
ASSETS = [
    ("connector_sync", "documents"), ("derived_facts", "extraction"), ("document_ingest", "documents"),
    ("documents", "store"), ("embedding_backfill", "embeddings"), ("embedding_projection", "embeddings"),
    ("embedding_refresh", "embeddings"), ("embeddings", "store"), ("entity_communities", "graph"),
    ("entity_graph", "store"), ("entity_structure", "graph"), ("maintenance_cycle", "maintenance"),
    ("memories", "store"), ("memory_decisions", "extraction"), ("memory_extractions", "extraction"),
    ("memory_hints", "extraction"), ("memory_jobs", "queue"), ("memory_md", "sessions"),
    ("reextracted_facts", "extraction"), ("retention_sweep", "maintenance"), ("session_summaries", "extraction"),
    ("session_transcripts", "store"), ("store_backup", "backups"),
]
JOBS = ["backfill_embeddings", "backup", "detect_communities", "ingest_documents", "maintenance", "process_memories",
        "project_embeddings", "refresh_embeddings", "retention", "summarize_sessions", "sync_connectors",
        "synthesize_memory_md"]
SENSORS = ["connector_jobs_sensor", "document_jobs_sensor", "embedding_refresh_sensor", "memory_jobs_sensor",
           "projection_request_sensor", "queue_backlog_sensor", "session_jobs_sensor"]
SCHEDULES = ["backup_schedule", "detect_communities_schedule", "maintenance_schedule", "projection_refresh_schedule",
             "retention_schedule", "synthesize_memory_md_schedule"]
CHECKS = [
    ("derived_facts", "derived_facts_provenance"), ("derived_facts", "index_health"),
    ("derived_facts", "mutation_health"), ("memory_extractions", "provider_health"),
    ("memory_extractions", "queue_health"), ("retention_sweep", "storage_health"),
]
# The signet/queue tag dagster.yaml limits to one run per value, and the partitions backfills use:
# daily, from the store's oldest memory (history) or the day before its creation (backups).
QUEUE_TAGS = {"ingest_documents": "document_ingest", "process_memories": "memory",
              "summarize_sessions": "session_summary", "sync_connectors": "connector_sync"}
MEMORY_DAY, STORE_DAY = data_days()
BACKUP_DAY = (date.fromisoformat(STORE_DAY) - timedelta(days=1)).isoformat()
PARTITIONS = {"embedding_backfill": (MEMORY_DAY, 1), "reextracted_facts": (MEMORY_DAY, 1),
              "store_backup": (BACKUP_DAY, 0)}


def test_the_names_operators_know_stay_put():
    repo = defs.get_repository_def()
    specs = defs.resolve_all_asset_specs()
    assert sorted((s.key.to_user_string(), s.group_name) for s in specs) == ASSETS
    assert sorted(j.name for j in repo.get_all_jobs() if not j.name.startswith("__")) == JOBS
    assert sorted(s.name for s in repo.sensor_defs) == SENSORS
    assert sorted(s.name for s in repo.schedule_defs) == SCHEDULES
    graph = defs.resolve_asset_graph()
    assert sorted((k.asset_key.to_user_string(), k.name) for k in graph.asset_check_keys) == CHECKS


def test_queue_tags_and_partitions_stay_put():
    repo = defs.get_repository_def()
    assert {j.name: j.tags["signet/queue"] for j in repo.get_all_jobs() if "signet/queue" in j.tags} == QUEUE_TAGS
    partitioned = {s.key.to_user_string(): s.partitions_def for s in defs.resolve_all_asset_specs() if s.partitions_def}
    assert {k: (p.start.strftime("%Y-%m-%d"), p.end_offset) for k, p in partitioned.items()} == PARTITIONS
    assert all(p.cron_schedule == "0 0 * * *" and p.timezone == "UTC" for p in partitioned.values())
