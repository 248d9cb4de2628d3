"""Memory-search telemetry (the reference SDK's getMemorySearchTelemetry): a log of the searches
agents ran, to see what recall answered to what and where it found nothing.

Kept only while memory.pipelineV2.telemetryEnabled is on (off by default), written through the
telemetry sink's buffer (never on the request's path), bounded (telemetry/sink.py KEEP_SEARCHES,
and retention.telemetryRetentionDays). A search keeps the query as the caller sent it, its
filters, timings and, per result, the memory's id, rank, score, type, importance and creation
time. It keeps no text a user wrote into a memory: content, tags, who and project are read from
the memory when the log is read, as the searching agent may read it then; a result forgotten since
comes back with empty content and `truncated: true` (content_length is its length at search)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from signet_pipeline.models import RecallRequest, RecallResult
from signet_pipeline.service import MemoryService
from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.text.content import tags_text
from signet_pipeline.timeutil import now_iso

FILTERS = ("limit", "type", "tags", "who", "pinned", "importance_min", "since", "until", "project", "expand")
SNAPSHOT = ("id", "score", "source", "type", "importance", "pinned", "created_at")
EXPORT_PAGE = 200


class SearchResultView(BaseModel):
    rank: int
    id: str
    content: str  # as the memory reads now ("" when forgotten or no longer readable)
    content_length: int
    truncated: bool
    score: float
    source: str
    type: str
    tags: str | None
    pinned: bool
    importance: float
    who: str | None
    project: str | None
    created_at: str
    supplementary: bool = False


class SearchItem(BaseModel):
    id: str
    created_at: str
    route: str  # e.g. "POST /api/memory/recall"
    agent_id: str
    session_key: str | None
    project: str | None
    query: str
    keyword_query: str | None
    filters: dict[str, Any]
    method: str
    result_count: int
    top_score: float | None
    no_hits: bool
    duration_ms: float
    timings: dict[str, Any]  # {totalMs, stages: [{name, durationMs}]}
    results: list[SearchResultView]
    sources: dict[str, str] | None = None  # the reference's per-result source map; recall here has none


class SearchLog(BaseModel):
    items: list[SearchItem]
    count: int
    enabled: bool  # memory.pipelineV2.telemetryEnabled: whether searches are being logged now


def record(svc: MemoryService, *, route: str, req: RecallRequest, result: RecallResult, duration_ms: float) -> None:
    """Log one search (nothing unless telemetry is on). `duration_ms`: the caller's measure, used
    when the answer carries no timings."""
    if not svc.telemetry.enabled:
        return
    timings = result.meta.get("timings") or {"totalMs": duration_ms, "stages": []}
    snapshot = [{"rank": rank, "content_length": len(hit.content), "supplementary": hit.supplementary,
                 **hit.model_dump(include=set(SNAPSHOT))} for rank, hit in enumerate(result.results, 1)]
    svc.telemetry.record_search((
        now_iso(), route, req.agent_id, req.session_key, req.project, req.query, req.keyword_query,
        json.dumps(req.model_dump(include=set(FILTERS))), result.method, len(result.results),
        result.results[0].score if result.results else None, not result.results, timings["totalMs"],
        json.dumps(timings), json.dumps(snapshot)))


def _result(entry: dict[str, Any], memory: Row | None) -> SearchResultView:
    if memory is None:
        return SearchResultView(**entry, content="", truncated=True, tags=None, who=None, project=None)
    return SearchResultView(**{**entry, "content_length": len(memory["content"])}, content=memory["content"],
                            truncated=False, tags=tags_text(memory["tags"]), who=memory["who"],
                            project=memory["project"])


def items(svc: MemoryService, *, agent_id: str | None, session_key: str | None = None, project: str | None = None,
          route: str | None = None, since: str | None = None, until: str | None = None, no_hits: bool | None = None,
          limit: int = 100, offset: int = 0, before_id: int | None = None) -> list[SearchItem]:
    """Logged searches, newest first (`agent_id` None: every agent's)."""
    with svc.db.read() as conn:
        found = analytics_store.searches(conn, agent_id=agent_id, session_key=session_key, project=project,
                                         route=route, since=since, until=until, no_hits=no_hits, limit=limit,
                                         offset=offset, before_id=before_id)
        logged = [(row, json.loads(row["results"])) for row in found]
        memories = mem_store.fetch_many(conn, sorted({e["id"] for _, entries in logged for e in entries}))
        readable = {agent: mem_store.visible_ids(conn, list(memories), MemoryFilter(agent_id=agent,
                                                                                    include_superseded=True))
                    for agent in {row["agent_id"] for row, _ in logged}}
    return [SearchItem(
        **{k: row[k] for k in ("created_at", "route", "agent_id", "session_key", "project", "query", "keyword_query",
                               "method", "result_count", "top_score", "duration_ms")},
        id=str(row["id"]), filters=json.loads(row["filters"]), no_hits=bool(row["no_hits"]),
        timings=json.loads(row["timings"]),
        results=[_result(e, memories.get(e["id"]) if e["id"] in readable[row["agent_id"]] else None) for e in entries],
    ) for row, entries in logged]


def log(svc: MemoryService, **filters: Any) -> SearchLog:
    found = items(svc, **filters)
    return SearchLog(items=found, count=len(found), enabled=svc.telemetry.enabled)


def export_lines(svc: MemoryService, *, limit: int, **filters: Any) -> Iterator[str]:
    """Up to `limit` logged searches as NDJSON, newest first, read EXPORT_PAGE at a time (a page's
    memories are read with it, not all of them at once)."""
    before: int | None = None
    while limit > 0:
        page = items(svc, **filters, limit=min(EXPORT_PAGE, limit), before_id=before)
        yield from (item.model_dump_json() + "\n" for item in page)
        if len(page) < EXPORT_PAGE:
            return
        limit -= len(page)
        before = int(page[-1].id)
