"""Session checkpoints (memory-pipeline.txt "Session Checkpoints"): the reading agent's own
digests, by project or by session. The hooks write them (routes/hooks.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import reading_agent, service
from signet_api.route_props import declare
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import checkpoints

router = APIRouter(tags=["hooks"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]


@router.get("/api/checkpoints", summary="Session checkpoints, newest first (optionally of one project)")
@declare("recall")
def checkpoints_route(request: Request, svc: Service, project: Annotated[str | None, Query(max_length=1000)] = None,
                      limit: Annotated[int, Query(ge=1, le=200)] = 20) -> dict[str, Any]:
    return checkpoints.list_for_project(svc, project, reading_agent(request), limit)


@router.get("/api/checkpoints/{session_key}", summary="Checkpoints of one session, newest first")
@declare("recall")
def session_checkpoints_route(request: Request, session_key: Annotated[str, Path(min_length=1, max_length=500)],
                              svc: Service, limit: Annotated[int, Query(ge=1, le=200)] = 20) -> dict[str, Any]:
    return checkpoints.list_for_session(svc, session_key, reading_agent(request), limit)
