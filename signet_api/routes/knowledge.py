"""Knowledge-graph endpoints: entity listing (pinned first), pin/unpin, constellation overlay."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import reading_agent, service
from signet_api.openapi import errors
from signet_pipeline.graph import knowledge
from signet_pipeline.service import MemoryService
from signet_pipeline.write.remember import ensure_writable

router = APIRouter(tags=["knowledge"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]
EntityId = Annotated[str, Path(min_length=1, max_length=200)]
AgentId = Annotated[str | None, Query(alias="agentId", min_length=1, max_length=200)]


@router.get("/api/knowledge/entities", summary="Entities of an agent, pinned first, then by mentions")
def entities_route(request: Request, svc: Service, agent_id: AgentId = None,
                   limit: Annotated[int, Query(ge=1, le=500)] = 50, offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
                   q: Annotated[str | None, Query(max_length=200, description="substring of the name")] = None,
                   entity_type: Annotated[str | None, Query(alias="type", max_length=50)] = None) -> dict[str, Any]:
    return knowledge.list_entities(svc, agent_id=reading_agent(request, agent_id), limit=limit, offset=offset,
                                   query=q or None, entity_type=entity_type or None)


@router.post("/api/knowledge/entities/{entity_id}/pin", summary="Pin an entity (always a traversal focus)",
             responses=errors(404, 503))
def pin_route(request: Request, entity_id: EntityId, svc: Service, agent_id: AgentId = None) -> dict[str, Any]:
    ensure_writable(svc)  # a pin changes what traversal focuses on: a write
    return knowledge.set_pinned(svc, entity_id, agent_id=reading_agent(request, agent_id), pinned=True)


@router.delete("/api/knowledge/entities/{entity_id}/pin", summary="Unpin an entity", responses=errors(404, 503))
def unpin_route(request: Request, entity_id: EntityId, svc: Service, agent_id: AgentId = None) -> dict[str, Any]:
    ensure_writable(svc)
    return knowledge.set_pinned(svc, entity_id, agent_id=reading_agent(request, agent_id), pinned=False)


@router.get("/api/knowledge/constellation", summary="Graph overlay: entities, aspects, attributes, dependencies")
def constellation_route(request: Request, svc: Service, agent_id: AgentId = None) -> dict[str, Any]:
    return knowledge.constellation(svc, agent_id=reading_agent(request, agent_id))
