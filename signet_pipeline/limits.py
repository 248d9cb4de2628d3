"""The field limits in force in this process (settings.limits), as annotated types for the request
models: each validates against the limit of the day and writes that limit into the JSON schema,
so what the OpenAPI schema promises a client is what the service enforces.

MemoryService applies its settings' limits when it opens (one service per process: the API's,
a Dagster run's); the defaults hold until then. The schema is built on its first request, after.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from signet_pipeline.config import LimitsConfig
from signet_pipeline.request_rules import NOT_BLANK

_active = LimitsConfig()


def apply(limits: LimitsConfig) -> None:
    global _active
    _active = limits


def active() -> LimitsConfig:
    return _active


def _setting(attr: str) -> str:
    head, *rest = attr.split("_")
    return "limits." + head + "".join(word.title() for word in rest)


def _chars(attr: str, **constraints: Any) -> Any:
    """`constraints` (min_length, pattern) go before the check: after it pydantic enforces them
    but leaves them out of the schema of an optional field."""

    def check(value: str) -> str:
        limit = getattr(_active, attr)
        if len(value) > limit:
            raise ValueError(f"at most {limit:,} characters ({_setting(attr)}), got {len(value):,}")
        return value

    def schema(json_schema: dict[str, Any]) -> None:
        json_schema["maxLength"] = getattr(_active, attr)

    return Annotated[str, Field(**constraints), AfterValidator(check), Field(json_schema_extra=schema)]


def check_tags(value: str | list[str]) -> str | list[str]:
    """Tags as sent, a list or one comma-separated string, before they are trimmed and deduplicated
    (as the schema counts them): how many, and how long each."""
    tags = value.split(",") if isinstance(value, str) else value
    if len(tags) > _active.max_tags:
        raise ValueError(f"at most {_active.max_tags} tags (limits.maxTags), got {len(tags):,}")
    long = next((t for t in tags if len(t) > _active.max_tag_chars), None)
    if long is not None:
        raise ValueError(f"a tag is at most {_active.max_tag_chars} characters (limits.maxTagChars): {long[:40]!r}...")
    return value


def tags_schema(json_schema: dict[str, Any]) -> None:
    """A list of tags, or the same as one comma-separated string (request models parse both)."""
    json_schema["maxItems"] = _active.max_tags
    for branch in json_schema.get("anyOf", [json_schema]):
        if branch.get("type") == "array":
            branch["maxItems"] = _active.max_tags
            branch.setdefault("items", {})["maxLength"] = _active.max_tag_chars
    tag = f"[^,]{{0,{_active.max_tag_chars}}}"
    listed = {"type": "string", "pattern": f"^{tag}(,{tag}){{0,{_active.max_tags - 1}}}$"}
    json_schema["anyOf"] = [*json_schema.get("anyOf", [json_schema.copy()]), listed]


def check_metadata(value: dict[str, Any] | None) -> dict[str, Any] | None:
    if value is not None:
        size = len(json.dumps(value, ensure_ascii=False, default=str).encode())
        if size > _active.max_metadata_bytes:
            raise ValueError(f"metadata is at most {_active.max_metadata_bytes:,} bytes as JSON "
                             f"(limits.maxMetadataBytes), got {size:,}")
    return value


ContentText = _chars("max_content_chars")
MemoryText = _chars("max_content_chars", min_length=1, pattern=NOT_BLANK)  # a memory's content: not blank
TranscriptText = _chars("max_transcript_chars")
Metadata = Annotated[dict[str, Any], AfterValidator(check_metadata),
                     Field(description="free-form JSON object, at most limits.maxMetadataBytes as JSON")]
