"""The embeddings domain's jobs: refresh_embeddings, backfill_embeddings, project_embeddings."""

import dagster as dg

from signet_pipeline.defs.embeddings.assets import embedding_backfill, embedding_projection, embedding_refresh

embedding_refresh_job = dg.define_asset_job(
    "refresh_embeddings", selection=dg.AssetSelection.assets(embedding_refresh),
    description="One embedding refresh run (up to 5,000 memories or 120 s). Requested by embedding_refresh_sensor "
                "when memories need a vector; launch it by hand after switching the embedding model.",
)

embedding_backfill_job = dg.define_asset_job(
    "backfill_embeddings", selection=dg.AssetSelection.assets(embedding_backfill),
    description="Re-embed the memories of chosen days (daily partitions by created_at); `force` re-embeds all of them.",
)

projection_job = dg.define_asset_job(
    "project_embeddings", selection=dg.AssetSelection.assets(embedding_projection),
    description="Compute the UMAP projections the API was asked for (or that went stale). Launched by "
                "projection_request_sensor; launch it by hand with dimensions [2, 3] to recompute both now.",
)
