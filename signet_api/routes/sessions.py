"""Sessions (the reference SDK's listSessions, getSession, setSessionBypass) and session search
(the MCP tool session_search). A caller sees and changes only its agent's sessions: another
agent's session is not found, as one that does not exist."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, ConfigDict

from signet_api.auth import AuthorizedRoute
from signet_api.deps import reading_agent, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.request_rules import STRICT
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import registry
from signet_pipeline.sessions.registry import BypassResult, SessionInfo, SessionList
from signet_pipeline.sessions.search import SessionSearchRequest, SessionSearchResult, search

router = APIRouter(tags=["sessions"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]
SessionKey = Annotated[str, Path(min_length=1, max_length=500)]


class BypassRequest(BaseModel):
    model_config = ConfigDict(extra="ignore", **STRICT)

    enabled: bool  # true: the session's hooks answer nothing; false: they serve it again


@router.get("/api/sessions", response_model=SessionList, summary="The agent's sessions, newest first")
@declare("recall")
def sessions_route(request: Request, svc: Service, agentId: str | None = None,
                   include_ended: Annotated[bool, Query(description="also sessions session-end closed")] = False,
                   limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> SessionList:
    return registry.sessions(svc, reading_agent(request, agentId), ended=include_ended, limit=limit)


@router.post("/api/sessions/search", response_model=SessionSearchResult, responses=errors(408),
             summary="The agent's sessions whose transcript or summaries match the query, best first")
@declare("recall")
def search_route(request: Request, body: SessionSearchRequest, svc: Service) -> SessionSearchResult:
    return search(svc, body, agent_id=reading_agent(request))


@router.get("/api/sessions/{session_key}", response_model=SessionInfo, summary="One of the agent's sessions",
            responses=errors(404))
@declare("recall")
def session_route(request: Request, session_key: SessionKey, svc: Service, agentId: str | None = None) -> SessionInfo:
    return registry.session(svc, session_key, reading_agent(request, agentId))


@router.post("/api/sessions/{session_key}/bypass", response_model=BypassResult, responses=errors(404, 503),
             summary="Bypass a session (its hooks answer nothing) or serve it again")
@declare("remember")
def bypass_route(request: Request, session_key: SessionKey, body: BypassRequest, svc: Service,
                 agentId: str | None = None) -> BypassResult:
    return registry.set_bypass(svc, session_key, reading_agent(request, agentId), body.enabled)
