"""Extraction domain: remembered memories become derived facts, entity structure and hints.

- assets.py: `memory_pipeline`, the multi-asset that drains the extract, structural_classify and
  prospective_index queues in one run (with a second hints lane when the provider is remote) and
  materializes memory_extractions, memory_decisions, derived_facts (group extraction),
  entity_structure (group graph) and memory_hints; `reextracted_facts`, the daily-partitioned
  re-extraction backfill.
- results.py: those assets' specs and the metadata each reports for a run.
- jobs.py: `process_memories` (tag signet/queue: memory).
- sensors.py: `memory_jobs_sensor`, which launches process_memories when jobs are due.
- checks.py: `derived_facts_provenance` on derived_facts.
"""

import dagster as dg

from signet_pipeline.defs.extraction.assets import memory_pipeline, reextracted_facts
from signet_pipeline.defs.extraction.checks import derived_facts_provenance
from signet_pipeline.defs.extraction.jobs import process_memories_job
from signet_pipeline.defs.extraction.sensors import memory_jobs_sensor

defs = dg.Definitions(assets=[memory_pipeline, reextracted_facts], asset_checks=[derived_facts_provenance],
                      jobs=[process_memories_job], sensors=[memory_jobs_sensor])
