"""Prospective hints asset (queue-driven): questions each new memory would answer, searched
beside the content at recall time (memory.pipelineV2.hints)."""

import dagster as dg
from pydantic import Field

from signet_pipeline.assets.metadata import DrainConfig, bullet_list, drain_queue, latency
from signet_pipeline.pipeline.hints import enqueue_backfill, run_hint_jobs
from signet_pipeline.pipeline.queue import PROSPECTIVE_INDEX
from signet_pipeline.pipeline.runner import JobBatch
from signet_pipeline.resources import LlmResource, SignetStoreResource

GROUP = "extraction"


class HintsBatchConfig(DrainConfig):
    backfill: int = Field(0, ge=0, le=100_000,
                          description="first queue hint jobs for up to this many memories that have no hints "
                                      "(written before hints were on); launch by hand, then the sensor drains them")


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"},
    description="Prospective hints: drains the `prospective_index` queue (one job per memory written while "
                "hints.enabled), batch after batch, and asks the LLM provider for up to hints.max questions the memory would answer. "
                "Replies are filtered (question form, 8-200 chars, no echo of the memory or the prompt) and replace "
                "the memory's rows in memory_hints / memory_hints_fts, which recall searches beside the content.",
)
def memory_hints(context: dg.AssetExecutionContext, config: HintsBatchConfig, signet: SignetStoreResource,
                 llm: LlmResource) -> dg.MaterializeResult:
    svc = signet.service()
    provider = llm.create(svc.settings)
    queued = enqueue_backfill(svc, signet.queue(), config.backfill) if config.backfill else 0
    if queued:
        context.log.info("queued hint jobs for %d memories without hints", queued)
    batch: JobBatch = JobBatch()
    report = drain_queue(context, config, signet, PROSPECTIVE_INDEX,
                         lambda queue: lambda limit: batch.add(run_hint_jobs(svc, queue, provider, limit)))
    if batch.failed:
        context.log.warning("%d hint generation(s) failed and will be retried", len(batch.failed))
    written = [r for r in batch.reports if r.written]
    warnings = [f"{r.memory_id}: {w}" for r in batch.reports for w in r.warnings]
    return dg.MaterializeResult(metadata={
        **report.as_metadata(), "memories": len(batch.reports), "memories_with_hints": len(written), "backfill_queued": queued,
        "hints_written": sum(r.written for r in batch.reports),
        "skipped": sum(r.skipped is not None for r in batch.reports), "failures": len(batch.failed),
        "dead": batch.dead, "provider": provider.name, "model": provider.model, **latency(batch.llm_ms, "llm"),
        "preview": bullet_list([f"{r.memory_id[:8]}: {h}" for r in written[:5] for h in r.hints[:3]], empty="no hints"),
        "warnings": bullet_list(warnings[:50] + batch.failed[:20]),
    })
