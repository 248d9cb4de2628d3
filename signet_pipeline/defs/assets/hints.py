"""Prospective hints asset: questions each new memory would answer, searched beside the content at
recall time (memory.pipelineV2.hints); materialized by the memory_pipeline drain."""

import dagster as dg

from signet_pipeline.defs.assets.metadata import bullet_list, latency
from signet_pipeline.stages.drain.jobs import JobBatch
from signet_pipeline.stages.hints import HintsReport

GROUP = "extraction"


HINTS_SPEC = dg.AssetSpec(
    "memory_hints", group_name=GROUP, kinds={"python", "sqlite"},
    description="Prospective hints over the `prospective_index` queue (one job per memory written while "
                "hints.enabled): up to hints.max questions each memory would answer, from the LLM provider, "
                "filtered (question form, 8-200 chars, no echo of the memory or the prompt), replacing the memory's "
                "rows in memory_hints / memory_hints_fts, which recall searches beside the content.",
)


def hints_result(batch: JobBatch[HintsReport], provider_name: str, model: str, queued: int) -> dg.MaterializeResult:
    written = [r for r in batch.reports if r.written]
    warnings = [f"{r.memory_id}: {w}" for r in batch.reports for w in r.warnings]
    return dg.MaterializeResult(asset_key=HINTS_SPEC.key, metadata={
        "jobs_leased": batch.leased, "memories": len(batch.reports), "memories_with_hints": len(written), "backfill_queued": queued,
        "hints_written": sum(r.written for r in batch.reports),
        "skipped": sum(r.skipped is not None for r in batch.reports), "failures": len(batch.failed),
        "dead": batch.dead, "provider": provider_name, "model": model, **latency(batch.llm_ms, "llm"),
        "preview": bullet_list([f"{r.memory_id[:8]}: {h}" for r in written[:5] for h in r.hints[:3]], empty="no hints"),
        "warnings": bullet_list(warnings[:50] + batch.failed[:20]),
    })
