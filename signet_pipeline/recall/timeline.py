"""Timelines (more-endpoints "Timeline and identity"): the events that touched one memory or one
entity, oldest first, and the same as a document to download. A caller sees what it may read: a
memory's timeline as its history (GET /api/memory/{id}/history, deleted memories included), an
entity's with only the events of memories it may read."""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal

from pydantic import BaseModel

from signet_pipeline import __version__
from signet_pipeline.errors import NotFound
from signet_pipeline.recall.reads import visible
from signet_pipeline.service import MemoryService
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store import history as history_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.timeutil import now_iso

MAX_EVENTS = 5_000


def timeline(svc: MemoryService, item_id: str, *, agent_id: str, limit: int = MAX_EVENTS) -> dict[str, Any]:
    """A memory id or an entity id; NotFound when it is neither or the agent may not read it."""
    with svc.db.read() as conn:
        memory = mem_store.get(conn, item_id, include_deleted=True)
        if memory is not None:
            if not visible(conn, memory, agent_id):
                raise NotFound(f"nothing with id {item_id}")
            kind, found = "memory", history_store.memory_timeline(conn, item_id, limit)
        else:
            # Another agent's entity only through a memory the caller may read: its name alone can
            # come from private memories.
            entity = graph_store.entity_row(conn, item_id)
            if entity is None or (entity["agent_id"] != agent_id
                                  and not history_store.mentioned_in_readable(conn, item_id, agent_id)):
                raise NotFound(f"nothing with id {item_id}")
            kind, found = "entity", history_store.entity_timeline(conn, item_id, agent_id, limit)
    events = [{k: v for k, v in r.items() if v is not None and k != "seq"} for r in found]
    return {"id": item_id, "kind": kind, "events": events, "count": len(events)}


class ExportMeta(BaseModel):
    version: str  # of the service that wrote the document
    exportedAt: str
    entityId: str  # the id asked for: a memory's or an entity's
    kind: Literal["memory", "entity"]
    counts: dict[str, int]  # events by type
    first: str | None
    last: str | None


class TimelineExport(BaseModel):
    """The timeline as a document (the reference SDK's TimelineExportResponse): metadata, and the
    timeline exactly as GET /api/timeline/{id} answers it."""

    meta: ExportMeta
    timeline: dict[str, Any]


def timeline_export(svc: MemoryService, item_id: str, *, agent_id: str) -> TimelineExport:
    body = timeline(svc, item_id, agent_id=agent_id)
    events = body["events"]
    meta = ExportMeta(version=__version__, exportedAt=now_iso(), entityId=item_id, kind=body["kind"],
                      counts=dict(Counter(e["type"] for e in events)),
                      first=events[0]["at"] if events else None, last=events[-1]["at"] if events else None)
    return TimelineExport(meta=meta, timeline=body)
