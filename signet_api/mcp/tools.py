"""The MCP tool table, defined once for both transports: each tool's name, the description an
agent reads, its arguments (a pydantic model; the input schema is generated from it) and the REST
call it makes. Bounds mirror the REST models, which validate again behind the call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

from signet_pipeline.limits import ContentText, TranscriptText
from signet_pipeline.models import TYPE_PATTERN, Structured
from signet_pipeline.sessions.feedback_models import FeedbackRequest

MAX_QUERY_CHARS = 10_000
MAX_ID_CHARS = 100


def _both(name: str, other: str, default: Any = None, **kw: Any) -> Any:
    """A field shown as `name` in the schema that also accepts `other`, sent to the API as `name`."""
    return Field(default, validation_alias=AliasChoices(name, other), serialization_alias=name, **kw)


class _Args(BaseModel):
    # A misspelt argument fails loudly (-32602) rather than being dropped without a word.
    model_config = ConfigDict(extra="forbid")


Tags = list[str] | str
MemoryId = Field(..., min_length=1, max_length=MAX_ID_CHARS, description="the memory's id")
Reason = Field(..., min_length=1, max_length=1000, description="why (kept in the memory's history)")
IfVersion = Field(None, ge=1, description="the version you last read (memory_get): the change is refused if the "
                                         "memory changed since")


class SearchArgs(_Args):
    query: str = Field(..., min_length=1, max_length=MAX_QUERY_CHARS, description="what to look for, in natural language")
    keyword_query: str | None = _both("keywordQuery", "keyword_query", max_length=MAX_QUERY_CHARS,
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


class StoreArgs(_Args):
    content: ContentText = Field(..., min_length=1,
                                 description="one self-contained statement, understandable without this conversation")
    type: str | None = Field(None, pattern=TYPE_PATTERN,
                             description="fact, preference, decision, rule, lesson, ... (inferred when omitted)")
    importance: float | None = Field(None, ge=0, le=1, description="0-1 (default 0.5)")
    tags: Tags | None = Field(None, description="tags, as a list or comma-separated")
    pinned: bool | None = Field(None, description="always keep it at full importance (no decay)")
    project: str | None = Field(None, max_length=500, description="the project it belongs to")
    who: str | None = Field(None, max_length=200, description="who said or decided it")
    created_at: str | None = _both("createdAt", "created_at", max_length=64,
                                   description="when it originally happened, ISO 8601 (for imported memories)")
    source_id: str | None = _both("sourceId", "source_id", max_length=500,
                                  description="where it came from, e.g. the session key (transcript is kept under it)")
    transcript: TranscriptText | None = Field(None, description="the conversation it came from, kept losslessly under source_id")
    structured: Structured | None = Field(None, description="knowledge you extracted yourself: entities (relations), "
                                                            "aspects with attributes (groupKey, claimKey), hints; "
                                                            "the memory then skips the pipeline's extraction")


class GetArgs(_Args):
    id: str = MemoryId


class ListArgs(_Args):
    limit: int = Field(20, ge=1, le=1000, description="page size")
    offset: int = Field(0, ge=0, le=10_000_000, description="memories to skip")
    type: str | None = Field(None, max_length=40, description="only this memory type")


class ModifyArgs(_Args):
    id: str = MemoryId
    reason: str = Reason
    content: ContentText | None = Field(None, min_length=1, description="new content")
    type: str | None = Field(None, pattern=TYPE_PATTERN, description="new type")
    importance: float | None = Field(None, ge=0, le=1, description="new importance, 0-1")
    tags: Tags | None = Field(None, description="new tags (replace the old ones; [] clears them)")
    pinned: bool | None = Field(None, description="pin or unpin")
    if_version: int | None = IfVersion

    @model_validator(mode="after")
    def _changes_something(self) -> "ModifyArgs":
        if all(getattr(self, f) is None for f in ("content", "type", "importance", "tags", "pinned")):
            raise ValueError("give at least one of content, type, importance, tags, pinned")
        return self


class ForgetArgs(_Args):
    id: str = MemoryId
    reason: str = Reason
    force: bool = Field(False, description="required to forget a pinned memory")
    if_version: int | None = IfVersion


class FeedbackArgs(FeedbackRequest):
    """The REST request itself, strict about unknown arguments like the other tools."""

    model_config = ConfigDict(extra="forbid")


class EntitiesArgs(_Args):
    query: str | None = Field(None, max_length=200, serialization_alias="q", description="substring of the name")
    type: str | None = Field(None, max_length=50, description="only this entity type (person, project, tool, ...)")
    limit: int = Field(50, ge=1, le=500, description="page size")
    offset: int = Field(0, ge=0, le=10_000_000, description="entities to skip")


class NoArgs(_Args):
    pass


@dataclass(frozen=True)
class ApiRequest:
    """One REST call: what a tool call turns into."""

    method: str
    path: str
    params: dict[str, Any] | None = None
    json: dict[str, Any] | None = None


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    args: type[BaseModel]
    method: str
    path: str  # `{name}` segments are filled from the argument of that name
    read_only: bool

    def input_schema(self) -> dict[str, Any]:
        schema = _clean(self.args.model_json_schema(by_alias=True))
        schema.pop("description", None)  # the model's docstring is for us; the tool's description is for the agent
        return schema

    def describe(self) -> dict[str, Any]:
        """The tools/list entry."""
        return {"name": self.name, "title": self.title, "description": self.description,
                "inputSchema": self.input_schema(),
                "annotations": {"readOnlyHint": self.read_only, "destructiveHint": self.method == "DELETE",
                                "openWorldHint": False}}

    def request(self, args: BaseModel) -> ApiRequest:
        values = args.model_dump(by_alias=True, exclude_none=True)
        path = self.path
        for name in [n for n in values if "{" + n + "}" in path]:
            path = path.replace("{" + name + "}", quote(str(values.pop(name)), safe=""))
        if self.method in ("GET", "DELETE"):
            return ApiRequest(self.method, path, params=values or None)
        return ApiRequest(self.method, path, json=values)


def _clean(schema: Any) -> Any:
    """Pydantic's schema, made plainer for the agent reading it: optional fields are the type
    itself (not anyOf with null, not default null), and no generated titles."""
    if isinstance(schema, list):
        return [_clean(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _clean(v) for k, v in schema.items() if k != "title" and not (k == "default" and v is None)}
    if "properties" in schema:  # property names, not schema keywords: keep a field called "title"
        out["properties"] = {name: _clean(prop) for name, prop in schema["properties"].items()}
    options = [o for o in out.get("anyOf", []) if o != {"type": "null"}]
    if "anyOf" in out and len(options) == 1:
        del out["anyOf"]
        out = {**options[0], **out}
    elif "anyOf" in out:
        out["anyOf"] = options
    return out


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
    Tool("knowledge_entities", "List knowledge entities",
         "List the entities (people, projects, tools, ...) of the knowledge graph built from memories: pinned "
         "first, then the most mentioned. Filter by a name substring or a type.",
         EntitiesArgs, "GET", "/api/knowledge/entities", read_only=True),
    Tool("knowledge_constellation", "Knowledge graph overview",
         "The whole knowledge graph at once: each entity with its aspects and their attributes (facts and "
         "constraints), and the dependencies between entities.",
         NoArgs, "GET", "/api/knowledge/constellation", read_only=True),
)}
