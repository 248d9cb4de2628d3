"""Memory endpoints (memory-api.txt): remember, recall/search, list, get, history, jobs,
legacy keyword search and similarity."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import actor, project_scope, reading_agent, recall_options, records, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.errors import Forbidden
from signet_pipeline.models import RecallRequest, RecallResult, RememberRequest, RememberResult
from signet_pipeline.recall import reads, search_log
from signet_pipeline.recall.reads import JobView
from signet_pipeline.recall.search import recall_memories
from signet_pipeline.request_rules import SAFE_INTEGERS, Timestamp
from signet_pipeline.service import MemoryService
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.telemetry import sink as telemetry
from signet_pipeline.telemetry.events import RecallPerformed, RememberPerformed
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write import codex_notes
from signet_pipeline.write.codex_notes import CodexNoteRequest, CodexNoteResult
from signet_pipeline.write.remember import Actor, remember

router = APIRouter(tags=["memory"], route_class=AuthorizedRoute)
MAX_OFFSET = 10_000_000
MAX_HISTORY = 1000
# A GET's query in characters, sized so that the worst case (4-byte characters, percent-encoded: 12
# bytes each) fits under the request-target bound (middleware.MAX_TARGET_BYTES). POST recall takes more.
MAX_GET_QUERY_CHARS = 2_000
Service = Annotated[MemoryService, Depends(service)]


def _truthy(value: str | None) -> bool | None:
    if value is None or value == "":
        return None
    return value.strip().lower() in ("1", "true", "yes", "on")


def _ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


def _remember(request: Request, body: RememberRequest, svc: MemoryService, who: Actor) -> RememberResult:
    body.agent_id = reading_agent(request, body.agent_id if "agent_id" in body.model_fields_set else None)
    body.project = project_scope(request) or body.project  # a project-scoped token writes into its project
    started = time.perf_counter()
    result = remember(svc, body, who, behind=True)
    if telemetry.active():
        telemetry.record(RememberPerformed(deduped=result.deduped, latencyMs=_ms_since(started)))
    return result


@router.post("/api/memory/remember", response_model=RememberResult, summary="Save a memory", responses=errors(503))
@declare("remember", upload=True, waits=False)
def remember_route(request: Request, body: RememberRequest, svc: Service,
                   who: Annotated[Actor, Depends(actor)]) -> RememberResult:
    return _remember(request, body, svc, who)


@router.post("/api/memory/save", response_model=RememberResult, summary="Alias of remember", responses=errors(503))
@declare("remember", upload=True, waits=False)
def save_route(request: Request, body: RememberRequest, svc: Service,
               who: Annotated[Actor, Depends(actor)]) -> RememberResult:
    return _remember(request, body, svc, who)


@router.post("/api/memory/codex-native-note", response_model=CodexNoteResult,
             summary="Write a Codex native memory note (trusted local callers only)", responses=errors(503))
@declare("remember")
def codex_note_route(request: Request, body: CodexNoteRequest, svc: Service) -> CodexNoteResult:
    if not request.state.identity.trusted:  # the file lands in the home of the user running this service
        raise Forbidden("codex native notes are written on this machine: local callers only", code="local_only")
    return codex_notes.write_note(svc, body)


@router.post("/api/hook/remember", response_model=RememberResult, summary="Alias of remember (skill compatibility)",
             responses=errors(503))
@declare("remember", upload=True, waits=False)
def hook_remember_route(request: Request, body: RememberRequest, svc: Service,
                        who: Annotated[Actor, Depends(actor)]) -> RememberResult:
    return _remember(request, body, svc, who)


def _recall_route(request: Request, body: RecallRequest, svc: MemoryService) -> RecallResult:
    body.agent_id = reading_agent(request, body.agent_id if "agent_id" in body.model_fields_set else None)
    if not body.session_key and request.headers.get("x-signet-session-key"):
        body.session_key = request.headers["x-signet-session-key"]
    started = time.perf_counter()
    result = recall_memories(svc, body, recall_options(request))
    if telemetry.active():
        kind = "temporal" if result.meta.get("temporal") else "aggregate" if result.aggregate else result.method
        telemetry.record(RecallPerformed(type=kind, results=len(result.results), latencyMs=_ms_since(started)))
    if records(request):  # the search log keeps the query: not for callers that may leave no trace
        search_log.record(svc, route=f"{request.method} {request.url.path}", req=body, result=result,
                          duration_ms=_ms_since(started))
    return result


@router.post("/api/memory/recall", response_model=RecallResult, summary="Hybrid search (BM25 + vector)",
             responses=errors(408))
@declare("recall", waits=False)
def recall_route(request: Request, body: RecallRequest, svc: Service) -> RecallResult:
    return _recall_route(request, body, svc)


@router.get("/api/memory/search", response_model=RecallResult, summary="GET alias of recall", responses=errors(408))
@declare("recall", waits=False)
def search_route(
    request: Request, svc: Service,
    q: Annotated[str, Query(max_length=MAX_GET_QUERY_CHARS)],
    limit: Annotated[int | None, Query(ge=1, le=200)] = None,
    type: str | None = None, tags: str | None = None, who: str | None = None, pinned: str | None = None,
    importance_min: Annotated[float | None, Query(ge=0, le=1)] = None,
    since: Timestamp = None, until: Timestamp = None,
    agentId: str | None = None,
    sessionKey: Annotated[str | None, Query(alias="sessionKey")] = None,
    session_key: str | None = None,
    includeRecalled: Annotated[str | None, Query(alias="includeRecalled")] = None,
    include_recalled: str | None = None,
) -> RecallResult:
    fields: dict[str, Any] = {"query": q, "limit": limit, "type": type, "tags": tags, "who": who,
                              "pinned": _truthy(pinned), "importance_min": importance_min, "since": since,
                              "until": until, "sessionKey": sessionKey or session_key,
                              "includeRecalled": _truthy(includeRecalled or include_recalled)}
    if agentId:
        fields["agentId"] = agentId
    body = RecallRequest.model_validate({k: v for k, v in fields.items() if v is not None})
    return _recall_route(request, body, svc)


@router.get("/api/memories", summary="List memories (paginated) with stats")
@declare("recall")
def list_route(request: Request, svc: Service,
               limit: Annotated[int, Query(ge=1, le=1000)] = 100,
               offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
               type: Annotated[str | None, Query(max_length=100)] = None, agentId: str | None = None,
               tags: Annotated[str | None, Query(max_length=1000,
                                                 description="comma-separated; all must match")] = None,
               pinned: str | None = None, since: Timestamp = None, until: Timestamp = None) -> dict[str, Any]:
    return reads.list_memories(svc, limit=limit, offset=offset, memory_type=type,
                               agent_id=reading_agent(request, agentId),
                               tags=[t.strip() for t in tags.split(",") if t.strip()] if tags else [],
                               pinned=_truthy(pinned), since=since, until=until)


@router.get("/api/memory/jobs/{job_id}", response_model=JobView, summary="Status of a pipeline job",
            responses=errors(404))
@declare("recall")
def job_route(request: Request, job_id: Annotated[int, Path(ge=1, le=SAFE_INTEGERS[1])], svc: Service,
              agentId: str | None = None) -> JobView:
    return reads.get_job(svc, job_id, agent_id=reading_agent(request, agentId))


@router.get("/api/memory/{memory_id}", summary="One memory by id", responses=errors(404))
@declare("recall")
def get_route(request: Request, memory_id: str, svc: Service, agentId: str | None = None,
              include_deleted: bool = False) -> dict[str, Any]:
    return reads.get_memory(svc, memory_id, agent_id=reading_agent(request, agentId), include_deleted=include_deleted)


@router.get("/api/memory/{memory_id}/history", summary="Audit history of a memory", responses=errors(404))
@declare("recall")
def history_route(request: Request, memory_id: str, svc: Service,
                  limit: Annotated[int, Query(ge=1, le=1_000_000)] = 200, agentId: str | None = None) -> dict[str, Any]:
    limit = min(limit, MAX_HISTORY)  # spec: "cap: 1000"
    return reads.memory_history(svc, memory_id, limit=limit, agent_id=reading_agent(request, agentId))


@router.get("/memory/search", summary="Legacy keyword search", responses=errors(408))
@declare("recall")
def legacy_search_route(
    request: Request, svc: Service,
    q: Annotated[str | None, Query(max_length=MAX_GET_QUERY_CHARS)] = None,
    distinct: str | None = None,
    limit: Annotated[int | None, Query(ge=1, le=1000)] = None,
    type: str | None = None, tags: str | None = None, who: str | None = None, pinned: str | None = None,
    importance_min: Annotated[float | None, Query(ge=0, le=1)] = None,
    since: Timestamp = None, agentId: str | None = None,
) -> dict[str, Any]:
    # Reuse the recall request's validation for the shared filter fields.
    parsed = RecallRequest.model_validate({"query": q or "", "tags": tags, "since": since})
    flt = MemoryFilter(agent_id=reading_agent(request, agentId), types=[type] if type else [], tags=parsed.tags or [],
                       who=who, pinned=_truthy(pinned), importance_min=importance_min, since=parsed.since,
                       decay_rate=svc.settings.memory.decay_rate, now=now_iso())
    if distinct == "who":
        return {"values": reads.distinct_who(svc, flt.agent_id)}
    return {"results": reads.legacy_search(svc, q, flt, limit)}


@router.get("/memory/similar", summary="Memories most similar to a stored one", responses=errors(404))
@declare("recall")
def similar_route(request: Request, svc: Service, id: Annotated[str, Query(min_length=1, max_length=100)],
                  k: Annotated[int, Query(ge=1, le=200)] = 10,
                  type: str | None = None, agentId: str | None = None) -> dict[str, Any]:
    return {"results": reads.similar(svc, id, k=k, memory_type=type, agent_id=reading_agent(request, agentId))}
