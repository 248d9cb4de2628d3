"""Harness hook endpoints (wire-contract.md): session-start and user-prompt-submit inject context,
pre-compaction / compaction-complete keep a session's summary, session-end settles the session,
session-checkpoint-extract summarizes a long-lived session's new turns, skill-invocation records a
skill use, and remember / recall serve harnesses directly. `x-signet-no-hooks: 1` turns every hook into a
no-op (the reference's guard against agents that hooks spawn calling hooks in turn)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import JSONResponse

from signet_api.auth import AuthorizedRoute
from signet_api.deps import actor, project_scope, reading_agent, recall_options, records, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.models import RecallResult, RememberResult
from signet_pipeline.recall.search import recall_memories
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import checkpoint_extract, hooks, prompt_hooks, registry, skill_invocations
from signet_pipeline.sessions.checkpoint_extract import CheckpointExtractRequest, CheckpointExtractResult
from signet_pipeline.sessions.hooks import (
    SessionEndRequest,
    SessionEndResult,
    SessionStartRequest,
    SessionStartResult,
    require_harness,
)
from signet_pipeline.sessions.prompt_hooks import (
    CompactionCompleteRequest,
    CompactionCompleteResult,
    HookRecallRequest,
    HookRememberRequest,
    PreCompactionRequest,
    PreCompactionResult,
    PromptSubmitRequest,
    PromptSubmitResult,
)
from signet_pipeline.sessions.skill_invocations import SkillInvocationRequest, SkillInvocationResult
from signet_pipeline.write.remember import Actor, remember

# What each hook answers under `x-signet-no-hooks: 1` (the reference's no-ops: an agent a hook
# spawned must neither read nor write through hooks).
NO_OP: dict[str, dict] = {
    "/api/hooks/session-start": {"inject": "", "memories": []},
    "/api/hooks/session-end": {"memoriesSaved": 0},
    "/api/hooks/user-prompt-submit": {"inject": "", "memories": [], "memoryCount": 0},
    "/api/hooks/session-checkpoint-extract": {"skipped": True},
    "/api/hooks/skill-invocation": {"recorded": False},
    "/api/hooks/pre-compaction": {"summaryPrompt": "", "guidelines": ""},
    "/api/hooks/compaction-complete": {"success": True},
    "/api/hooks/remember": {"success": True, "memories": []},
    "/api/hooks/recall": {"results": [], "query": "", "method": "none",
                          "meta": {"totalReturned": 0, "hasSupplementary": False, "noHits": True}},
}


class HooksOff(Exception):
    """Raised before the body is validated, so a no-op never depends on what the body holds."""

    def __init__(self, answer: dict):
        super().__init__("x-signet-no-hooks")
        self.answer = answer


def _no_hooks(request: Request) -> None:
    if request.headers.get("x-signet-no-hooks", "").strip() == "1":
        raise HooksOff(NO_OP[request.url.path])


def install(app: FastAPI) -> None:
    @app.exception_handler(HooksOff)
    async def _answer(request: Request, exc: HooksOff) -> JSONResponse:
        return JSONResponse(exc.answer)

    app.include_router(router)


router = APIRouter(tags=["hooks"], route_class=AuthorizedRoute, dependencies=[Depends(_no_hooks)])
Service = Annotated[MemoryService, Depends(service)]


def _identify(request: Request, body: hooks._HookRequest) -> None:
    """Agent (a token's scope first) and session from the headers clients send, when the body
    does not name them."""
    headers = request.headers
    body.agent_id = reading_agent(request, body.agent_id if "agent_id" in body.model_fields_set else None)
    if not body.session_key and headers.get("x-signet-session-key"):
        body.session_key = headers["x-signet-session-key"]


def _unless_bypassed(request: Request, body: hooks._HookRequest, svc: MemoryService) -> None:
    """A session set to bypass (POST /api/sessions/{key}/bypass) gets the no-op answer, as with x-signet-no-hooks."""
    if registry.bypassed(svc, body.session_key, body.agent_id):
        raise HooksOff(NO_OP[request.url.path])


@router.post("/api/hooks/session-start", response_model=SessionStartResult, response_model_exclude_none=True,
             summary="Context to inject into a new session (pinned and constraints first, then recall)")
@declare("remember")
def session_start_route(request: Request, body: SessionStartRequest, svc: Service) -> SessionStartResult:
    _identify(request, body)
    _unless_bypassed(request, body, svc)
    return hooks.session_start(svc, body, record=records(request))


@router.post("/api/hooks/session-end", response_model=SessionEndResult, response_model_exclude_none=True,
             summary="End a session: keep its transcript, queue its summary into memories, aspect feedback",
             responses=errors(409, 503))
@declare("remember", upload=True)
def session_end_route(request: Request, body: SessionEndRequest, svc: Service) -> SessionEndResult:
    _identify(request, body)
    body.project = project_scope(request) or body.project
    return hooks.session_end(svc, body, read_files=request.state.identity.trusted)


@router.post("/api/hooks/user-prompt-submit", response_model=PromptSubmitResult, response_model_exclude_none=True,
             summary="Context for one prompt: what recall finds that the session does not hold yet")
@declare("recall")
def user_prompt_submit_route(request: Request, body: PromptSubmitRequest, svc: Service) -> PromptSubmitResult:
    _identify(request, body)
    _unless_bypassed(request, body, svc)
    return prompt_hooks.user_prompt_submit(svc, body, record=records(request))


@router.post("/api/hooks/session-checkpoint-extract", response_model=CheckpointExtractResult,
             response_model_exclude_none=True, responses=errors(409, 503),
             summary="Mid-session: keep the transcript sent and queue a summary of its turns not yet summarized")
@declare("remember")
def checkpoint_extract_route(request: Request, body: CheckpointExtractRequest,
                             svc: Service) -> CheckpointExtractResult:
    _identify(request, body)
    body.project = project_scope(request) or body.project
    return checkpoint_extract.checkpoint_extract(svc, body, read_files=request.state.identity.trusted)


@router.post("/api/hooks/skill-invocation", response_model=SkillInvocationResult,
             summary="Record a skill the harness ran (once per tool call; nothing while writes are frozen)")
@declare("remember")
def skill_invocation_route(request: Request, body: SkillInvocationRequest, svc: Service) -> SkillInvocationResult:
    _identify(request, body)
    return skill_invocations.record(svc, body, record=records(request))


@router.post("/api/hooks/pre-compaction", response_model=PreCompactionResult,
             summary="Instructions for the summary a harness writes before compacting its context")
@declare("remember", upload=True)
def pre_compaction_route(request: Request, body: PreCompactionRequest, svc: Service) -> PreCompactionResult:
    _identify(request, body)
    return prompt_hooks.pre_compaction(svc, body, record=records(request))


@router.post("/api/hooks/compaction-complete", response_model=CompactionCompleteResult,
             response_model_exclude_none=True, summary="Keep a compaction summary as a memory", responses=errors(503))
@declare("remember", upload=True)
def compaction_complete_route(request: Request, body: CompactionCompleteRequest, svc: Service,
                              who: Annotated[Actor, Depends(actor)]) -> CompactionCompleteResult:
    _identify(request, body)
    body.project = project_scope(request) or body.project  # a project-scoped token files into its project
    return prompt_hooks.compaction_complete(svc, body, who)


@router.post("/api/hooks/remember", response_model=RememberResult, summary="Remember, from a harness",
             responses=errors(503))
@declare("remember", upload=True, waits=False)
def hook_remember_route(request: Request, body: HookRememberRequest, svc: Service,
                        who: Annotated[Actor, Depends(actor)]) -> RememberResult:
    require_harness(body.harness)
    body.agent_id = reading_agent(request, body.agent_id if "agent_id" in body.model_fields_set else None)
    body.project = project_scope(request) or body.project
    return remember(svc, body, who, behind=True)


@router.post("/api/hooks/recall", response_model=RecallResult, summary="Recall, from a harness", responses=errors(408))
@declare("recall", waits=False)
def hook_recall_route(request: Request, body: HookRecallRequest, svc: Service) -> RecallResult:
    require_harness(body.harness)
    body.agent_id = reading_agent(request, body.agent_id if "agent_id" in body.model_fields_set else None)
    if not body.session_key and request.headers.get("x-signet-session-key"):
        body.session_key = request.headers["x-signet-session-key"]
    return recall_memories(svc, body, recall_options(request))
