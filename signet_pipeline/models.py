"""Typed requests and results of the memory domain. The API uses them as its bodies, so
validation (and its error messages) is the same whether a call comes over HTTP or from a stage."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, computed_field, field_validator, model_validator

from signet_pipeline import limits
from signet_pipeline.limits import MemoryText, Metadata, TranscriptText
from signet_pipeline.request_rules import NOT_BLANK, STRICT, Integer, Timestamp

MAX_PROJECT_CHARS = 500
MAX_FIELD_CHARS = 4096  # every other free-text field: paths, keys, timestamps
TYPE_PATTERN = r"^[a-z][a-z0-9_-]{0,39}$"
Visibility = Literal["global", "private"]
RecallLimit = Annotated[int, Integer(ge=1, le=200)]


def _alias(*names: str) -> Any:
    return Field(None, max_length=MAX_FIELD_CHARS, validation_alias=AliasChoices(*names))


class _Request(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, str_strip_whitespace=False, **STRICT)


def _stamp(*names: str) -> Any:
    """An ISO 8601 timestamp field (request_rules.Timestamp) under these names."""
    return Field(None, validation_alias=AliasChoices(*names))


def _tags_value(value: Any) -> list[str] | None:
    from signet_pipeline.text.content import parse_tags

    if value is None:
        return None
    if isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        return parse_tags(limits.check_tags(value)) or None  # "" or [] means "not given" (prefix tags still apply)
    raise ValueError("tags must be a comma-separated string or a list of strings")


# Tags: a list or a comma-separated string, at most limits.maxTags of at most limits.maxTagChars each.
TAGS: Any = Field(None, json_schema_extra=limits.tags_schema)


class StructuredTriple(_Request):
    """An entity relation the caller asserts: source -relationship-> target."""

    source: str = Field(..., min_length=1, max_length=200)
    source_type: str | None = Field(None, max_length=50, validation_alias=AliasChoices("sourceType", "source_type"))
    relationship: str = Field(..., min_length=1, max_length=200)
    target: str = Field(..., min_length=1, max_length=200)
    target_type: str | None = Field(None, max_length=50, validation_alias=AliasChoices("targetType", "target_type"))
    confidence: float = Field(0.8, ge=0.0, le=1.0)


class StructuredAttribute(_Request):
    group_key: str | None = Field(None, max_length=200, validation_alias=AliasChoices("groupKey", "group_key"))
    claim_key: str | None = Field(None, max_length=200, validation_alias=AliasChoices("claimKey", "claim_key"))
    content: str = Field(..., min_length=1, max_length=2000)
    confidence: float = Field(0.8, ge=0.0, le=1.0)
    importance: float = Field(0.5, ge=0.0, le=1.0)


class StructuredAspect(_Request):
    entity_name: str = Field(..., min_length=1, max_length=200, pattern=NOT_BLANK,
                             validation_alias=AliasChoices("entityName", "entity_name"))
    entity_type: str | None = Field(None, max_length=50, validation_alias=AliasChoices("entityType", "entity_type"))
    aspect: str = Field(..., min_length=1, max_length=100, pattern=NOT_BLANK)
    attributes: list[StructuredAttribute] = Field(default_factory=list, max_length=50)

    @field_validator("entity_name", "aspect")
    @classmethod
    def _named(cls, value: str) -> str:
        return " ".join(value.split())


class Structured(_Request):
    """Knowledge the caller authors with the memory (memory-api "structured"): the memory then
    skips LLM extraction."""

    entities: list[StructuredTriple] = Field(default_factory=list, max_length=50)
    aspects: list[StructuredAspect] = Field(default_factory=list, max_length=20)
    hints: list[str] = Field(default_factory=list, max_length=20)


class RememberRequest(_Request):
    content: MemoryText
    type: str | None = Field(None, pattern=TYPE_PATTERN)
    importance: float | None = Field(None, ge=0.0, le=1.0)
    tags: list[str] | None = TAGS
    who: str | None = Field(None, max_length=200)
    project: str | None = Field(None, max_length=MAX_PROJECT_CHARS)
    pinned: bool | None = None
    source_type: str | None = Field(None, max_length=100, validation_alias=AliasChoices("sourceType", "source_type"))
    source_id: str | None = Field(None, max_length=500, validation_alias=AliasChoices("sourceId", "source_id"))
    source_path: str | None = _alias("sourcePath", "source_path")
    runtime_path: str | None = _alias("runtimePath", "runtime_path")
    idempotency_key: str | None = Field(None, max_length=500,
                                        validation_alias=AliasChoices("idempotencyKey", "idempotency_key"))
    session_id: str | None = _alias("sessionId", "session_id", "sessionKey")
    created_at: Timestamp = _stamp("createdAt", "created_at")
    occurred_at: Timestamp = _stamp("occurredAt", "occurred_at")
    observed_at: Timestamp = _stamp("observedAt", "observed_at")
    source_created_at: Timestamp = _stamp("sourceCreatedAt", "source_created_at")
    valid_from: Timestamp = _stamp("validFrom", "valid_from")
    valid_until: Timestamp = Field(None, validation_alias=AliasChoices("validUntil", "valid_until"),
                                   description="after validFrom when both are given")
    agent_id: str = Field("default", min_length=1, max_length=200, validation_alias=AliasChoices("agentId", "agent_id"))
    visibility: Visibility = "global"
    metadata: Metadata | None = None
    # The conversation behind the memory (spec: kept in session_transcripts under sourceId).
    transcript: TranscriptText | None = None
    structured: Structured | None = None

    _tags = field_validator("tags", mode="before")(_tags_value)

    @model_validator(mode="after")
    def _provenance(self) -> RememberRequest:
        if self.valid_from and self.valid_until and self.valid_until <= self.valid_from:
            raise ValueError("validUntil must be after validFrom")
        # Importers may pass snake_case provenance inside `metadata` (spec, remember).
        meta = self.metadata or {}
        for key in ("source_path", "runtime_path", "idempotency_key"):
            if getattr(self, key) is None and isinstance(meta.get(key), str):
                setattr(self, key, meta[key])
        return self


TemporalFacet = Literal["session", "source", "captured", "observed", "occurred", "valid"]


class TimeRange(BaseModel):
    """The request's `time` object."""

    model_config = ConfigDict(extra="ignore", **STRICT)

    start: Timestamp = None
    end: Timestamp = Field(None, description="after start when both are given")
    facets: list[TemporalFacet] | None = Field(None, min_length=1)
    mode: Literal["auto", "timeline", "filter"] = "auto"

    @model_validator(mode="after")
    def _ordered(self) -> TimeRange:
        if self.start and self.end and self.end <= self.start:
            raise ValueError("time.end must be after time.start")
        return self


class RecallRequest(_Request):
    query: str = Field(..., max_length=10_000)
    keyword_query: str | None = Field(None, max_length=10_000,
                                      validation_alias=AliasChoices("keywordQuery", "keyword_query"))
    limit: RecallLimit | None = None
    type: str | None = None
    tags: list[str] | None = TAGS
    who: str | None = Field(None, max_length=200)
    pinned: bool | None = None
    importance_min: float | None = Field(None, ge=0.0, le=1.0,
                                         validation_alias=AliasChoices("importance_min", "importanceMin"))
    since: Timestamp = None
    until: Timestamp = None
    project: str | None = Field(None, max_length=MAX_PROJECT_CHARS)
    agent_id: str = Field("default", min_length=1, max_length=200, validation_alias=AliasChoices("agentId", "agent_id"))
    session_key: str | None = _alias("sessionKey", "session_key")
    include_recalled: bool = Field(False, validation_alias=AliasChoices("includeRecalled", "include_recalled"))
    expand: bool = Field(False, description="attach the transcript of the session a result came from")
    min_score: float | None = Field(None, ge=0.0, le=1.0, validation_alias=AliasChoices("min_score", "minScore"))
    alpha: float | None = Field(None, ge=0.0, le=1.0)
    time: TimeRange | None = Field(None, description="temporal recall: a window, the facets that place a memory "
                                                     "in it, and the mode (auto | timeline | filter)")
    aggregate: bool = Field(False, description="aggregate recall: one synthesized answer (needs an inference "
                                               "router, which this service does not run: answered as stopped)")
    aggregate_budget: Literal["small", "medium", "large"] = Field(
        "small", validation_alias=AliasChoices("aggregateBudget", "aggregate_budget"))

    _tags = field_validator("tags", mode="before")(_tags_value)

    @field_validator("type", mode="before")
    @classmethod
    def _type_list(cls, value: Any) -> Any:
        return None if value == "" else value

    @property
    def types(self) -> list[str]:
        return [t.strip() for t in self.type.split(",") if t.strip()] if self.type else []


class RememberResult(BaseModel):
    id: str
    memoryId: str
    type: str
    tags: str
    pinned: bool
    importance: float
    content: str
    embedded: bool
    deduped: bool
    jobId: int | None = None
    structured: dict[str, int] | None = None  # what a structured payload wrote (entities, attributes, ...)


class RecallHit(BaseModel):
    id: str
    content: str
    score: float
    source: str
    type: str
    tags: str
    pinned: bool
    importance: float
    who: str | None
    project: str | None
    created_at: str
    agent_id: str
    visibility: str
    source_id: str | None
    source_type: str | None
    source_memory_id: str | None = None  # raw memory a pipeline-derived fact was extracted from
    subject_type: str = "memory"
    subject_id: str
    supplementary: bool = False
    already_recalled: bool = False
    temporal_facet: str | None = None  # temporal recall: what placed the memory in the window
    temporal_start_at: str | None = None
    temporal_end_at: str | None = None
    transcript: str | None = None  # with `expand`: the session's transcript (first 4,000 characters)

    # The SDK's result fields: recall answers a memory's whole content, never a cut of it.
    @computed_field
    def content_length(self) -> int:
        return len(self.content)

    @computed_field
    def truncated(self) -> bool:
        return False


class RecallResult(BaseModel):
    results: list[RecallHit]
    query: str
    method: Literal["hybrid", "keyword", "vector", "timeline"]
    meta: dict[str, Any]
    message: str | None = None  # for people and harness output: set when nothing matched
    aggregate: dict[str, Any] | None = None  # aggregate recall's outcome


# What extraction yields (the pipeline's stages) and a structured remember authors.

class ExtractedFact(BaseModel):
    content: str
    type: str
    confidence: float = Field(ge=0.0, le=1.0)


class ExtractedEntity(BaseModel):
    source: str
    relationship: str
    target: str
    confidence: float = Field(ge=0.0, le=1.0)
    source_type: str | None = None  # known types (a structured remember names them); else 'extracted'
    target_type: str | None = None
