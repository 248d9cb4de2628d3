"""`structural_classify` jobs: lease a batch (one job per entity), classify each entity's new
facts (stages/structural.py), complete or fail each job (retry with backoff, dead at max)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from signet_pipeline.errors import ProviderError
from signet_pipeline.memory.service import MemoryService
from signet_pipeline.pipeline.provider_health import ProviderCalls
from signet_pipeline.pipeline.queue import STRUCTURAL_CLASSIFY, JobQueue
from signet_pipeline.providers.llm import Llm
from signet_pipeline.stages.structural import ClassifyReport, classify_entity


@dataclass
class StructuralBatch:
    reports: list[ClassifyReport] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    dead: int = 0
    llm_ms: list[float] = field(default_factory=list)


def run_structural_jobs(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int,
                        ids: list[int] | None = None) -> StructuralBatch:
    batch = StructuralBatch()
    calls = ProviderCalls()
    timeout = svc.settings.pipeline.extraction.timeout / 1000
    for job in queue.lease([STRUCTURAL_CLASSIFY], limit=limit, ids=ids):
        started = time.perf_counter()
        try:
            report, _ = calls.call(classify_entity, svc, llm, job["entity_id"] or "", timeout=timeout)
        except ProviderError as exc:
            batch.failed.append(f"{job['entity_id']}: {exc}")
            batch.dead += queue.fail(job, str(exc)) == "dead"
            continue
        finally:
            batch.llm_ms.append((time.perf_counter() - started) * 1000)
        batch.reports.append(report)
        queue.complete(job["id"], report.model_dump(mode="json"))
    calls.flush(svc.db, provider=llm.name, model=llm.model)
    return batch
