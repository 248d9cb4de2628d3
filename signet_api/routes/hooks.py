"""Harness hook endpoints (wire-contract.md): session-start injects context, session-end settles
the session. `x-signet-no-hooks: 1` turns them into no-ops."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from signet_api.deps import reading_agent, service
from signet_pipeline.memory import hooks
from signet_pipeline.memory.hooks import SessionEndRequest, SessionEndResult, SessionStartRequest, SessionStartResult
from signet_pipeline.memory.service import MemoryService

router = APIRouter(tags=["hooks"])
Service = Annotated[MemoryService, Depends(service)]


def _hooks_off(request: Request) -> bool:
    return request.headers.get("x-signet-no-hooks", "").strip() == "1"


def _identify(request: Request, body: SessionStartRequest | SessionEndRequest) -> None:
    """Agent (a token's scope first) and session from the headers clients send, when the body
    does not name them."""
    headers = request.headers
    body.agent_id = reading_agent(request, body.agent_id if "agent_id" in body.model_fields_set else None)
    if not body.session_key and headers.get("x-signet-session-key"):
        body.session_key = headers["x-signet-session-key"]


@router.post("/api/hooks/session-start", response_model=SessionStartResult, response_model_exclude_none=True,
             summary="Context to inject into a new session (pinned and constraints first, then recall)")
def session_start_route(request: Request, body: SessionStartRequest, svc: Service) -> SessionStartResult:
    if _hooks_off(request):
        return SessionStartResult(inject="", memories=[])
    _identify(request, body)
    return hooks.session_start(svc, body)


@router.post("/api/hooks/session-end", response_model=SessionEndResult, response_model_exclude_none=True,
             summary="End a session: aspect feedback from the session's searches")
def session_end_route(request: Request, body: SessionEndRequest, svc: Service) -> SessionEndResult:
    if _hooks_off(request):
        return SessionEndResult(memoriesSaved=0)
    _identify(request, body)
    return hooks.session_end(svc, body)
