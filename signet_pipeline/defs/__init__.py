"""The Dagster code location, split by domain: each folder holds one domain's assets, jobs,
sensors, schedules and checks side by side, and its `__init__.py` exposes them as `defs`.

- queue/: the memory_jobs asset, its backlog sensor, and the drain shell, drain jobs and sensor
  factory every queue-driven domain uses.
- extraction/: memory_pipeline (extract -> decisions -> structural -> hints), reextracted_facts,
  process_memories, memory_jobs_sensor, derived_facts_provenance.
- documents/: document_ingest, connector_sync, their jobs and sensors.
- sessions/: session_summaries, memory_md, their jobs, session_jobs_sensor, the MEMORY.md schedule.
- graph/: entity_communities, its job and schedule.
- embeddings/: embedding refresh and backfill, the UMAP projection, their jobs, sensors, schedule.
- maintenance/: retention_sweep, maintenance_cycle, store_backup, their jobs and schedules.
- diagnostics/: the diagnostics domains as asset checks.

Shared: resources.py (store, embedder, LLM), metadata.py (tables and lists for the UI), store.py
(the store's tables as external assets, where daily partitions start). definitions.py gathers
every domain's defs with those tables, the resources and executor: what workspace.yaml
and `signet up` load. A domain imports only its own modules, queue/ and the shared modules. The
only package that imports dagster; nothing imports it.
"""
