"""Graph asset: community detection over the entity graph (daily schedule and on demand). The
structural classification of entity facts (entity_structure, group graph) is materialized by the
extraction domain's memory_pipeline drain."""

import dagster as dg

from signet_pipeline.defs.metadata import table
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.defs.store import ENTITY_GRAPH
from signet_pipeline.stages.communities import detect_all

GROUP = "graph"


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"}, deps=[ENTITY_GRAPH, "entity_structure"],
    description="Entity communities: Louvain over each agent's entity dependencies and relations (weighted), "
                "persisted to entity_communities and entities.community_id, with modularity and a quality signal "
                "(fragmented < 0.3 <= moderate < 0.5 <= strong).",
)
def entity_communities(context: dg.AssetExecutionContext, signet: SignetStoreResource) -> dg.MaterializeResult:
    with signet.database() as db:  # no embedder needed: the store alone
        results = detect_all(db) if db is not None else []
    for r in results:
        if r.quality == "fragmented" and r.nodes:
            context.log.warning("agent %s: fragmented graph (modularity %.3f over %d entities)", r.agent_id,
                                r.modularity, r.nodes)
    return dg.MaterializeResult(metadata={
        "agents": len(results), "entities": sum(r.nodes for r in results), "edges": sum(r.edges for r in results),
        "communities": sum(r.communities for r in results),
        "modularity": max((r.modularity for r in results), default=0.0),
        "quality": dg.MetadataValue.json({r.agent_id: r.quality for r in results}),
        "elapsed_ms": round(sum(r.elapsed_ms for r in results), 1),
        "per_agent": table(["agent", "entities", "edges", "communities", "modularity", "quality", "largest"],
                           [[r.agent_id, r.nodes, r.edges, r.communities, r.modularity, r.quality,
                             ", ".join(f"{label} ({size})" for label, size in r.largest[:5])] for r in results],
                           empty="no entities yet"),
    })
