"""Graph domain: the entity graph's communities.

- assets.py: `entity_communities` (Louvain per agent; group graph). entity_structure, also in the
  graph group, is materialized by the extraction domain's memory_pipeline.
- jobs.py: `detect_communities`.
- schedules.py: `detect_communities_schedule` (daily, 03:15).
"""

import dagster as dg

from signet_pipeline.defs.graph.assets import entity_communities
from signet_pipeline.defs.graph.jobs import communities_job
from signet_pipeline.defs.graph.schedules import communities_schedule

defs = dg.Definitions(assets=[entity_communities], jobs=[communities_job], schedules=[communities_schedule])
