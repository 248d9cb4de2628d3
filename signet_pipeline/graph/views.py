"""What the graph navigation and expansion reads answer (the reference's field names), as
pydantic models so the API states them in its schema, and the row -> model conversions."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from signet_pipeline.store.db import Row

Kind = Literal["attribute", "constraint"]
Status = Literal["active", "superseded", "deleted"]


class Entity(BaseModel):
    id: str
    name: str
    canonicalName: str
    entityType: str
    agentId: str
    description: str | None
    mentions: int
    pinned: bool
    pinnedAt: str | None
    communityId: str | None
    createdAt: str
    updatedAt: str


class Counts(BaseModel):
    aspectCount: int
    attributeCount: int  # active attributes (constraints not included)
    constraintCount: int  # active constraints
    dependencyCount: int  # edges in and out


class EntitySummary(Counts):
    entity: Entity


class EntityDetail(EntitySummary):
    structuralDensity: Counts
    incomingDependencyCount: int
    outgoingDependencyCount: int


class EntityPage(BaseModel):
    items: list[EntitySummary]
    total: int  # the agent's entities (not only those matching q / type)
    limit: int
    offset: int


class Aspect(BaseModel):
    id: str
    entityId: str
    name: str
    canonicalName: str
    weight: float
    createdAt: str
    updatedAt: str


class AspectSummary(BaseModel):
    aspect: Aspect
    attributeCount: int
    constraintCount: int


class AspectList(BaseModel):
    entity: Entity
    items: list[AspectSummary]


class Group(BaseModel):
    groupKey: str  # `general`: attributes without a groupKey
    attributeCount: int
    constraintCount: int
    claimCount: int
    latestUpdatedAt: str | None


class GroupList(BaseModel):
    entity: Entity
    aspect: Aspect
    items: list[Group]


class Claim(BaseModel):
    claimKey: str
    groupKey: str | None
    attributeCount: int  # every row of the claim, history included
    constraintCount: int
    activeCount: int
    supersededCount: int
    latestUpdatedAt: str | None
    preview: str | None  # the most important active attribute


class ClaimList(BaseModel):
    entity: Entity
    aspect: Aspect
    items: list[Claim]
    limit: int
    offset: int
    hasMore: bool


class Attribute(BaseModel):
    id: str
    entityId: str
    aspectId: str | None
    memoryId: str | None
    kind: Kind
    content: str
    groupKey: str | None
    claimKey: str | None
    confidence: float
    importance: float
    status: Status
    supersededBy: str | None
    createdAt: str
    updatedAt: str


class AttributeList(BaseModel):
    entity: Entity
    aspect: Aspect
    items: list[Attribute]
    limit: int
    offset: int


class TreeGroup(Group):
    claims: list[Claim]
    claimsHasMore: bool


class TreeAspect(AspectSummary):
    groupCount: int
    claimCount: int
    groups: list[TreeGroup]


class TreeLimits(BaseModel):
    maxAspects: int
    maxGroups: int
    maxClaims: int
    depth: int


class EntityTree(BaseModel):
    entity: Entity
    items: list[TreeAspect]
    limits: TreeLimits


def entity(row: Row) -> Entity:
    return Entity(id=row["id"], name=row["name"], canonicalName=row["canonical_name"], entityType=row["entity_type"],
                  agentId=row["agent_id"], description=row["description"], mentions=row["mentions"],
                  pinned=bool(row["pinned"]), pinnedAt=row["pinned_at"], communityId=row["community_id"],
                  createdAt=row["created_at"], updatedAt=row["updated_at"])


def counts(row: Row) -> Counts:
    return Counts(aspectCount=row["aspect_count"], attributeCount=row["attribute_count"],
                  constraintCount=row["constraint_count"], dependencyCount=row["outgoing"] + row["incoming"])


def aspect(row: Row) -> Aspect:
    return Aspect(id=row["id"], entityId=row["entity_id"], name=row["name"], canonicalName=row["canonical_name"],
                  weight=row["weight"], createdAt=row["created_at"], updatedAt=row["updated_at"])


def aspect_summary(row: Row) -> AspectSummary:
    return AspectSummary(aspect=aspect(row), attributeCount=row["attribute_count"],
                         constraintCount=row["constraint_count"])


def group(row: Row) -> Group:
    return Group(groupKey=row["group_key"], attributeCount=row["attribute_count"],
                 constraintCount=row["constraint_count"], claimCount=row["claim_count"],
                 latestUpdatedAt=row["latest_updated_at"])


def claim(row: Row) -> Claim:
    return Claim(claimKey=row["claim_key"], groupKey=row["group_key"], attributeCount=row["attribute_count"],
                 constraintCount=row["constraint_count"], activeCount=row["active_count"],
                 supersededCount=row["superseded_count"], latestUpdatedAt=row["latest_updated_at"],
                 preview=row["preview"])


def attribute(row: Row) -> Attribute:
    return Attribute(id=row["id"], entityId=row["entity_id"], aspectId=row["aspect_id"], memoryId=row["memory_id"],
                     kind=row["kind"], content=row["content"], groupKey=row["group_key"], claimKey=row["claim_key"],
                     confidence=row["confidence"], importance=row["importance"], status=row["status"],
                     supersededBy=row["superseded_by"], createdAt=row["created_at"], updatedAt=row["updated_at"])
