"""Knowledge-graph reads and pins for the API (listings, pin/unpin, constellation overlay)."""

from __future__ import annotations

from typing import Any

from signet_pipeline.errors import NotFound
from signet_pipeline.graph import views
from signet_pipeline.service import MemoryService
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store.db import Row
from signet_pipeline.timeutil import now_iso


def entity_view(row: Row) -> dict[str, Any]:
    return {**views.entity(row).model_dump(), **({"aspectCount": row["aspect_count"]} if "aspect_count" in row else {})}


def list_entities(svc: MemoryService, *, agent_id: str, limit: int, offset: int, query: str | None,
                  entity_type: str | None) -> dict[str, Any]:
    conn = svc.db.reader()
    found = graph_store.list_entities(conn, agent_id=agent_id, limit=limit, offset=offset, query=query,
                                      entity_type=entity_type)
    return {"entities": [entity_view(r) for r in found], "total": graph_store.count_entities(conn, agent_id),
            "limit": limit, "offset": offset}


def set_pinned(svc: MemoryService, entity_id: str, *, agent_id: str, pinned: bool) -> dict[str, Any]:
    with svc.db.write() as conn:
        row = graph_store.set_pinned(conn, entity_id=entity_id, agent_id=agent_id, pinned=pinned, now=now_iso())
    if row is None:
        raise NotFound(f"entity {entity_id} not found")
    return entity_view(row)


def constellation(svc: MemoryService, *, agent_id: str) -> dict[str, Any]:
    graph = graph_store.constellation(svc.db.reader(), agent_id)
    aspects: dict[str, list[dict[str, Any]]] = {}
    by_aspect: dict[str, list[dict[str, Any]]] = {}
    for attr in graph["attributes"]:
        by_aspect.setdefault(attr["aspect_id"] or "", []).append({
            "id": attr["id"], "kind": attr["kind"], "content": attr["content"], "memoryId": attr["memory_id"],
            "importance": attr["importance"], "confidence": attr["confidence"]})
    for aspect in graph["aspects"]:
        aspects.setdefault(aspect["entity_id"], []).append({
            "id": aspect["id"], "name": aspect["name"], "weight": aspect["weight"],
            "attributes": by_aspect.get(aspect["id"], [])})
    return {
        "entities": [{**entity_view(e), "aspects": aspects.get(e["id"], [])} for e in graph["entities"]],
        "dependencies": [{"id": d["id"], "source": d["source_entity_id"], "target": d["target_entity_id"],
                          "type": d["dependency_type"], "strength": d["strength"]} for d in graph["dependencies"]],
    }
