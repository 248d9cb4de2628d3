"""POST /api/sessions/summaries/expand (the lcm_expand tool): a session summary, or a memory
derived from one, back to its lineage (sessions/lineage.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import reading_agent, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions.lineage import Lineage, LineageRequest, expand_node

router = APIRouter(tags=["sessions"], route_class=AuthorizedRoute)


@router.post("/api/sessions/summaries/expand", response_model=Lineage, responses=errors(404),
             summary="A summary's lineage: its sources, derived memories, session summaries and transcript")
@declare("recall")
def expand_summary_route(request: Request, body: LineageRequest, svc: Annotated[MemoryService, Depends(service)]):
    return expand_node(svc, reading_agent(request, body.agent_id), body)
