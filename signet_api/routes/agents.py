"""The agent roster (signet_pipeline/ops/agents.py): list and read for any caller who may recall,
create and remove for operators (`signet agent add | remove | purge`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Response

from signet_api.auth import AuthorizedRoute
from signet_api.deps import actor, bound_agent, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.errors import Forbidden
from signet_pipeline.ops import agents
from signet_pipeline.ops.agents import AgentCreate, AgentDetail, AgentList, AgentRemoved, AgentView
from signet_pipeline.service import MemoryService
from signet_pipeline.write.remember import Actor

router = APIRouter(tags=["agents"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]
Name = Annotated[str, Path(min_length=1, max_length=200)]


def _within_scope(request: Request, name: str) -> None:
    """A token scoped to one agent creates or removes that agent only (admins are not scoped)."""
    claims = request.state.identity.claims
    if claims is not None and claims.role != "admin" and claims.scope.agent and claims.scope.agent != name:
        raise Forbidden(f"the token is scoped to agent {claims.scope.agent!r}", code="scope_denied")


@router.get("/api/agents", response_model=AgentList, summary="Every agent: roster, first seen and API-created")
@declare("recall")
def list_route(svc: Service) -> AgentList:
    return agents.list_agents(svc)


@router.post("/api/agents", response_model=AgentView, status_code=201, responses={
    200: {"description": "An agent first seen or created before took the given policy", "model": AgentView},
    **errors(409, 503)}, summary="Create an agent with its read policy (not one agents.roster names)")
@declare("operator")
def create_route(request: Request, body: AgentCreate, svc: Service, response: Response) -> AgentView:
    _within_scope(request, body.name)
    view, created = agents.create_agent(svc, body)
    if not created:
        response.status_code = 200
    return view


@router.get("/api/agents/{name}", response_model=AgentDetail, summary="One agent, with its live memory count",
            responses=errors(404))
@declare("recall")
def get_route(request: Request, name: Name, svc: Service) -> AgentDetail:
    return agents.get_agent(svc, name, reader=bound_agent(request))


@router.delete("/api/agents/{name}", response_model=AgentRemoved, responses=errors(404, 409, 503),
               summary="Remove an agent: its memories archived, or with purge=true deleted (recoverable for the "
                       "retention window)")
@declare("operator")
def delete_route(request: Request, name: Name, svc: Service, who: Annotated[Actor, Depends(actor)],
                 purge: bool = False) -> AgentRemoved:
    _within_scope(request, name)
    return agents.remove_agent(svc, name, purge=purge, actor=who)
