"""Skill invocations harnesses report (the reference's /api/hooks/skill-invocation; OpenCode and
Pi post one after each skill use and read nothing back). Each is recorded once per tool call as
its agent's event: harness, skill, session, outcome, latency, a short error text. Not the skill's
arguments (they may quote the user) nor the working directory. The table keeps its newest
MAX_ROWS rows. While mutations are frozen (or for a readonly token) nothing is recorded and the
answer says so: `recorded: false`."""

from __future__ import annotations

from typing import Annotated

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from signet_pipeline.errors import Forbidden, InvalidRequest
from signet_pipeline.request_rules import Integer, Timestamp, required_in_schema
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions.hooks import HARNESS, _HookRequest
from signet_pipeline.sessions.prompt_hooks import NON_BLANK
from signet_pipeline.store import checkpoints as checkpoint_store
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.timeutil import now_iso

MAX_ROWS = 50_000
ERROR_CHARS = 500


class SkillInvocationRequest(_HookRequest):
    # skillName is required too: else 400 missing_skill_name.
    model_config = ConfigDict(json_schema_extra=required_in_schema(harness=HARNESS, skillName=NON_BLANK))

    skill_name: str | None = Field(None, max_length=200, validation_alias=AliasChoices("skillName", "skill_name"))
    # OpenCode names its session sessionId.
    session_id: str | None = Field(None, max_length=500, validation_alias=AliasChoices("sessionId", "session_id"))
    tool_use_id: str | None = Field(None, max_length=500, validation_alias=AliasChoices("toolUseId", "tool_use_id"))
    latency_ms: Annotated[int, Integer(ge=0)] | None = Field(
        None, validation_alias=AliasChoices("latencyMs", "latency_ms"))
    success: bool = True
    error_text: str | None = Field(None, validation_alias=AliasChoices("errorText", "error_text"),
                                   description=f"first {ERROR_CHARS} characters kept")
    origin: str | None = Field(None, max_length=50)
    created_at: Timestamp = Field(None, validation_alias=AliasChoices("createdAt", "created_at"))

    @field_validator("error_text")
    @classmethod
    def _cut(cls, value: str | None) -> str | None:
        return (value[:ERROR_CHARS] or None) if value is not None else None


class SkillInvocationResult(BaseModel):
    recorded: bool  # the invocation is in the store (false: frozen, or a caller that may not write)
    duplicate: bool = False  # this tool call had been reported before


def record(svc: MemoryService, req: SkillInvocationRequest, *, record: bool = True) -> SkillInvocationResult:
    harness = req.require_harness()
    skill = (req.skill_name or "").strip()
    if not skill:
        raise InvalidRequest("skillName is required", code="missing_skill_name")
    if not record:
        return SkillInvocationResult(recorded=False)
    session_key = req.session_key or req.session_id
    with svc.db.write() as conn:
        owner = sessions_store.agent_of(conn, session_key) if session_key else None
        if owner is not None and owner != req.agent_id:
            raise Forbidden(f"session {session_key!r} belongs to another agent", code="session_not_owned")
        added = checkpoint_store.record_skill_invocation(conn, {
            "agent_id": req.agent_id, "harness": harness, "skill_name": skill, "session_key": session_key,
            "tool_use_id": req.tool_use_id, "origin": req.origin, "success": int(req.success),
            "latency_ms": req.latency_ms, "error_text": req.error_text, "created_at": req.created_at or now_iso()},
            keep=MAX_ROWS)
    return SkillInvocationResult(recorded=True, duplicate=not added)
