"""Connectors (more-endpoints "Connectors"): register a source, sync it (a Dagster run does the
work), read its health, delete it with or without its documents."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import actor, reading_agent, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.connectors import registry
from signet_pipeline.connectors.models import ConnectorRequest
from signet_pipeline.errors import InvalidRequest
from signet_pipeline.service import MemoryService
from signet_pipeline.write.remember import Actor

# Connectors read the disk of the machine the service runs on: operators register and sync them.
router = APIRouter(tags=["connectors"], route_class=AuthorizedRoute)
# The spec's "400 without confirm=true": the schema says `confirm` is required and true; the route
# answers a missing or false one itself (confirmation_required), so it is not FastAPI's to refuse.
CONFIRM = {"parameters": [{"name": "confirm", "in": "query", "required": True, "schema": {"const": True},
                           "description": "true: every matching file is read and ingested again"}]}
Service = Annotated[MemoryService, Depends(service)]
ConnectorId = Annotated[str, Path(min_length=1, max_length=100)]


@router.get("/api/connectors", summary="Registered connectors")
@declare("diagnostics")
def list_route(svc: Service) -> dict[str, Any]:
    return registry.listing(svc)


@router.post("/api/connectors", status_code=201,
             summary="Register a connector (provider `filesystem`, a root under connectors.allowedRoots)")
@declare("operator")
def create_route(request: Request, body: ConnectorRequest, svc: Service) -> dict[str, Any]:
    return registry.register(svc, body, agent_id=reading_agent(request, body.agent_id))


@router.get("/api/connectors/{connector_id}", summary="One connector", responses=errors(404))
@declare("diagnostics")
def get_route(connector_id: ConnectorId, svc: Service) -> dict[str, Any]:
    return registry.get(svc, connector_id)


@router.delete("/api/connectors/{connector_id}", summary="Delete a connector; cascade=true deletes its documents too",
               responses=errors(404, 503))
@declare("operator")
def delete_route(connector_id: ConnectorId, svc: Service, who: Annotated[Actor, Depends(actor)],
                 cascade: bool = False) -> dict[str, Any]:
    return registry.delete(svc, connector_id, cascade=cascade, actor=who)


@router.post("/api/connectors/{connector_id}/sync", responses=errors(404, 503),
             summary="Sync files changed since the last sync (in the background)")
@declare("operator")
def sync_route(connector_id: ConnectorId, svc: Service) -> dict[str, Any]:
    return registry.request_sync(svc, connector_id, full=False)


@router.post("/api/connectors/{connector_id}/sync/full", summary="Reprocess every matching file (confirm=true)",
             responses=errors(400, 404, 503), openapi_extra=CONFIRM)
@declare("operator")
def full_sync_route(connector_id: ConnectorId, svc: Service,
                    confirm: Annotated[bool, Query(include_in_schema=False)] = False) -> dict[str, Any]:
    if not confirm:
        raise InvalidRequest("a full sync reprocesses every file: add ?confirm=true", code="confirmation_required")
    return registry.request_sync(svc, connector_id, full=True)


@router.get("/api/connectors/{connector_id}/health", summary="Status, last sync and a live document count",
            responses=errors(404))
@declare("diagnostics")
def health_route(connector_id: ConnectorId, svc: Service) -> dict[str, Any]:
    return registry.health(svc, connector_id)
