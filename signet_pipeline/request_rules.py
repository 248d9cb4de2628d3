"""What the request models check, said in their JSON schema too (the OpenAPI schema clients
generate code from, and tests/api/test_openapi_fuzz.py holds to): JSON's own types (a boolean is
true or false, a number is not a string), timestamps, text that may not be blank, and the rules
between fields (one of these, at least one of those, this one when that one is so).

Two rules no JSON schema can state are said in the field descriptions only: validUntil after
validFrom, time.end after time.start."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any

from annotated_types import GroupedMetadata
from pydantic import BeforeValidator, ConfigDict, Field, WithJsonSchema

from signet_pipeline.timeutil import normalize_iso

# Request bodies take JSON as JSON Schema reads it: no 0 for false, no "5" for 5, no true for 1.
STRICT = ConfigDict(strict=True)
# The integers a field takes unless it says less: what every JSON client holds exactly (JavaScript's
# safe integers, also exact as the float the OpenAPI schema writes them in), well inside SQLite's 64 bits.
SAFE_INTEGERS = (-(2 ** 53 - 1), 2 ** 53 - 1)
NOT_GIVEN = {"type": "null"}  # a property's schema for "absent or null" (`properties` apply only when present)

# A character str.strip() keeps: text matching it is not blank (spelled out rather than \S, whose
# meaning differs between Python and the ECMA regexes of JSON Schema validators).
NOT_BLANK = "[^\t-\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"

# An http(s) URL with a host (IPv6 literals aside: their brackets only the URL parser checks).
HTTP_URL = r"^[Hh][Tt][Tt][Pp][Ss]?://[^/?#\[\]\t-\r ]+([/?#][^\t-\r]*)?$"
# What a pattern means, for the error message (pydantic's quotes the regex).
PATTERN_MEANINGS = {NOT_BLANK: "must not be blank", HTTP_URL: "must be an http(s) URL with a host"}

# ISO 8601 as clients send it: a date, or a date and a time (seconds, fraction and offset optional).
ISO_PATTERN = (r"^([1-9][0-9]{3}-[0-9]{2}-[0-9]{2}"
               r"([Tt ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]{1,9})?)?([Zz]|[+-][0-9]{2}(:?[0-9]{2})?)?)?)?$")
_ISO = re.compile(ISO_PATTERN)
ISO_DESCRIPTION = "ISO 8601 date or date-time (a time without an offset is UTC), years 1000-9999; empty: not given"
# The formats steer generated examples to real dates; the pattern is what the service checks.
ISO_SCHEMA = {"type": "string", "pattern": ISO_PATTERN,
              "anyOf": [{"format": "date-time"}, {"format": "date"}, {"maxLength": 0}]}


def iso_or_none(value: Any) -> str | None:
    """A timestamp as stored (UTC, milliseconds, Z), or None for null and ""."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not _ISO.fullmatch(value):
        raise ValueError(f"{value!r} is not an ISO 8601 date or date-time (YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH:MM])")
    try:
        return normalize_iso(value)
    except ValueError as exc:
        raise ValueError(f"{value!r} is not a valid timestamp: {exc}") from None


Timestamp = Annotated[str | None, BeforeValidator(iso_or_none),
                      WithJsonSchema({"anyOf": [ISO_SCHEMA, NOT_GIVEN], "description": ISO_DESCRIPTION})]


def _whole(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


@dataclass(frozen=True)
class Integer(GroupedMetadata):
    """An integer as JSON Schema has it: 7 or 7.0, never 7.5, "7" or true (with STRICT), within
    SAFE_INTEGERS unless the bounds say less (one past 64 bits failed in SQLite as a 500). Metadata
    for `Annotated[int, Integer(ge=1, le=200)]`, a type a type checker reads as int. The bounds
    (ge, le) go inside: outside, pydantic writes them into the schema as `ge`, not `minimum`."""

    ge: int = SAFE_INTEGERS[0]
    le: int = SAFE_INTEGERS[1]

    def __iter__(self) -> Iterator[object]:
        yield Field(ge=self.ge, le=self.le)
        yield BeforeValidator(_whole)



def given(schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """A property that is there and not null (and matches `schema`)."""
    return {"not": NOT_GIVEN, **(schema or {})}


def has(name: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """The object has property `name`, not null (and matching `schema`)."""
    return {"required": [name], "properties": {name: given(schema)}}


def any_given(**fields: dict[str, Any]) -> dict[str, Any]:
    """At least one of these properties is given, matching its schema."""
    return {"anyOf": [has(name, schema) for name, schema in fields.items()]}


def required_when(field: str, value: Any, **fields: dict[str, Any]) -> dict[str, Any]:
    """When `field` is `value`, these properties are given too."""
    return {"if": {"required": [field], "properties": {field: {"const": value}}},
            "then": {"required": list(fields), "properties": {name: given(schema) for name, schema in fields.items()}}}


def rules(*parts: dict[str, Any]) -> dict[str, Any]:
    """Several rules for one model's `json_schema_extra`."""
    return {"allOf": list(parts)}


def required_in_schema(**fields: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    """A model's `json_schema_extra`: these optional fields are required and not null in its schema,
    with these keywords added. For fields the service checks itself, with its own error code."""

    def extra(schema: dict[str, Any]) -> None:
        properties = schema.setdefault("properties", {})
        for name, keywords in fields.items():
            prop = properties.get(name, {})
            options = [o for o in prop.get("anyOf", [prop]) if o != NOT_GIVEN]
            rest = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
            properties[name] = {**rest, **(options[0] if len(options) == 1 else {"anyOf": options}), **keywords}
        schema["required"] = [*schema.get("required", []), *(n for n in fields if n not in schema.get("required", []))]

    return extra


def lone_surrogate(value: Any) -> tuple[tuple[str | int, ...], str] | None:
    """(where, what) of the first string in the JSON that is no text: a lone UTF-16 surrogate is
    valid JSON, but no UTF-8 store or reply can hold it. Walks without recursion. (Integers are
    bounded where a field takes one: `integer`.)"""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while stack:
        where, node = stack.pop()
        if isinstance(node, str):
            if not node.isascii() and _has_surrogate(node):
                return where, "a lone UTF-16 surrogate (\\ud800-\\udfff) is not text"
        elif isinstance(node, dict):
            for key, item in node.items():
                if not key.isascii() and _has_surrogate(key):
                    return where, "a key with a lone UTF-16 surrogate is not text"
                stack.append(((*where, key), item))
        elif isinstance(node, list):
            stack.extend(((*where, i), item) for i, item in enumerate(node))
    return None


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
