"""The graph domain's job: detect_communities."""

import dagster as dg

from signet_pipeline.defs.graph.assets import entity_communities

communities_job = dg.define_asset_job(
    "detect_communities", selection=dg.AssetSelection.assets(entity_communities),
    description="Recompute entity communities for every agent.",
)
