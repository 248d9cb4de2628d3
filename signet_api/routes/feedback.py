"""POST /api/memory/feedback: an agent's feedback on a memory it was given (memory_feedback tool)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import actor, project_scope, reading_agent, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import agent_feedback
from signet_pipeline.sessions.feedback_models import FeedbackRequest
from signet_pipeline.write.remember import Actor

router = APIRouter(tags=["memory"], route_class=AuthorizedRoute)


@router.post("/api/memory/feedback", summary="Record positive / negative / correction feedback on a memory",
             responses=errors(404, 503))
@declare("modify")  # writes a row about a memory: not for readonly tokens
def feedback_route(request: Request, body: FeedbackRequest, svc: Annotated[MemoryService, Depends(service)],
                   who: Annotated[Actor, Depends(actor)]) -> dict[str, Any]:
    if body.session_id is None and request.headers.get("x-signet-session-key"):
        body.session_id = request.headers["x-signet-session-key"][:200]
    return agent_feedback.record(svc, body, actor=who, agent_id=reading_agent(request, body.agent_id),
                                 project_scope=project_scope(request))
