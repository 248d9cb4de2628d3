"""Request and result models of the memory mutations (memory-api.txt: PATCH / DELETE / recover /
modify / forget). Field names follow the reference clients (`if_version`, `changed_by`,
`confirm_token`); camelCase spellings are accepted too."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator, model_validator

from signet_pipeline.limits import MemoryText
from signet_pipeline.models import TAGS, TYPE_PATTERN, _tags_value
from signet_pipeline.request_rules import NOT_BLANK, STRICT, Integer, Timestamp, any_given, has, required_when, rules

MAX_BATCH = 200  # patches per modify, memories per forget
REASON = Field(..., min_length=1, max_length=1000, description="why (kept in history)")
Version = Annotated[int, Integer(ge=1)]
BatchLimit = Annotated[int, Integer(ge=1, le=MAX_BATCH)]
IF_VERSION = Field(None, validation_alias=AliasChoices("if_version", "ifVersion"),
                   description="optimistic concurrency: rejected with 409 unless this is the current version")


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, **STRICT)


# A patch changes something: a field given (tags even as null, which clears them).
_CHANGES: dict[str, Any] = {
    "anyOf": [has("content"), has("type"), has("importance"), has("pinned"), {"required": ["tags"]}]}


class MemoryPatch(_Body):
    """The fields a patch may change; at least one must be given. `tags: null` clears them."""

    model_config = ConfigDict(json_schema_extra=_CHANGES)

    content: MemoryText | None = None
    type: str | None = Field(None, pattern=TYPE_PATTERN)
    tags: list[str] | None = TAGS
    importance: float | None = Field(None, ge=0.0, le=1.0)
    pinned: bool | None = None
    if_version: Version | None = IF_VERSION

    _tags = field_validator("tags", mode="before")(lambda v: _tags_value(v) or [] if v is not None else None)

    @model_validator(mode="after")
    def _something(self) -> MemoryPatch:
        if not self.changes():
            raise ValueError("give at least one of content, type, tags, importance, pinned")
        return self

    def changes(self) -> dict[str, Any]:
        """The fields given: null means "not given", except for tags, where it clears them."""
        fields = {"content", "type", "tags", "importance", "pinned"} & self.model_fields_set
        return {k: getattr(self, k) for k in fields if getattr(self, k) is not None or k == "tags"}


class PatchRequest(MemoryPatch):
    reason: str = REASON
    changed_by: str | None = Field(None, max_length=200, validation_alias=AliasChoices("changed_by", "changedBy"))


class DeleteRequest(_Body):
    reason: str = REASON
    force: bool = False
    if_version: Version | None = IF_VERSION


class DeleteBody(_Body):
    """DELETE's optional JSON body: the reference clients put reason / force / if_version in the
    body or the query string, field by field (the route merges them, body first)."""

    reason: str | None = Field(None, min_length=1, max_length=1000)
    force: bool | None = None
    if_version: Version | None = IF_VERSION


class RecoverRequest(_Body):
    reason: str = REASON
    if_version: Version | None = IF_VERSION


class ModifyItem(_Body):
    """One patch of a batch, validated on its own (a bad one fails alone)."""

    id: str = Field(..., min_length=1, max_length=100)
    reason: str | None = Field(None, min_length=1, max_length=1000)


class ModifyRequest(_Body):
    reason: str | None = Field(None, min_length=1, max_length=1000, description="default for every patch")
    changed_by: str | None = Field(None, max_length=200, validation_alias=AliasChoices("changed_by", "changedBy"))
    patches: list[dict[str, Any]] = Field(..., min_length=1, max_length=MAX_BATCH)


# What selects the memories to forget: a given, non-empty one of these.
_TARGETS = any_given(ids={"minItems": 1}, query={}, type={}, who={"minLength": 1}, source_type={"minLength": 1},
                     since={"minLength": 1}, until={"minLength": 1},
                     tags={"anyOf": [{"type": "array", "contains": {"pattern": NOT_BLANK}},
                                     {"type": "string", "pattern": NOT_BLANK.replace("[^", "[^,")}]})


class ForgetRequest(_Body):
    model_config = ConfigDict(json_schema_extra=rules(_TARGETS, required_when("mode", "execute", reason={})))

    mode: Literal["preview", "execute"] = "preview"
    ids: list[str] | None = Field(None, max_length=MAX_BATCH)
    query: str | None = Field(None, min_length=1, max_length=2000)
    type: str | None = Field(None, pattern=TYPE_PATTERN)
    tags: list[str] | None = TAGS
    who: str | None = Field(None, max_length=200)
    source_type: str | None = Field(None, max_length=100, validation_alias=AliasChoices("source_type", "sourceType"))
    since: Timestamp = None
    until: Timestamp = None
    limit: BatchLimit = 20
    reason: str | None = Field(None, min_length=1, max_length=1000)
    force: bool = False
    confirm_token: str | None = Field(None, max_length=200,
                                      validation_alias=AliasChoices("confirm_token", "confirmToken"))

    _tags = field_validator("tags", mode="before")(lambda v: _tags_value(v))

    @model_validator(mode="after")
    def _targets(self) -> ForgetRequest:
        if not (self.ids or self.query or self.type or self.tags or self.who or self.source_type or self.since
                or self.until):
            raise ValueError("give ids, a query or a filter (type, tags, who, source_type, since, until)")
        if self.mode == "execute" and not self.reason:
            raise ValueError("reason is required to execute")
        return self


class MutationResult(BaseModel):
    """The outcome of one mutation; `status` is one of the spec's values."""

    id: str
    status: str
    currentVersion: int | None = None
    newVersion: int | None = None
    contentChanged: bool | None = None
    embedded: bool | None = None
    retentionDays: int | float | None = None
    error: str | None = None


class MutationAnswer(MutationResult):
    """PATCH and DELETE /api/memory/{id}: the result with `success` (true whenever the mutation
    applied; a refused one answers an error instead), which the OpenCode and OpenClaw memory tools
    read to report an edit as done."""

    success: bool = True
