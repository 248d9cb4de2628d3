"""Hooks inside a session (wire-contract.md): user-prompt-submit injects what recall finds for the
prompt (the session's context ledger keeps out what it was given already) and counts it for the
session's checkpoints, pre-compaction checkpoints the session and hands the harness the
instructions for its summary, and compaction-complete keeps that summary as a memory."""

from __future__ import annotations

from typing import Annotated

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from signet_pipeline.errors import InvalidRequest
from signet_pipeline.limits import ContentText
from signet_pipeline.models import MAX_PROJECT_CHARS, RecallRequest, RememberRequest
from signet_pipeline.recall.search import RecallOptions
from signet_pipeline.recall.session_context import Ledger, start_new_epoch
from signet_pipeline.request_rules import NOT_BLANK, Integer, required_in_schema
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import checkpoints
from signet_pipeline.sessions.hooks import (
    HARNESS,
    SUMMARY_TYPE,
    InjectedMemory,
    _alias,
    _HookRequest,
    compose,
    context_recall,
)
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import Actor, remember

MIN_PROMPT_WORDS = 2  # "ok", "yes": nothing worth searching for
QUERY_TERMS_CHARS = 80
NON_BLANK = {"minLength": 1, "pattern": NOT_BLANK}
Count = Annotated[int, Integer(ge=0)]
SUMMARY_PROMPT = """Summarize this session for your long-term memory before the context is compacted.
Keep what will matter in later sessions: decisions and their reasons, the user's stated preferences,
facts about people, projects and systems, commands or procedures that worked, and open tasks.
Write short, self-contained statements (name the subject; no "it" or "this"). Leave out chit-chat,
intermediate attempts that were abandoned, and anything already obvious from the code.
The session had {messages} messages."""


class HookRememberRequest(RememberRequest):
    """/api/hooks/remember: remember, from a harness."""

    model_config = ConfigDict(json_schema_extra=required_in_schema(harness=HARNESS))

    harness: str | None = Field(None, max_length=200)


class HookRecallRequest(RecallRequest):
    """/api/hooks/recall: recall, from a harness."""

    model_config = ConfigDict(json_schema_extra=required_in_schema(harness=HARNESS))

    harness: str | None = Field(None, max_length=200)


class PromptSubmitRequest(_HookRequest):
    project: str | None = Field(None, max_length=MAX_PROJECT_CHARS)
    user_message: str | None = Field(None, max_length=100_000,
                                     validation_alias=AliasChoices("userMessage", "user_message"))
    user_prompt: str | None = Field(None, max_length=100_000,
                                    validation_alias=AliasChoices("userPrompt", "user_prompt"))
    last_assistant_message: str | None = _alias("lastAssistantMessage", "last_assistant_message")
    transcript_path: str | None = _alias("transcriptPath", "transcript_path")
    transcript: str | None = None

    @property
    def prompt(self) -> str:
        return (self.user_message or self.user_prompt or "").strip()


class PromptSubmitResult(BaseModel):
    inject: str
    memories: list[InjectedMemory]
    memoryCount: int  # the memories injected (what the reference's clients print)
    # The session is one this service knows from a session-start (sessions are kept across
    # restarts); Pi and Hermes run session-start again when it is false.
    sessionKnown: bool
    engine: str  # how the prompt was searched: hybrid, keyword, or none (too short to search)
    queryTerms: str | None = None  # what was searched: the prompt's first QUERY_TERMS_CHARS characters


class PreCompactionRequest(_HookRequest):
    message_count: Count | None = Field(None, validation_alias=AliasChoices("messageCount", "message_count"))
    session_context: str | None = _alias("sessionContext", "session_context")
    transcript_path: str | None = _alias("transcriptPath", "transcript_path")


class PreCompactionResult(BaseModel):
    summaryPrompt: str
    guidelines: str


class CompactionCompleteRequest(_HookRequest):
    # The summary is kept as a memory: required and not blank (else 400 missing_summary).
    model_config = ConfigDict(json_schema_extra=required_in_schema(harness=HARNESS, summary=NON_BLANK))

    summary: ContentText | None = None
    project: str | None = Field(None, max_length=MAX_PROJECT_CHARS)


class CompactionCompleteResult(BaseModel):
    success: bool
    memoryId: str | None = None


def user_prompt_submit(svc: MemoryService, req: PromptSubmitRequest, *,
                       record: bool = True) -> PromptSubmitResult:
    """`record` off (a readonly token, mutations frozen): the context is answered, nothing is kept
    (no prompt count, no ledger, no access counts)."""
    harness = req.require_harness()
    prompt, hooks = req.prompt, svc.settings.hooks
    if req.session_key and prompt and record:
        checkpoints.note_prompt(svc, session_key=req.session_key, agent_id=req.agent_id, harness=harness,
                                project=req.project, prompt=prompt)
    known = bool(req.session_key and sessions_store.agent_of(svc.db.reader(), req.session_key) == req.agent_id)
    if len(prompt.split()) < MIN_PROMPT_WORDS:
        return PromptSubmitResult(inject="", memories=[], memoryCount=0, sessionKnown=known, engine="none")
    # With the session key, recall leaves out what the session was given already (its ledger).
    found = context_recall(svc, RecallRequest(query=prompt[:10_000], limit=hooks.prompt_limit, agent_id=req.agent_id,
                                              min_score=hooks.prompt_min_score, session_key=req.session_key),
                           RecallOptions(record_session=False, track_access=record))
    fresh = [InjectedMemory(id=h.id, content=h.content, source="recall") for h in found]
    inject, injected = compose(fresh, hooks.prompt_budget_chars)
    if req.session_key and injected and record:  # only what fit the budget was given to the session
        Ledger.load(svc, req.session_key, req.agent_id).record(svc, [m.id for m in injected])
        with svc.db.write() as conn:
            sessions_store.record_prompt_injected(conn, session_key=req.session_key, agent_id=req.agent_id,
                                                  memory_ids=[m.id for m in injected], now=now_iso())
    return PromptSubmitResult(inject=inject, memories=injected, memoryCount=len(injected), sessionKnown=known,
                              engine="hybrid" if svc.embedder.enabled else "keyword",
                              queryTerms=prompt[:QUERY_TERMS_CHARS])


def pre_compaction(svc: MemoryService, req: PreCompactionRequest, *, record: bool = True) -> PreCompactionResult:
    harness = req.require_harness()
    if req.session_key and record:  # the context is about to be cut: keep where the session stands
        checkpoints.checkpoint(svc, session_key=req.session_key, agent_id=req.agent_id, trigger="pre_compaction",
                               harness=harness, context=req.session_context)
    text = SUMMARY_PROMPT.format(
        messages=req.message_count if req.message_count is not None else "an unknown number of")
    return PreCompactionResult(summaryPrompt=text, guidelines=text)


def compaction_complete(svc: MemoryService, req: CompactionCompleteRequest, actor: Actor) -> CompactionCompleteResult:
    harness = req.require_harness()
    if not (req.summary or "").strip():
        raise InvalidRequest("summary is required", code="missing_summary")
    saved = remember(svc, RememberRequest(content=req.summary, type=SUMMARY_TYPE, who=harness, project=req.project,
                                          agentId=req.agent_id, sourceType="compaction", sourceId=req.session_key,
                                          sessionId=req.session_key), actor)
    if req.session_key:  # the harness's context was replaced by the summary: recall may repeat itself again
        start_new_epoch(svc, req.session_key, req.agent_id)
    return CompactionCompleteResult(success=True, memoryId=saved.id)
