"""Knowledge-graph endpoints: entity listing (pinned first), pin/unpin, constellation overlay; the
navigation reads (the reference's /api/knowledge/navigation/*: entity, aspects, groups, claims,
attributes, tree) and the expansions (an entity's graph and memories, the sessions about it).
Everything reads the graph of the agent the request acts as (deps.reading_agent)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import reading_agent, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.graph import knowledge, navigation, views
from signet_pipeline.graph.expand import ExpandRequest, Expansion, expand
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions.lineage import EntitySessions, EntitySessionsRequest, entity_sessions
from signet_pipeline.write.remember import ensure_writable

router = APIRouter(tags=["knowledge"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]
EntityId = Annotated[str, Path(min_length=1, max_length=200)]
AgentId = Annotated[str | None, Query(alias="agentId", min_length=1, max_length=200)]
Name = Annotated[str, Query(min_length=1, max_length=200, description="a name (best match: exact, prefix, substring)")]
Key = Annotated[str, Query(min_length=1, max_length=200, description="groupKey or claimKey (`general`: no group)")]
Limit = Annotated[int, Query(ge=1, le=200)]
Offset = Annotated[int, Query(ge=0, le=10_000_000)]


@router.get("/api/knowledge/entities", summary="Entities of an agent, pinned first, then by mentions")
@declare("recall")
def entities_route(request: Request, svc: Service, agent_id: AgentId = None,
                   limit: Annotated[int, Query(ge=1, le=500)] = 50,
                   offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
                   q: Annotated[str | None, Query(max_length=200, description="substring of the name")] = None,
                   entity_type: Annotated[str | None, Query(alias="type", max_length=50)] = None) -> dict[str, Any]:
    return knowledge.list_entities(svc, agent_id=reading_agent(request, agent_id), limit=limit, offset=offset,
                                   query=q or None, entity_type=entity_type or None)


@router.post("/api/knowledge/entities/{entity_id}/pin", summary="Pin an entity (always a traversal focus)",
             responses=errors(404, 503))
@declare("modify")
def pin_route(request: Request, entity_id: EntityId, svc: Service, agent_id: AgentId = None) -> dict[str, Any]:
    ensure_writable(svc)  # a pin changes what traversal focuses on: a write
    return knowledge.set_pinned(svc, entity_id, agent_id=reading_agent(request, agent_id), pinned=True)


@router.delete("/api/knowledge/entities/{entity_id}/pin", summary="Unpin an entity", responses=errors(404, 503))
@declare("modify")
def unpin_route(request: Request, entity_id: EntityId, svc: Service, agent_id: AgentId = None) -> dict[str, Any]:
    ensure_writable(svc)
    return knowledge.set_pinned(svc, entity_id, agent_id=reading_agent(request, agent_id), pinned=False)


@router.get("/api/knowledge/constellation", summary="Graph overlay: entities, aspects, attributes, dependencies")
@declare("recall")
def constellation_route(request: Request, svc: Service, agent_id: AgentId = None) -> dict[str, Any]:
    return knowledge.constellation(svc, agent_id=reading_agent(request, agent_id))


@router.get("/api/knowledge/navigation/entities", response_model=views.EntityPage,
            summary="Entities with their aspect, attribute, constraint and dependency counts")
@declare("recall")
def navigation_entities_route(request: Request, svc: Service, agent_id: AgentId = None,
                              limit: Annotated[int, Query(ge=1, le=500)] = 50,
                              offset: Offset = 0, q: Annotated[str | None, Query(max_length=200)] = None,
                              entity_type: Annotated[str | None, Query(alias="type", max_length=50)] = None):
    return navigation.entity_page(svc, reading_agent(request, agent_id), query=q or None,
                                  entity_type=entity_type or None, limit=limit, offset=offset)


@router.get("/api/knowledge/navigation/entity", response_model=views.EntityDetail, responses=errors(404),
            summary="One entity by name, with its structural counts")
@declare("recall")
def navigation_entity_route(request: Request, svc: Service, name: Name, agent_id: AgentId = None):
    return navigation.entity_detail(svc, reading_agent(request, agent_id), name=name)


@router.get("/api/knowledge/entities/{entity_id}", response_model=views.EntityDetail, responses=errors(404),
            summary="One entity by id, with its structural counts")
@declare("recall")
def entity_route(request: Request, svc: Service, entity_id: EntityId, agent_id: AgentId = None):
    return navigation.entity_detail(svc, reading_agent(request, agent_id), entity_id=entity_id)


@router.get("/api/knowledge/navigation/tree", response_model=views.EntityTree, responses=errors(404),
            summary="Outline of an entity: aspects (depth 1), groups (2), claims with previews (3)")
@declare("recall")
def navigation_tree_route(request: Request, svc: Service, entity: Name, agent_id: AgentId = None,
                          depth: Annotated[int, Query(ge=1, le=3)] = 3,
                          max_aspects: Annotated[int, Query(ge=1, le=100)] = 20,
                          max_groups: Annotated[int, Query(ge=1, le=100)] = 20,
                          max_claims: Annotated[int, Query(ge=1, le=200)] = 50):
    return navigation.tree(svc, reading_agent(request, agent_id), entity, depth=depth, max_aspects=max_aspects,
                           max_groups=max_groups, max_claims=max_claims)


@router.get("/api/knowledge/navigation/aspects", response_model=views.AspectList, responses=errors(404),
            summary="An entity's aspects, heaviest first")
@declare("recall")
def navigation_aspects_route(request: Request, svc: Service, entity: Name, agent_id: AgentId = None):
    return navigation.aspect_list(svc, reading_agent(request, agent_id), entity)


@router.get("/api/knowledge/navigation/groups", response_model=views.GroupList, responses=errors(404),
            summary="The groups (groupKey) of an entity's aspect")
@declare("recall")
def navigation_groups_route(request: Request, svc: Service, entity: Name, aspect: Name, agent_id: AgentId = None):
    return navigation.group_list(svc, reading_agent(request, agent_id), entity, aspect)


@router.get("/api/knowledge/navigation/claims", response_model=views.ClaimList, responses=errors(404),
            summary="The claims (claimKey) of a group, with counts and a preview")
@declare("recall")
def navigation_claims_route(request: Request, svc: Service, entity: Name, aspect: Name, group: Key,
                            agent_id: AgentId = None, limit: Limit = 50, offset: Offset = 0):
    return navigation.claim_list(svc, reading_agent(request, agent_id), entity, aspect, group, limit=limit,
                                 offset=offset)


@router.get("/api/knowledge/navigation/attributes", response_model=views.AttributeList, responses=errors(404),
            summary="The attributes of one claim, newest first (status=all: with superseded history)")
@declare("recall")
def navigation_attributes_route(request: Request, svc: Service, entity: Name, aspect: Name, group: Key, claim: Key,
                                agent_id: AgentId = None, kind: views.Kind | None = None,
                                status: views.Status | Literal["all"] = "active", limit: Limit = 50,
                                offset: Offset = 0):
    return navigation.attribute_list(svc, reading_agent(request, agent_id), entity, aspect, group, claim, kind=kind,
                                     status=status, limit=limit, offset=offset)


@router.post("/api/knowledge/expand", response_model=Expansion, responses=errors(404),
             summary="An entity's constraints, aspects, dependencies and the memories its graph walk reaches")
@declare("recall")
def expand_route(request: Request, body: ExpandRequest, svc: Service):
    return expand(svc, reading_agent(request, body.agent_id), body)


@router.post("/api/knowledge/expand/session", response_model=EntitySessions, responses=errors(404, 408),
             summary="Session summaries about an entity, newest first")
@declare("recall")
def expand_session_route(request: Request, body: EntitySessionsRequest, svc: Service):
    return entity_sessions(svc, reading_agent(request, body.agent_id), body)
