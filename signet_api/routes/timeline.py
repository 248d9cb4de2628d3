"""Timelines and identity (more-endpoints "Timeline and identity")."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import Response

from signet_api.auth import AuthorizedRoute
from signet_api.deps import reading_agent, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.errors import Forbidden
from signet_pipeline.recall.timeline import TimelineExport, timeline, timeline_export
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions.identity import identity

router = APIRouter(tags=["timeline"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]
ItemId = Annotated[str, Path(min_length=1, max_length=200)]


@router.get("/api/timeline/{item_id}", summary="Events that touched a memory or an entity, oldest first",
            responses=errors(404))
@declare("recall")
def timeline_route(request: Request, item_id: ItemId, svc: Service) -> dict[str, Any]:
    return timeline(svc, item_id, agent_id=reading_agent(request))


@router.get("/api/timeline/{item_id}/export", summary="The timeline as a JSON document to download",
            response_class=Response, responses={200: {"model": TimelineExport}, **errors(404)})
@declare("recall")
def timeline_export_route(request: Request, item_id: ItemId, svc: Service) -> Response:
    body = timeline_export(svc, item_id, agent_id=reading_agent(request))
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in item_id)[:80]
    return Response(body.model_dump_json(indent=2), media_type="application/json",
                    headers={"content-disposition": f'attachment; filename="timeline-{name}.json"'})


@router.get("/api/identity", summary="The agent's identity from the workspace (IDENTITY.md, AGENTS.md); local only")
@declare("recall")
def identity_route(request: Request, svc: Service) -> dict[str, Any]:
    if not request.state.identity.trusted:
        raise Forbidden("identity files are read from this machine's workspace: local callers only",
                        code="local_only")
    return identity(svc.settings.workspace)
