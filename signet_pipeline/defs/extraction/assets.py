"""The memory pipeline as one drain, and the re-extraction backfill.

`memory_pipeline` drains the extract, structural_classify and prospective_index queues (in that
order of precedence) in one multi-asset, so a burst of memories costs one run, not one per queue
(docs/decisions.md, "Drain runs"); with an HTTP model a second lane drains hints alongside.
`reextracted_facts` runs the same steps again over the memories of chosen days (idempotent).
"""

from collections.abc import Callable
from datetime import UTC, datetime

import dagster as dg
from pydantic import Field

from signet_pipeline.defs.extraction.results import (
    EXTRACTION_SPECS,
    GROUP,
    HINTS_SPEC,
    STRUCTURE_SPEC,
    extraction_results,
    hints_result,
    structure_result,
    write_metadata,
)
from signet_pipeline.defs.metadata import bullet_list, latency
from signet_pipeline.defs.queue.drain import DrainConfig, drain_queue
from signet_pipeline.defs.resources import LlmResource, SignetStoreResource
from signet_pipeline.defs.store import MEMORIES, history_backfill, selected_days
from signet_pipeline.stages.drain.jobs import JobBatch, in_flight
from signet_pipeline.stages.extraction.batch import (
    RunTotals,
    batch_for_memories,
    decide_batch,
    extract_batch,
    run_jobs,
    write_batch,
)
from signet_pipeline.stages.hints import HintsReport, enqueue_backfill, run_hint_jobs
from signet_pipeline.stages.structural import ClassifyReport, run_structural_jobs
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.queue import EXTRACT, PROSPECTIVE_INDEX, STRUCTURAL_CLASSIFY, JobQueue

# The queues this drain works, in order of precedence.
MEMORY_QUEUES = (EXTRACT, STRUCTURAL_CLASSIFY, PROSPECTIVE_INDEX)


class MemoryDrainConfig(DrainConfig):
    hints_backfill: int = Field(default=0, ge=0, le=100_000,
                                description="first queue hint jobs for up to this many memories that have no hints "
                                            "(written before hints were on); the run then drains them")


@dg.multi_asset(
    name="memory_pipeline", can_subset=False, specs=[*EXTRACTION_SPECS, STRUCTURE_SPEC, HINTS_SPEC],
    description="Drains the memory queues: batches of `extract` jobs (lease -> extract -> decide -> write) first, "
                "then `structural_classify`, then `prospective_index`, until none has been due for "
                "worker.runIdleMs or worker.runBudgetMs has passed; reports each step on its asset.",
)
def memory_pipeline(context: dg.AssetExecutionContext, config: MemoryDrainConfig, signet: SignetStoreResource,
                    llm: LlmResource):
    svc = signet.service()
    provider = llm.create(svc.settings)
    queued = enqueue_backfill(svc, signet.queue(), config.hints_backfill) if config.hints_backfill else 0
    if queued:
        context.log.info("queued hint jobs for %d memories without hints", queued)
    extracted = RunTotals()
    structure: JobBatch[ClassifyReport] = JobBatch()
    hints: JobBatch[HintsReport] = JobBatch()
    hints_lane: JobBatch[HintsReport] = JobBatch()

    def first_with_work(queue: JobQueue) -> Callable[[int], int]:
        ordered = [lambda n: extracted.add(run_jobs(svc, queue, provider, n)),
                   lambda n: structure.add(run_structural_jobs(svc, queue, provider, n)),
                   lambda n: hints.add(run_hint_jobs(svc, queue, provider, n))]
        return lambda limit: next((leased for step in ordered if (leased := step(limit))), 0)

    def hints_only(queue: JobQueue) -> Callable[[int], int]:
        return lambda limit: hints_lane.add(run_hint_jobs(svc, queue, provider, limit))

    lanes = [first_with_work, hints_only] if in_flight(svc.settings.pipeline, provider) > 1 else [first_with_work]
    report = drain_queue(context, config, signet, MEMORY_QUEUES, lanes)
    hints.add(hints_lane)
    failures = extracted.failures + structure.failed + hints.failed
    if failures:
        context.log.warning("%d job(s) failed and will be retried: %s", len(failures), failures[:3])
    yield from extraction_results(signet, extracted, provider.name, provider.model, report.as_metadata())
    yield structure_result(structure, provider.name, provider.model)
    yield hints_result(hints, provider.name, provider.model, queued)


@history_backfill(
    group_name=GROUP, kinds={"python", "sqlite"}, deps=[MEMORIES],
    description="Re-extraction backfill: runs extraction, decisions and controlled writes again over the memories "
                "created in the selected days (after changing the model or prompts). Idempotent: facts already "
                "stored dedupe, and each source memory's history records the re-run.",
)
def reextracted_facts(context: dg.AssetExecutionContext, signet: SignetStoreResource,
                      llm: LlmResource) -> dg.MaterializeResult:
    svc = signet.service()
    provider = llm.create(svc.settings)
    start, end = selected_days(context)
    size = svc.settings.pipeline.worker.batch_size
    totals = RunTotals()
    started = datetime.now(UTC)
    after_rid = 0
    while True:
        # Keyset pages: a long range never holds all ids, and facts written meanwhile are skipped
        # (they are derived, not raw).
        page = mem_store.raw_created_between(svc.db.reader(), start, end, after_rid=after_rid, limit=size)
        if not page:
            break
        after_rid = page[-1][0]
        totals.add(write_batch(svc, None, decide_batch(svc, provider, extract_batch(
            svc, provider, batch_for_memories(svc, provider, [mid for _, mid in page])))))
    return dg.MaterializeResult(metadata={
        "partition_range": f"{start} .. {end}", "memories_reprocessed": totals.counts["items"],
        **write_metadata(totals), "failures": totals.counts["failed"], "provider": provider.name,
        "model": provider.model, "elapsed_s": round((datetime.now(UTC) - started).total_seconds(), 2),
        **latency(totals.extract_ms + totals.decision_ms, "llm"), "warnings": bullet_list(totals.warnings),
    })
