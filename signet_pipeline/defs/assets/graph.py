"""Graph assets: structural classification of entity facts (materialized by the memory_pipeline
drain) and community detection over the entity graph (daily schedule and on demand)."""

import dagster as dg

from signet_pipeline.defs.assets.metadata import bullet_list, latency, table
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.stages.communities import detect_all
from signet_pipeline.stages.drain.jobs import JobBatch
from signet_pipeline.stages.structural import ClassifyReport

GROUP = "graph"


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"},
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


STRUCTURE_SPEC = dg.AssetSpec(
    "entity_structure", group_name=GROUP, kinds={"python", "sqlite"},
    description="Structural classification over the `structural_classify` queue (one job per entity with new "
                "facts): each fact gets an aspect and a kind (attribute | constraint) through the LLM provider, "
                "entities still typed 'extracted' get a type, then contradicted siblings are superseded.",
)


def structure_result(batch: JobBatch[ClassifyReport], provider_name: str, model: str) -> dg.MaterializeResult:
    warnings = [f"{r.entity_id}: {w}" for r in batch.reports for w in r.warnings]
    return dg.MaterializeResult(asset_key=STRUCTURE_SPEC.key, metadata={
        "jobs_leased": batch.leased, "entities_classified": len(batch.reports),
        "facts_classified": sum(r.classified for r in batch.reports),
        "constraints": sum(r.constraints for r in batch.reports),
        "superseded": sum(r.superseded for r in batch.reports),
        "types_inferred": dg.MetadataValue.json({r.entity_id: r.type_set for r in batch.reports if r.type_set}),
        "failures": len(batch.failed), "dead": batch.dead, "provider": provider_name, "model": model,
        **latency(batch.llm_ms, "llm"), "warnings": bullet_list(warnings[:50] + batch.failed[:20]),
    })
