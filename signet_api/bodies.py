"""A JSON request body as every API route reads it, after auth (signet_api/auth.py): parsed on a
worker thread when it is large (a 1 MB body parsed on the event loop stalls every other request,
/health included), and refused with a 422 when a string in it is no text (a lone UTF-16
surrogate: valid JSON that pydantic accepts, which failed deep in a route as a 500 when SQLite or the
reply had to encode it). Integers past 64 bits are refused by the fields' bounds (request_rules.integer)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from starlette.concurrency import run_in_threadpool

from signet_pipeline.request_rules import lone_surrogate

PARSE_INLINE_BYTES = 64 * 1024  # smaller bodies parse in well under a millisecond


def is_json(content_type: str | None) -> bool:
    """As FastAPI decides whether to parse a body as JSON (no content type: it does)."""
    if not content_type:
        return True
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def loads(raw: bytes) -> Any:
    """The body's JSON, checked; RequestValidationError as FastAPI's own for what it cannot take."""
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RequestValidationError([{"type": "json_invalid", "loc": ("body", exc.pos), "msg": "JSON decode error",
                                       "input": {}, "ctx": {"error": exc.msg}}]) from exc
    except (ValueError, RecursionError) as exc:  # not UTF-8; nesting deeper than the parser goes
        raise RequestValidationError([{"type": "json_invalid", "loc": ("body",), "msg": "JSON decode error",
                                       "input": {}, "ctx": {"error": str(exc)[:200]}}]) from exc
    problem = lone_surrogate(value)
    if problem is not None:
        where, what = problem
        raise RequestValidationError([{"type": "value_error", "loc": ("body", *where), "msg": what, "input": None}])
    return value


async def prepare(request: Request) -> None:
    """Parse the route's JSON body now (on a thread when large) so the route reads it parsed."""
    if not is_json(request.headers.get("content-type")):
        return
    raw = await request.body()
    if not raw:
        return
    value = await run_in_threadpool(loads, raw) if len(raw) > PARSE_INLINE_BYTES else loads(raw)
    request._json = value  # Starlette's cache: request.json() (FastAPI's body read) returns it
