"""The assets memory_pipeline materializes, as specs, and what each reports for a run:
memory_extractions -> memory_decisions -> derived_facts (extraction), entity_structure (structural
classification, shown in the graph group) and memory_hints (prospective hints)."""

from collections.abc import Mapping

import dagster as dg

from signet_pipeline.defs.metadata import Metadata, MetadataScalar, bullet_list, latency, table
from signet_pipeline.defs.queue.backlog import MEMORY_JOBS
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.defs.store import ENTITY_GRAPH, MEMORIES
from signet_pipeline.stages.drain.jobs import JobBatch
from signet_pipeline.stages.extraction.batch import RunTotals
from signet_pipeline.stages.hints import HintsReport
from signet_pipeline.stages.structural import ClassifyReport
from signet_pipeline.store import memories as mem_store

GROUP = "extraction"

EXTRACTION_SPECS = [
    dg.AssetSpec("memory_extractions", deps=[MEMORY_JOBS, MEMORIES], group_name=GROUP, kinds={"python", "sqlite"},
                 description="Extraction stage over the `extract` queue: each source memory's facts and entity "
                             "triples (validated; warnings instead of failures)."),
    dg.AssetSpec("memory_decisions", deps=["memory_extractions"], group_name=GROUP, kinds={"python"},
                 description="Decision stage: embeds a batch's facts in one call, finds each fact's top-5 hybrid "
                             "candidates and proposes ADD / UPDATE / DELETE / NONE (one model call per memory; "
                             "hallucinated targets rejected), with contradiction checks on UPDATE/DELETE."),
    dg.AssetSpec("derived_facts", deps=["memory_decisions"], group_name=GROUP, kinds={"python", "sqlite"},
                 description="Controlled writes: applies the proposals the pipeline mode allows (shadow / controlled "
                             "/ full) in one short transaction per source memory, with its history rows, graph "
                             "triples and the completion of its job."),
]

STRUCTURE_SPEC = dg.AssetSpec(
    "entity_structure", deps=[MEMORY_JOBS, ENTITY_GRAPH], group_name="graph", kinds={"python", "sqlite"},
    description="Structural classification over the `structural_classify` queue (one job per entity with new "
                "facts): each fact gets an aspect and a kind (attribute | constraint) through the LLM provider, "
                "entities still typed 'extracted' get a type, then contradicted siblings are superseded.",
)

HINTS_SPEC = dg.AssetSpec(
    "memory_hints", deps=[MEMORY_JOBS, MEMORIES, "derived_facts"], group_name=GROUP, kinds={"python", "sqlite"},
    description="Prospective hints over the `prospective_index` queue (one job per memory written while "
                "hints.enabled): up to hints.max questions each memory would answer, from the LLM provider, "
                "filtered (question form, 8-200 chars, no echo of the memory or the prompt), replacing the memory's "
                "rows in memory_hints / memory_hints_fts, which recall searches beside the content.",
)


def _created_preview(signet: SignetStoreResource, ids: list[str]) -> dg.MetadataValue:
    found = mem_store.fetch_many(signet.service().db.reader(), ids)
    rows = [[found[i]["type"], found[i]["content"], found[i]["source_memory_id"]] for i in ids if i in found]
    return table(["type", "content", "source memory"], rows, empty="no facts written")


def write_metadata(totals: RunTotals) -> Metadata:
    """derived_facts metadata; also the re-extraction backfill's."""
    c = totals.counts
    return {
        "jobs_completed": c["completed"], "jobs_retrying": c["retry"], "jobs_dead": c["dead"],
        "jobs_lost": c["lost"], "facts_written": c["written"], "facts_deduped": c["deduped"],
        "facts_skipped": sum(totals.skipped.values()), "skip_reasons": dg.MetadataValue.json(dict(totals.skipped)),
        "none_recorded": c["none"], "destructive_blocked": c["blocked"], "superseded": c["superseded"],
        "review_needed": c["review_needed"], "shadow_proposals": c["shadow"],
        "graph_relations_added": c["relations_added"], "graph_triples_rejected": c["triples_rejected"],
        "graph_failures": c["graph_failures"], "stage_errors": dg.MetadataValue.json(dict(totals.errors)),
        "write_ms": round(totals.timings_ms["write"], 1),
    }


def extraction_results(signet: SignetStoreResource, totals: RunTotals, provider_name: str, model: str,
                       drain: Mapping[str, MetadataScalar]) -> list[dg.MaterializeResult]:
    """The three extraction assets' materializations for what a run did."""
    c = totals.counts
    return [
        dg.MaterializeResult(asset_key="memory_extractions", metadata={
            **drain, "jobs_leased": c["items"], "source_missing": c["skipped_jobs"],
            "extraction_failures": sum(1 for f in totals.failures if ": extraction" in f),
            "facts_extracted": c["facts_extracted"], "entities_extracted": c["entities_extracted"],
            "provider": provider_name, "model": model, "extract_ms": round(totals.timings_ms["extract"], 1),
            **latency(totals.extract_ms, "llm"), "failures": bullet_list(totals.failures[:20]),
            "warnings": bullet_list(totals.warnings),
        }),
        dg.MaterializeResult(asset_key="memory_decisions", metadata={
            "proposals": sum(totals.actions.values()),
            **{f"proposed_{a}": totals.actions[a] for a in ("add", "update", "delete", "none")},
            "contradiction_risk": totals.contradiction_risk, "vectors_embedded": totals.vectors,
            "embed_ms": round(totals.timings_ms["embed"], 1), "decide_ms": round(totals.timings_ms["decide"], 1),
            "candidates_ms": round(totals.timings_ms["candidates"], 1),  # the part of decide_ms spent searching
            **latency(totals.decision_ms, "decision"),
            "decision_failures": sum(1 for f in totals.failures if ": decision" in f),
        }),
        dg.MaterializeResult(asset_key="derived_facts", metadata={
            "mode": signet.service().settings.pipeline.write_mode, **write_metadata(totals),
            "written_preview": _created_preview(signet, totals.created),
        }),
    ]


def structure_result(batch: JobBatch[ClassifyReport], provider_name: str, model: str) -> dg.MaterializeResult:
    warnings = [f"{r.entity_id}: {w}" for r in batch.reports for w in r.warnings]
    return dg.MaterializeResult(asset_key=STRUCTURE_SPEC.key, metadata={
        "jobs_leased": batch.leased, "entities_classified": len(batch.reports),
        "facts_classified": sum(r.classified for r in batch.reports),
        "constraints": sum(r.constraints for r in batch.reports),
        "superseded": sum(r.superseded for r in batch.reports),
        "types_inferred": dg.MetadataValue.json({r.entity_name or r.entity_id: r.type_set
                                                 for r in batch.reports if r.type_set}),
        "failures": len(batch.failed), "dead": batch.dead, "provider": provider_name, "model": model,
        **latency(batch.llm_ms, "llm"), "warnings": bullet_list(warnings[:50] + batch.failed[:20]),
    })


def hints_result(batch: JobBatch[HintsReport], provider_name: str, model: str, queued: int) -> dg.MaterializeResult:
    written = [r for r in batch.reports if r.written]
    warnings = [f"{r.memory_id}: {w}" for r in batch.reports for w in r.warnings]
    return dg.MaterializeResult(asset_key=HINTS_SPEC.key, metadata={
        "jobs_leased": batch.leased, "memories": len(batch.reports), "memories_with_hints": len(written),
        "backfill_queued": queued,
        "hints_written": sum(r.written for r in batch.reports),
        "skipped": sum(r.skipped is not None for r in batch.reports), "failures": len(batch.failed),
        "dead": batch.dead, "provider": provider_name, "model": model, **latency(batch.llm_ms, "llm"),
        "preview": bullet_list([f"{r.memory_id[:8]}: {h}" for r in written[:5] for h in r.hints[:3]], empty="no hints"),
        "warnings": bullet_list(warnings[:50] + batch.failed[:20]),
    })
