"""POST /api/knowledge/expand (the knowledge_expand tool): everything the graph holds about one
entity of the reading agent, in one answer: its constraints (and those of the entities the walk
reaches), its aspects with their top attributes, its outgoing dependencies, and the memories the
graph walk (graph/traversal.py, recall's own walk) reaches from it, within a token budget.
Memories are read under the reader's policy: the walk may reach a memory the reader may not see
(a private one of another agent never belongs to the reader's graph, but an archived one may);
it is left out."""

from __future__ import annotations

from math import ceil
from typing import Annotated

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from signet_pipeline.graph import traversal
from signet_pipeline.graph.navigation import find_entity
from signet_pipeline.request_rules import NOT_BLANK, STRICT, Integer
from signet_pipeline.service import MemoryService
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.graph import tree as tree_store
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.text.entities import canonical_name

MAX_CONSTRAINTS = 50
CHARS_PER_TOKEN = 4  # the reference's estimate
Tokens = Annotated[int, Integer(ge=1, le=10_000)]


class ExpandRequest(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, **STRICT)

    entity: str = Field(..., min_length=1, max_length=200, pattern=NOT_BLANK,
                        validation_alias=AliasChoices("entity", "entityName", "entity_name"),
                        description="the entity's name (best match: exact, then prefix, then substring)")
    aspect: str | None = Field(None, min_length=1, max_length=100,
                               description="only aspects whose name contains this (and their memories)")
    max_tokens: Tokens = Field(2000, validation_alias=AliasChoices("maxTokens", "max_tokens"),
                                                 description="budget for the memories' text (4 characters a token)")
    agent_id: str | None = Field(None, min_length=1, max_length=200,
                                 validation_alias=AliasChoices("agentId", "agent_id"),
                                 description="whose graph (a token's agent wins)")


class ExpandEntity(BaseModel):
    id: str
    name: str
    type: str
    description: str | None


class ExpandAttribute(BaseModel):
    content: str
    kind: str
    importance: float
    confidence: float
    memoryId: str | None


class ExpandAspect(BaseModel):
    name: str
    weight: float
    attributes: list[ExpandAttribute]


class Constraint(BaseModel):
    entityId: str
    entityName: str
    content: str
    importance: float
    memoryId: str | None


class Dependency(BaseModel):
    targetId: str
    target: str
    type: str
    strength: float


class ExpandMemory(BaseModel):
    id: str
    content: str
    type: str
    createdAt: str


class Expansion(BaseModel):
    entity: ExpandEntity
    constraints: list[Constraint]
    aspects: list[ExpandAspect]
    dependencies: list[Dependency]
    memoryCount: int  # memories the walk reached and the reader may see (more than `memories` past the budget)
    memories: list[ExpandMemory]  # constraints' first, then by importance, while the budget lasts


def expand(svc: MemoryService, agent_id: str, req: ExpandRequest) -> Expansion:
    cfg = svc.settings.pipeline.traversal
    with svc.db.read() as conn:
        found = find_entity(conn, agent_id, req.entity)
        walk = traversal.walk(conn, [found["id"]], cfg)
        rooms = tree_store.aspects(conn, found["id"], limit=cfg.max_aspects_per_entity,
                                   containing=canonical_name(req.aspect) if req.aspect else None)
        attributes = {r["id"]: tree_store.aspect_attributes(conn, r["id"], cfg.max_attributes_per_aspect)
                      for r in rooms}
        constraints = tree_store.constraints(conn, walk.walked or [found["id"]], MAX_CONSTRAINTS)
        edges = tree_store.dependencies_from(conn, found["id"], min_strength=cfg.min_dependency_strength,
                                             limit=cfg.max_dependency_hops)
        reached = walk.memory_ids if req.aspect is None else walk.constraints | {
            a["memory_id"] for rows in attributes.values() for a in rows if a["memory_id"]}
        visible = mem_store.visible_ids(conn, sorted(reached), MemoryFilter(agent_id=agent_id))
        rows = mem_store.fetch_many(conn, sorted(visible))
    ordered = sorted(rows.values(), key=lambda r: (r["id"] not in walk.constraints, -r["importance"], r["created_at"]))
    budget, memories = req.max_tokens, []
    for row in ordered:
        cost = ceil(len(row["content"]) / CHARS_PER_TOKEN)
        if cost <= budget:
            budget -= cost
            memories.append(ExpandMemory(id=row["id"], content=row["content"], type=row["type"],
                                         createdAt=row["created_at"]))
    return Expansion(
        entity=ExpandEntity(id=found["id"], name=found["name"], type=found["entity_type"],
                            description=found["description"]),
        constraints=[Constraint(entityId=c["entity_id"], entityName=c["entity_name"], content=c["content"],
                                importance=c["importance"], memoryId=c["memory_id"]) for c in constraints],
        aspects=[ExpandAspect(name=r["name"], weight=r["weight"], attributes=[
            ExpandAttribute(content=a["content"], kind=a["kind"], importance=a["importance"],
                            confidence=a["confidence"], memoryId=a["memory_id"]) for a in attributes[r["id"]]])
                 for r in rooms],
        dependencies=[Dependency(targetId=d["target_entity_id"], target=d["target_name"], type=d["dependency_type"],
                                 strength=d["strength"]) for d in edges],
        memoryCount=len(visible), memories=memories)
