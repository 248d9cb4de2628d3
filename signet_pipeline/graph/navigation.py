"""Walking one agent's knowledge graph a step at a time (the reference's knowledge navigation):
entities, then an entity's aspects ("rooms"), an aspect's groups ("dressers", groupKey), a
group's claims ("drawers", claimKey) and a claim's attributes, current and past; or the outline
of all of it at once (tree). Names resolve within the reading agent's own graph only: another
agent's entity, however it is named, is never found."""

from __future__ import annotations

import apsw

from signet_pipeline.errors import NotFound
from signet_pipeline.graph import views
from signet_pipeline.service import MemoryService
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.graph import tree as tree_store
from signet_pipeline.text.entities import canonical_name


def key_name(text: str) -> str:
    """A group or claim key as compared: lowercase, single spaces as underscores."""
    return canonical_name(text).replace(" ", "_")


def find_entity(conn: apsw.Connection, agent_id: str, name: str) -> Row:
    found = tree_store.resolve_entity(conn, agent_id, canonical_name(name)) if canonical_name(name) else None
    if found is None:
        raise NotFound(f"no entity named {name!r}", code="entity_not_found")
    return found


def find_aspect(conn: apsw.Connection, entity: Row, name: str) -> Row:
    found = tree_store.aspect(conn, entity["id"], canonical_name(name))
    if found is None:
        raise NotFound(f"entity {entity['name']!r} has no aspect {name!r}", code="aspect_not_found")
    return found


def summaries(conn: apsw.Connection, entities: list[Row]) -> list[views.EntitySummary]:
    counted = tree_store.entity_counts(conn, [e["id"] for e in entities])
    return [views.EntitySummary(entity=views.entity(e), **views.counts(counted[e["id"]]).model_dump())
            for e in entities]


def entity_page(svc: MemoryService, agent_id: str, *, query: str | None, entity_type: str | None, limit: int,
                offset: int) -> views.EntityPage:
    """Pinned first, then the most mentioned (the listing of /api/knowledge/entities), with counts."""
    with svc.db.read() as conn:
        found = graph_store.list_entities(conn, agent_id=agent_id, limit=limit, offset=offset, query=query,
                                          entity_type=entity_type)
        return views.EntityPage(items=summaries(conn, found), total=graph_store.count_entities(conn, agent_id),
                                limit=limit, offset=offset)


def entity_detail(svc: MemoryService, agent_id: str, *, name: str | None = None,
                  entity_id: str | None = None) -> views.EntityDetail:
    """One entity by name (best match) or id, with its structural counts."""
    with svc.db.read() as conn:
        if name is not None:
            found = find_entity(conn, agent_id, name)
        elif (by_id := tree_store.entity(conn, agent_id, entity_id or "")) is not None:
            found = by_id
        else:
            raise NotFound(f"entity {entity_id} not found", code="entity_not_found")
        row = tree_store.entity_counts(conn, [found["id"]])[found["id"]]
    counts = views.counts(row)
    return views.EntityDetail(entity=views.entity(found), **counts.model_dump(), structuralDensity=counts,
                              incomingDependencyCount=row["incoming"], outgoingDependencyCount=row["outgoing"])


def aspect_list(svc: MemoryService, agent_id: str, entity: str, *, limit: int = 500) -> views.AspectList:
    with svc.db.read() as conn:
        found = find_entity(conn, agent_id, entity)
        items = [views.aspect_summary(r) for r in tree_store.aspects(conn, found["id"], limit=limit)]
    return views.AspectList(entity=views.entity(found), items=items)


def group_list(svc: MemoryService, agent_id: str, entity: str, aspect: str, *, limit: int = 500) -> views.GroupList:
    with svc.db.read() as conn:
        found = find_entity(conn, agent_id, entity)
        room = find_aspect(conn, found, aspect)
        items = [views.group(r) for r in tree_store.groups(conn, room["id"], limit=limit)]
    return views.GroupList(entity=views.entity(found), aspect=views.aspect(room), items=items)


def claim_list(svc: MemoryService, agent_id: str, entity: str, aspect: str, group: str, *, limit: int,
               offset: int) -> views.ClaimList:
    with svc.db.read() as conn:
        found = find_entity(conn, agent_id, entity)
        room = find_aspect(conn, found, aspect)
        page = tree_store.claims(conn, room["id"], key_name(group), limit=limit + 1, offset=offset)
    return views.ClaimList(entity=views.entity(found), aspect=views.aspect(room),
                           items=[views.claim(r) for r in page[:limit]], limit=limit, offset=offset,
                           hasMore=len(page) > limit)


def attribute_list(svc: MemoryService, agent_id: str, entity: str, aspect: str, group: str, claim: str, *,
                   kind: str | None, status: str, limit: int, offset: int) -> views.AttributeList:
    """A claim's attributes, newest first: the active ones, or `status` (all: with history)."""
    with svc.db.read() as conn:
        found = find_entity(conn, agent_id, entity)
        room = find_aspect(conn, found, aspect)
        items = tree_store.claim_attributes(conn, room["id"], key_name(group), key_name(claim), kind=kind,
                                            status=status, limit=limit, offset=offset)
    return views.AttributeList(entity=views.entity(found), aspect=views.aspect(room),
                               items=[views.attribute(r) for r in items], limit=limit, offset=offset)


def tree(svc: MemoryService, agent_id: str, entity: str, *, depth: int, max_aspects: int, max_groups: int,
         max_claims: int) -> views.EntityTree:
    """The outline of one entity: aspects (depth 1), their groups (2), the groups' claims (3)."""
    with svc.db.read() as conn:
        found = find_entity(conn, agent_id, entity)
        items = []
        for row in tree_store.aspects(conn, found["id"], limit=max_aspects):
            groups = []
            for g in tree_store.groups(conn, row["id"], limit=max_groups) if depth >= 2 else []:
                claims = tree_store.claims(conn, row["id"], g["group_key"], limit=max_claims) if depth >= 3 else []
                groups.append(views.TreeGroup(**views.group(g).model_dump(), claims=[views.claim(c) for c in claims],
                                              claimsHasMore=depth >= 3 and g["claim_count"] > len(claims)))
            items.append(views.TreeAspect(**views.aspect_summary(row).model_dump(), groupCount=row["group_count"],
                                          claimCount=row["claim_count"], groups=groups))
    return views.EntityTree(entity=views.entity(found), items=items,
                            limits=views.TreeLimits(maxAspects=max_aspects, maxGroups=max_groups,
                                                    maxClaims=max_claims, depth=depth))
