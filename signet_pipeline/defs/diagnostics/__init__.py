"""Diagnostics domain: the health domains /api/diagnostics scores, as asset checks in the UI.

- checks.py: `queue_health` and `provider_health` on memory_extractions, `index_health` and
  `mutation_health` on derived_facts, `storage_health` on retention_sweep.
"""

import dagster as dg

from signet_pipeline.defs.diagnostics.checks import DIAGNOSTIC_CHECKS

defs = dg.Definitions(asset_checks=DIAGNOSTIC_CHECKS)
