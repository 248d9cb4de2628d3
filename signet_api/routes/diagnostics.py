"""Diagnostics endpoints: the six-domain health report, one domain, and the pipeline snapshot."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path

from signet_api.auth import AuthorizedRoute
from signet_api.deps import service
from signet_api.openapi import errors
from signet_pipeline.ops import diagnostics
from signet_pipeline.ops import status as status_view
from signet_pipeline.ops.diagnostics import DiagnosticsReport, DomainHealth
from signet_pipeline.service import MemoryService

router = APIRouter(tags=["diagnostics"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]


@router.get("/api/diagnostics", response_model=DiagnosticsReport, summary="Health of all six domains and the composite")
def diagnostics_route(svc: Service) -> DiagnosticsReport:
    return diagnostics.report(svc.db, svc.settings)


@router.get("/api/diagnostics/{domain}", response_model=DomainHealth, summary="Health of one domain",
            responses=errors(404))
def domain_route(domain: Annotated[str, Path(max_length=50, json_schema_extra={"enum": sorted(diagnostics.DOMAINS)})],
                 svc: Service) -> DomainHealth:
    return diagnostics.domain_health(svc.db, svc.settings, domain)


@router.get("/api/pipeline/status", summary="Pipeline snapshot: mode, queues, providers, feedback, health")
def pipeline_status_route(svc: Service) -> dict[str, Any]:
    return status_view.pipeline_status(svc)
