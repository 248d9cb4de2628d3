"""The memory pipeline as one drain: extraction (memory_extractions -> memory_decisions ->
derived_facts), structural classification (entity_structure) and prospective hints (memory_hints)
are one multi-asset, so a burst of remembered memories costs one run, not one per queue.

A run (sensor memory_jobs_sensor, job process_memories) leases batches from the three queues in
order of precedence — an `extract` batch whenever extract jobs are due, else a
`structural_classify` batch, else a `prospective_index` batch — until none has been due for
worker.runIdleMs or worker.runBudgetMs has passed; the jobs extraction creates (hints for derived
facts, classification of their entities) are done in the same run. With a model over HTTP a second
lane drains the hints queue at the same time, so hint calls overlap extraction calls (each stage
keeps extraction.concurrency calls in flight) instead of waiting for the extract queue to empty;
the rules provider is CPU-bound Python and keeps one lane. Measured on a 2,000-memory
backlog through `signet up`, one run per queue launched 9 runs whose start-up (a process, imports,
the store and the embedder: ~3-5 s of CPU each) starved the extraction run; see docs/benchmarks.md.
"""

from collections.abc import Callable

import dagster as dg
from pydantic import Field

from signet_pipeline.defs.assets.extraction import EXTRACTION_SPECS, extraction_results
from signet_pipeline.defs.assets.graph import STRUCTURE_SPEC, structure_result
from signet_pipeline.defs.assets.hints import HINTS_SPEC, hints_result
from signet_pipeline.defs.assets.metadata import DrainConfig, drain_queue
from signet_pipeline.defs.resources import LlmResource, SignetStoreResource
from signet_pipeline.stages.drain.jobs import JobBatch, in_flight
from signet_pipeline.stages.extraction.batch import RunTotals, run_jobs
from signet_pipeline.stages.hints import enqueue_backfill, run_hint_jobs
from signet_pipeline.stages.structural import run_structural_jobs
from signet_pipeline.store.queue import EXTRACT, PROSPECTIVE_INDEX, STRUCTURAL_CLASSIFY, JobQueue

# The queues this drain works, in order of precedence.
MEMORY_QUEUES = (EXTRACT, STRUCTURAL_CLASSIFY, PROSPECTIVE_INDEX)


class MemoryDrainConfig(DrainConfig):
    hints_backfill: int = Field(0, ge=0, le=100_000,
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
    extracted, structure, hints, hints_lane = RunTotals(), JobBatch(), JobBatch(), JobBatch()

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
