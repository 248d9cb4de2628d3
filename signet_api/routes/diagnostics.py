"""Diagnostics endpoints: the six-domain health report, one domain, the pipeline snapshot, and the
OpenClaw adapter's heartbeat (signet_pipeline/ops/adapter_health.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.ops import adapter_health, diagnostics
from signet_pipeline.ops.adapter_health import HeartbeatAck, OpenClawHealth, OpenClawHeartbeat
from signet_pipeline.ops.diagnostics import DiagnosticsReport, DomainHealth
from signet_pipeline.ops.pipeline_view import PipelineStatus, pipeline_status
from signet_pipeline.service import MemoryService

router = APIRouter(tags=["diagnostics"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]


@router.get("/api/diagnostics", response_model=DiagnosticsReport, summary="Health of all six domains and the composite")
@declare("diagnostics")
def diagnostics_route(svc: Service) -> DiagnosticsReport:
    return diagnostics.report(svc.db, svc.settings)


@router.get("/api/diagnostics/openclaw", response_model=OpenClawHealth,
            summary="The OpenClaw adapter's health: its last heartbeat (never-seen, connected, or stale after 10 min)")
@declare("diagnostics")
def openclaw_route(svc: Service) -> OpenClawHealth:
    return adapter_health.openclaw_health(svc)


@router.post("/api/diagnostics/openclaw/heartbeat", response_model=HeartbeatAck,
             summary="The OpenClaw adapter reports its health (kept in memory, no store row)")
@declare("remember")  # with the token the adapter's hooks use (it writes no store row)
def openclaw_heartbeat_route(body: OpenClawHeartbeat, svc: Service) -> HeartbeatAck:
    adapter_health.heartbeat(svc, body)
    return HeartbeatAck(ok=True)


@router.get("/api/diagnostics/{domain}", response_model=DomainHealth, summary="Health of one domain",
            responses=errors(404))
@declare("diagnostics")
def domain_route(domain: Annotated[str, Path(max_length=50, json_schema_extra={"enum": sorted(diagnostics.DOMAINS)})],
                 svc: Service) -> DomainHealth:
    return diagnostics.domain_health(svc.db, svc.settings, domain)


@router.get("/api/pipeline/status", response_model=PipelineStatus,
            summary="Pipeline snapshot: mode, queues, workers, providers, feedback, health, latency, errors")
@declare("diagnostics")
def pipeline_status_route(request: Request, svc: Service) -> PipelineStatus:
    return pipeline_status(svc, request.app.state.analytics.latency(svc.db))
