"""Analytics endpoints (architecture "Analytics"): usage counters, the stage error ring, latency
histograms, continuity scores. Request counters are this API process's; providers, errors and job latency are read
from the store, so they include the Dagster runs."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import reading_agent, service
from signet_api.route_props import declare
from signet_pipeline import analytics
from signet_pipeline.analytics import (
    ERROR_RING_SIZE,
    Analytics,
    ErrorCode,
    ErrorsReport,
    LatencyReport,
    Stage,
    UsageReport,
)
from signet_pipeline.request_rules import Timestamp
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import continuity
from signet_pipeline.sessions.continuity import ContinuityReport

router = APIRouter(tags=["analytics"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]


def counters(request: Request) -> Analytics:
    return request.app.state.analytics


Counters = Annotated[Analytics, Depends(counters)]


@router.get("/api/analytics/usage", response_model=UsageReport,
            summary="Usage counters per endpoint, actor, provider and connector")
@declare("analytics")
def usage_route(svc: Service, stats: Counters) -> UsageReport:
    return stats.usage(svc.db)


@router.get("/api/analytics/errors", response_model=ErrorsReport,
            summary="Recent stage errors, newest first, from the service-wide ring of 500")
@declare("analytics")
def errors_route(svc: Service,
                 limit: Annotated[int, Query(ge=1, le=ERROR_RING_SIZE)] = 50,
                 stage: Stage | None = None, code: ErrorCode | None = None,
                 since: Timestamp = None) -> ErrorsReport:
    return analytics.recent_errors(svc.db, limit=limit, stage=stage, code=code, since=since)


@router.get("/api/analytics/latency", response_model=LatencyReport,
            summary="Latency p50/p95/p99/count/mean for remember, recall, mutate (this process) and jobs")
@declare("analytics")
def latency_route(svc: Service, stats: Counters) -> LatencyReport:
    return stats.latency(svc.db)


@router.get("/api/analytics/continuity", response_model=ContinuityReport,
            summary="Continuity scores of the agent's sessions over time, newest first")
@declare("analytics")
def continuity_route(request: Request, svc: Service, project: Annotated[str | None, Query(max_length=500)] = None,
                     limit: Annotated[int, Query(ge=1, le=1000)] = 100, agentId: str | None = None) -> ContinuityReport:
    return continuity.history(svc, agent_id=reading_agent(request, agentId), project=project, limit=limit)


@router.get("/api/analytics/continuity/latest", response_model=ContinuityReport,
            summary="The newest continuity score of each project")
@declare("analytics")
def continuity_latest_route(request: Request, svc: Service, agentId: str | None = None) -> ContinuityReport:
    return continuity.latest(svc, agent_id=reading_agent(request, agentId))
