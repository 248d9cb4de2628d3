"""The MCP tool table, defined once for both transports (tool.py says what a tool is): the memory
tools here, the knowledge graph and session history tools in knowledge_tools.py. Bounds mirror
the REST models, which validate again behind the call."""

from __future__ import annotations

from pydantic import ConfigDict, Field, model_validator

from signet_api.mcp.knowledge_tools import KNOWLEDGE_TOOLS
from signet_api.mcp.tool import MAX_ID_CHARS, MAX_QUERY_CHARS, Args, Tool, both
from signet_pipeline.limits import ContentText
from signet_pipeline.models import TYPE_PATTERN, Structured
from signet_pipeline.sessions.feedback_models import FeedbackRequest

Tags = list[str] | str
MAX_TRANSCRIPT_CHARS = 400_000  # a JSON-RPC request is bounded by limits.maxBodyBytes (1 MiB by default)
MemoryId = Field(..., min_length=1, max_length=MAX_ID_CHARS, description="the memory's id")
Reason = Field(..., min_length=1, max_length=1000, description="why (kept in the memory's history)")
IfVersion = Field(None, ge=1, description="the version you last read (memory_get): the change is refused if the "
                                         "memory changed since")


class SearchArgs(Args):
    query: str = Field(..., min_length=1, max_length=MAX_QUERY_CHARS,
                       description="what to look for, in natural language")
    keyword_query: str | None = both("keywordQuery", "keyword_query", max_length=MAX_QUERY_CHARS,
                                     description="override the keyword (full-text) part of the search")
    limit: int = Field(10, ge=1, le=200, description="max results")
    type: str | None = Field(None, max_length=400, description="only these memory types (comma-separated)")
    tags: Tags | None = Field(None, description="only memories with these tags")
    who: str | None = Field(None, max_length=200, description="only memories by this author")
    project: str | None = Field(None, max_length=500, description="only memories of this project")
    pinned: bool | None = Field(None, description="only pinned (true) or unpinned (false) memories")
    importance_min: float | None = Field(None, ge=0, le=1, description="minimum importance")
    since: str | None = Field(None, max_length=64, description="created at or after this ISO 8601 time")
    until: str | None = Field(None, max_length=64, description="created at or before this ISO 8601 time")
    expand: bool | None = Field(None, description="attach the transcript of the session each result came from")


class StoreArgs(Args):
    content: ContentText = Field(..., min_length=1,
                                 description="one self-contained statement, understandable without this conversation")
    type: str | None = Field(None, pattern=TYPE_PATTERN,
                             description="fact, preference, decision, rule, lesson, ... (inferred when omitted)")
    importance: float | None = Field(None, ge=0, le=1, description="0-1 (default 0.5)")
    tags: Tags | None = Field(None, description="tags, as a list or comma-separated")
    pinned: bool | None = Field(None, description="always keep it at full importance (no decay)")
    project: str | None = Field(None, max_length=500, description="the project it belongs to")
    who: str | None = Field(None, max_length=200, description="who said or decided it")
    created_at: str | None = both("createdAt", "created_at", max_length=64,
                                  description="when it originally happened, ISO 8601 (for imported memories)")
    source_id: str | None = both("sourceId", "source_id", max_length=500,
                                 description="where it came from, e.g. the session key (transcript is kept under it)")
    transcript: str | None = Field(None, max_length=MAX_TRANSCRIPT_CHARS,
                                   description="the conversation it came from, kept under source_id (a longer one: "
                                               "the session-end hook)")
    structured: Structured | None = Field(None, description="knowledge you extracted yourself: entities (relations), "
                                                            "aspects with attributes (groupKey, claimKey), hints; "
                                                            "the memory then skips the pipeline's extraction")


class GetArgs(Args):
    id: str = MemoryId


class ListArgs(Args):
    limit: int = Field(20, ge=1, le=1000, description="page size")
    offset: int = Field(0, ge=0, le=10_000_000, description="memories to skip")
    type: str | None = Field(None, max_length=40, description="only this memory type")


class ModifyArgs(Args):
    id: str = MemoryId
    reason: str = Reason
    content: ContentText | None = Field(None, min_length=1, description="new content")
    type: str | None = Field(None, pattern=TYPE_PATTERN, description="new type")
    importance: float | None = Field(None, ge=0, le=1, description="new importance, 0-1")
    tags: Tags | None = Field(None, description="new tags (replace the old ones; [] clears them)")
    pinned: bool | None = Field(None, description="pin or unpin")
    if_version: int | None = IfVersion

    @model_validator(mode="after")
    def _changes_something(self) -> ModifyArgs:
        if all(getattr(self, f) is None for f in ("content", "type", "importance", "tags", "pinned")):
            raise ValueError("give at least one of content, type, importance, tags, pinned")
        return self


class ForgetArgs(Args):
    id: str = MemoryId
    reason: str = Reason
    force: bool = Field(False, description="required to forget a pinned memory")
    if_version: int | None = IfVersion


class FeedbackArgs(FeedbackRequest):
    """The REST request itself, strict about unknown arguments like the other tools. Its two shapes
    are checked when the tool is called (FeedbackRequest's validator), not written as the REST
    schema's top-level oneOf / if-then, which model APIs refuse for a tool."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=None)


TOOLS: dict[str, Tool] = {t.name: t for t in (
    Tool("memory_search", "Search memories",
         "Search long-term memory (hybrid keyword + semantic). Use it before answering questions about earlier "
         "work, decisions, preferences or facts. Returns the best matches with id, content, score, type, tags "
         "and created_at.",
         SearchArgs, "POST", "/api/memory/recall", read_only=True),
    Tool("memory_store", "Store a memory",
         "Save something worth knowing in later sessions: a fact, decision, preference or lesson. Write one "
         "self-contained statement; an identical memory is not stored twice. Returns the memory's id.",
         StoreArgs, "POST", "/api/memory/remember", read_only=False),
    Tool("memory_get", "Get a memory",
         "Fetch one memory by id with all its fields, including `version` (for memory_modify's if_version).",
         GetArgs, "GET", "/api/memory/{id}", read_only=True),
    Tool("memory_list", "List memories",
         "List memories, newest first, with store statistics. To find something specific, use memory_search.",
         ListArgs, "GET", "/api/memories", read_only=True),
    Tool("memory_modify", "Modify a memory",
         "Change a memory's content, type, tags, importance or pinned state. A reason is required and kept in "
         "its history. Pass if_version from memory_get to avoid overwriting someone else's change.",
         ModifyArgs, "PATCH", "/api/memory/{id}", read_only=False),
    Tool("memory_forget", "Forget a memory",
         "Delete a memory that is wrong or obsolete (recoverable for 30 days). A reason is required; a pinned "
         "memory also needs force=true.",
         ForgetArgs, "DELETE", "/api/memory/{id}", read_only=False),
    Tool("memory_feedback", "Rate a memory",
         "Tell Signet how a memory you were given turned out: positive (it helped), negative (wrong or "
         "irrelevant) or correction (wrong: put what is right in correction_text); or rate several at once with "
         "ratings {memory id: -1..1}. It is recorded for memory quality and does not change the memory; use "
         "memory_modify for that.",
         FeedbackArgs, "POST", "/api/memory/feedback", read_only=False),
    *KNOWLEDGE_TOOLS,
)}
