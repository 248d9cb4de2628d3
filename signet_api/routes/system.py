"""Liveness, status and embedding provider status."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import service
from signet_api.route_props import declare
from signet_pipeline.ops import settings_view
from signet_pipeline.ops import status as status_view
from signet_pipeline.ops.status import StatusView
from signet_pipeline.service import MemoryService

router = APIRouter(tags=["system"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]


def _disclose(request: Request) -> bool:
    """pid and paths for a trusted caller or one with a valid token, not for anyone who asks."""
    identity = request.state.identity
    return identity.trusted or identity.authenticated


@router.get("/health", summary="Liveness (never needs auth; pid and paths only for a known caller)")
@declare("none")
def health_route(request: Request, svc: Service) -> dict[str, Any]:
    return status_view.health(svc, shutting_down=getattr(request.app.state, "shutting_down", False),
                              disclose=_disclose(request))


@router.get("/api/status", response_model=StatusView,
            summary="Full service status (pid and paths only for a known caller)")
@declare("none")
def status_route(request: Request, svc: Service) -> StatusView:
    return status_view.status(svc, disclose=_disclose(request),
                              shutting_down=getattr(request.app.state, "shutting_down", False))


@router.get("/api/embeddings/status", summary="Embedding provider availability (cached 30 s)")
@declare("recall")
def embeddings_status_route(svc: Service) -> dict[str, Any]:
    return status_view.embedding_status(svc)


@router.get("/api/embeddings/health", summary="Vector coverage of live memories, stale vectors, provider status")
@declare("recall")
def embeddings_health_route(svc: Service) -> dict[str, Any]:
    return status_view.embedding_health(svc)


@router.get("/api/features", summary="Feature flags in effect")
@declare("none")
def features_route(svc: Service) -> dict[str, bool]:
    return settings_view.features(svc.settings)


@router.get("/api/config", summary="Effective settings (defaults < agent.yaml < SIGNET_* env), secrets redacted")
@declare("operator")
def config_route(svc: Service) -> dict[str, Any]:
    return settings_view.effective_config(svc.settings)
