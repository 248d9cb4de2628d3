"""Embeddings domain: vectors of the memories, and their UMAP projection.

- assets.py: `embedding_refresh` (re-embeds missing, stale or other-model vectors, capped per run),
  `embedding_backfill` (daily partitions by created_at) and `embedding_projection` (UMAP 2D/3D,
  cached for GET /api/embeddings/projection); group embeddings.
- jobs.py: `refresh_embeddings`, `backfill_embeddings`, `project_embeddings`.
- sensors.py: `embedding_refresh_sensor` (a refresh when vectors are missing; backs off while the
  provider is down) and `projection_request_sensor` (a projection when the API recorded a request).
- schedules.py: `projection_refresh_schedule` (daily, 04:45, recomputes stale cached projections).
"""

import dagster as dg

from signet_pipeline.defs.embeddings.assets import embedding_backfill, embedding_projection, embedding_refresh
from signet_pipeline.defs.embeddings.jobs import embedding_backfill_job, embedding_refresh_job, projection_job
from signet_pipeline.defs.embeddings.schedules import projection_refresh_schedule
from signet_pipeline.defs.embeddings.sensors import embedding_refresh_sensor, projection_request_sensor

defs = dg.Definitions(assets=[embedding_refresh, embedding_backfill, embedding_projection],
                      jobs=[embedding_refresh_job, embedding_backfill_job, projection_job],
                      sensors=[embedding_refresh_sensor, projection_request_sensor],
                      schedules=[projection_refresh_schedule])
