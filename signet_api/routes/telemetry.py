"""Telemetry, logs and memory safety (more-endpoints "Telemetry, logs, memory safety"), and the
memory-search log (recall/search_log.py). Local only: these read the store's bounded rings;
nothing is sent anywhere."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from signet_api.auth import AuthorizedRoute
from signet_api.deps import bound_agent, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.errors import NotFound
from signet_pipeline.ops.diagnostics import memory_safety
from signet_pipeline.recall import search_log
from signet_pipeline.recall.search_log import SearchLog
from signet_pipeline.request_rules import Timestamp
from signet_pipeline.service import MemoryService
from signet_pipeline.telemetry import reports

router = APIRouter(tags=["telemetry"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]
Level = Literal["debug", "info", "warning", "warn", "error", "critical"]
Category = Annotated[str | None, Query(max_length=100)]
STREAM_POLL_S = 0.5
Responses = dict[int | str, dict[str, Any]]  # a route's `responses`
# Each event's data is a JSON object: first {"type": "connected"}, then log entries.
EVENTS: Responses = {200: {"description": "Server-Sent Events", "content": {"text/event-stream": {"schema": {
    "type": "object", "required": ["data"],
    "properties": {"data": {"type": "string", "contentMediaType": "application/json",
                            "contentSchema": {"type": "object"}}}}}}}}
NDJSON: Responses = {200: {"description": "one telemetry event per line", "content": {"application/x-ndjson": {}}}}
SEARCH_NDJSON: Responses = {200: {
    "description": "one logged search per line (as the items of /api/telemetry/memory-search)",
    "content": {"application/x-ndjson": {}}}}


def _enabled(svc: MemoryService) -> bool:
    return svc.settings.pipeline.telemetry_enabled


@router.get("/api/telemetry/events", summary="Telemetry events, newest first (counts, durations, codes)")
@declare("analytics")
def events_route(svc: Service, event: Annotated[str | None, Query(max_length=80)] = None, since: Timestamp = None,
                 until: Timestamp = None, limit: Annotated[int, Query(ge=1, le=10_000)] = 100) -> dict[str, Any]:
    return reports.events(svc.db, enabled=_enabled(svc), event=event, since=since, until=until, limit=limit)


@router.get("/api/telemetry/stats", summary="Telemetry totals: LLM calls and tokens, recall latency, pipeline errors")
@declare("analytics")
def stats_route(svc: Service, since: Timestamp = None) -> dict[str, Any]:
    return reports.stats(svc.db, enabled=_enabled(svc), since=since)


@router.get("/api/telemetry/export", summary="Telemetry events as NDJSON, oldest first (404 while disabled)",
            response_class=StreamingResponse, responses={**NDJSON, **errors(404)})
@declare("analytics")
def export_route(svc: Service, since: Timestamp = None,
                 limit: Annotated[int, Query(ge=1, le=100_000)] = 10_000) -> StreamingResponse:
    if not _enabled(svc):
        raise NotFound("telemetry is disabled (memory.pipelineV2.telemetryEnabled)", code="telemetry_disabled")
    return StreamingResponse(reports.export_lines(svc.db, since=since, limit=limit),
                             media_type="application/x-ndjson",
                             headers={"content-disposition": 'attachment; filename="signet-telemetry.ndjson"'})


class SearchFilters:
    """The memory-search log's filters (the SDK sends them snake_case). A token bound to an agent
    (signet_api/deps.py bound_agent) reads only that agent's searches, whatever it asks."""

    def __init__(self, request: Request, agent_id: Annotated[str | None, Query(max_length=200)] = None,
                 session_key: Annotated[str | None, Query(max_length=500)] = None,
                 project: Annotated[str | None, Query(max_length=500)] = None,
                 route: Annotated[str | None, Query(max_length=100, description="e.g. POST /api/memory/recall")] = None,
                 since: Timestamp = None, until: Timestamp = None, no_hits: bool | None = None):
        self.values = {"agent_id": bound_agent(request) or agent_id, "session_key": session_key, "project": project,
                       "route": route, "since": since, "until": until, "no_hits": no_hits}


Searches = Annotated[SearchFilters, Depends()]


@router.get("/api/telemetry/memory-search", response_model=SearchLog,
            summary="Logged memory searches, newest first: query, filters, timings, results (telemetry on)")
@declare("analytics")
def memory_search_route(svc: Service, filters: Searches, limit: Annotated[int, Query(ge=1, le=500)] = 100,
                        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> SearchLog:
    return search_log.log(svc, **filters.values, limit=limit, offset=offset)


@router.get("/api/telemetry/memory-search/export", summary="Logged memory searches as NDJSON, newest first",
            response_class=StreamingResponse, responses=SEARCH_NDJSON)
@declare("analytics")
def memory_search_export_route(svc: Service, filters: Searches,
                               limit: Annotated[int, Query(ge=1, le=10_000)] = 10_000) -> StreamingResponse:
    return StreamingResponse(search_log.export_lines(svc, **filters.values, limit=limit),
                             media_type="application/x-ndjson",
                             headers={"content-disposition": 'attachment; filename="signet-memory-search.ndjson"'})


def _logs(svc: MemoryService, limit: int, level: Level | None, category: str | None, since: str | None):
    return reports.logs(svc.db, limit=limit, level=level, category=category, since=since)


@router.get("/api/logs", summary="The service's structured log (API, CLI and pipeline), newest first")
@declare("diagnostics")
def logs_route(svc: Service, limit: Annotated[int, Query(ge=1, le=1000)] = 100, level: Level | None = None,
               category: Category = None, since: Timestamp = None) -> dict[str, Any]:
    return _logs(svc, limit, level, category, since)


@router.get("/api/analytics/logs", summary="Same as /api/logs")
@declare("diagnostics")
def analytics_logs_route(svc: Service, limit: Annotated[int, Query(ge=1, le=1000)] = 100, level: Level | None = None,
                         category: Category = None, since: Timestamp = None) -> dict[str, Any]:
    return _logs(svc, limit, level, category, since)


@router.get("/api/logs/stream", summary="New log entries as Server-Sent Events (first a `connected` event)",
            response_class=StreamingResponse, responses=EVENTS)
@declare("diagnostics")
async def logs_stream_route(request: Request, svc: Service, level: Level | None = None,
                            category: Category = None,
                            max_seconds: Annotated[float | None, Query(alias="maxSeconds", gt=0, le=86_400)] = None,
                            ) -> StreamingResponse:
    """`maxSeconds` ends the stream after that long (clients reconnect); without it the stream
    stays open until the client goes away."""
    deadline = None if max_seconds is None else time.monotonic() + max_seconds

    async def entries() -> AsyncIterator[str]:
        after = await run_in_threadpool(reports.last_log_id, svc.db)
        yield f"data: {json.dumps({'type': 'connected'})}\n\n"
        # Nothing is registered per connection: the generator polls the ring and ends with the client.
        while not await request.is_disconnected() and (deadline is None or time.monotonic() < deadline):
            for entry in await run_in_threadpool(reports.logs_after, svc.db, after, level=level, category=category):
                after = entry["id"]
                yield f"data: {json.dumps(entry)}\n\n"
            await asyncio.sleep(STREAM_POLL_S)

    return StreamingResponse(entries(), media_type="text/event-stream",
                             headers={"cache-control": "no-cache", "x-accel-buffering": "no"})


@router.get("/api/analytics/memory-safety", summary="Mutation health, recent mutation errors and their summary")
@declare("analytics")
def memory_safety_route(svc: Service) -> dict[str, Any]:
    return memory_safety(svc.db, svc.settings)
