"""`structural_classify` jobs: lease a batch (one job per entity), classify each entity's new
facts (stages/structural.py), complete or fail each job (retry with backoff, dead at max)."""

from __future__ import annotations

from signet_pipeline.memory.service import MemoryService
from signet_pipeline.pipeline.queue import STRUCTURAL_CLASSIFY, JobQueue
from signet_pipeline.pipeline.runner import JobBatch, in_flight, run_queue_jobs
from signet_pipeline.providers.llm import Llm
from signet_pipeline.stages.structural import ClassifyReport, classify_entity


def run_structural_jobs(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int,
                        ids: list[int] | None = None) -> JobBatch[ClassifyReport]:
    timeout = svc.settings.pipeline.extraction.timeout / 1000
    return run_queue_jobs(
        svc.db, queue, (llm.name, llm.model), STRUCTURAL_CLASSIFY, limit=limit, ids=ids, target="entity_id",
        concurrency=in_flight(svc.settings.pipeline, llm),
        work=lambda job, completion: classify_entity(svc, llm, job["entity_id"] or "", timeout=timeout,
                                                     commit=completion),
        result=lambda report: report.model_dump(mode="json"))
