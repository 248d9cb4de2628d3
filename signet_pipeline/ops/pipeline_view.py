"""GET /api/pipeline/status: the pipeline in one answer. Ours (mode, extraction, drain, queues per
job type, backlog, providers, feedback, health) and what the reference SDK's PipelineStatusResponse
reads beside it: workers per job type, the queues as its two (memory jobs and session summaries),
the full diagnostics report, latency, the error summary and graph traversal."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from signet_pipeline.analytics import LatencyReport
from signet_pipeline.graph import traversal
from signet_pipeline.ops import diagnostics, pipeline_health
from signet_pipeline.ops.backlog import Backlog, backlog
from signet_pipeline.ops.diagnostics import DiagnosticsReport
from signet_pipeline.ops.pipeline_health import PipelineState
from signet_pipeline.ops.status import extraction
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import aspect_feedback
from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.queue import JOB_TYPES, SESSION_SUMMARY

STATUSES = ("pending", "leased", "completed", "failed", "dead")


class Workers(BaseModel):
    running: bool  # a drain worker of this job type beats now
    workers: int


class TraversalState(BaseModel):
    enabled: bool
    lastRun: str | None  # when this API process last walked the graph (recall, session-start)


class PipelineStatus(BaseModel):
    enabled: bool
    mode: str  # shadow | controlled | full (memory.pipelineV2 write mode)
    graphEnabled: bool
    extraction: dict[str, Any]
    drain: PipelineState
    # "memory" (every job but session summaries) and "summary" (session summaries), each with every
    # status; beside them each job type's counts by status.
    queues: dict[str, dict[str, int]]
    backlog: Backlog
    providers: Any
    feedback: dict[str, Any]
    health: dict[str, Any]
    workers: dict[str, Workers]
    diagnostics: DiagnosticsReport
    latency: LatencyReport
    errorSummary: dict[str, int]  # entries in the stage error ring per code
    traversal: TraversalState
    dagsterUrl: str | None  # the Dagster UI `signet up` started; None for an API started alone


def _counts(by_type: dict[str, dict[str, int]], types: list[str]) -> dict[str, int]:
    return {status: sum(by_type.get(t, {}).get(status, 0) for t in types) for status in STATUSES}


def pipeline_status(svc: MemoryService, latency: LatencyReport) -> PipelineStatus:
    """`latency`: this API process's request latency (signet_pipeline.analytics.Analytics)."""
    pipe = svc.settings.pipeline
    conn = svc.db.reader()
    health = diagnostics.report(svc.db, svc.settings)
    queue = backlog(svc.db)
    by_type = job_store.counts_by_type(conn)
    memory_types = [t for t in {*JOB_TYPES, *by_type} if t != SESSION_SUMMARY]
    live = {t: sum(w.jobType == t and w.beatAgeS <= pipeline_health.STALE_AFTER_S for w in queue.workers)
            for t in JOB_TYPES}
    return PipelineStatus(
        enabled=pipe.enabled, mode=pipe.write_mode, graphEnabled=pipe.graph_on,
        extraction={"provider": pipe.extraction.provider, "model": pipe.extraction.model, **extraction(svc)},
        drain=pipeline_health.state(svc.db),
        queues={**by_type, "memory": _counts(by_type, memory_types), "summary": _counts(by_type, [SESSION_SUMMARY])},
        backlog=queue, providers=health.domains["provider"].signals["providers"],
        feedback=aspect_feedback.telemetry(svc.db),
        health={"score": health.score, "status": health.status,
                "domains": {name: d.status for name, d in health.domains.items()}},
        workers={t: Workers(running=n > 0, workers=n) for t, n in live.items()},
        diagnostics=health, latency=latency, errorSummary=analytics_store.error_counts(conn),
        traversal=TraversalState(enabled=pipe.graph_on and pipe.traversal.enabled, lastRun=traversal.last_run()),
        dagsterUrl=pipeline_health.dagster_url(),
    )
