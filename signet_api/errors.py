"""The one place that maps errors to HTTP: `{"error": {"code", "message"}}` with a stable code.

The harness hooks (/api/hooks/*) answer in the shape their clients print (wire-contract: they read
`error` as text): `{"error": message, "code": code}`, and a body that fails validation is a 400
there, as in the reference."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from signet_api.auth import allowed_methods
from signet_pipeline.errors import SignetError
from signet_pipeline.request_rules import PATTERN_MEANINGS

log = logging.getLogger("signet.api")

_HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 413: "payload_too_large", 414: "uri_too_long", 415: "unsupported_media_type"}


HOOKS_PREFIX = "/api/hooks/"


def error_body(code: str, message: str, **extra) -> dict:
    return {"error": {"code": code, "message": message, **extra}}


def payload(path: str, code: str, message: str, extra: dict | None = None) -> dict:
    """The error body for a request to `path`. `extra`: the error's details (a dict, not keywords:
    details may hold a `status` field)."""
    if path.startswith(HOOKS_PREFIX):
        return {"error": message, "code": code, **(extra or {})}
    return error_body(code, message, **(extra or {}))


def _response(request: Request, code: str, message: str, status: int, headers: Mapping[str, str] | None = None,
              extra: dict | None = None) -> JSONResponse:
    return JSONResponse(payload(request.url.path, code, message, extra), status_code=status, headers=headers)


def _location(loc: tuple) -> str:
    parts = [str(p) for p in loc if p not in ("body",)]
    return ".".join(parts) or "body"


def describe_validation(exc: RequestValidationError | ValidationError) -> str:
    messages = []
    for err in exc.errors():
        if err.get("type") == "json_invalid":
            messages.append(f"request body is not valid JSON: {err.get('ctx', {}).get('error', err['msg'])}")
        else:
            pattern = err.get("ctx", {}).get("pattern") if err.get("type") == "string_pattern_mismatch" else None
            meaning = PATTERN_MEANINGS.get(pattern, err["msg"]) if isinstance(pattern, str) else err["msg"]
            messages.append(f"{_location(tuple(err.get('loc', ())))}: {meaning}")
    return "; ".join(messages)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(SignetError)
    async def _domain(request: Request, exc: SignetError) -> JSONResponse:
        if exc.status >= 500:
            log.error("%s %s failed: %s", request.method, request.url.path, exc.message)
        retry = exc.details.get("retryAfterS")
        headers = {"Retry-After": str(retry)} if exc.status == 429 and retry is not None else None
        return _response(request, exc.code, exc.message, exc.status, headers, exc.details)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        status = 400 if request.url.path.startswith(HOOKS_PREFIX) else 422
        return _response(request, "invalid_request", describe_validation(exc), status)

    @app.exception_handler(ValidationError)
    async def _invalid_model(request: Request, exc: ValidationError) -> JSONResponse:
        # Query parameters validated through a domain model inside a route.
        status = 400 if request.url.path.startswith(HOOKS_PREFIX) else 422
        return _response(request, "invalid_request", describe_validation(exc), status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        headers = exc.headers
        if exc.status_code == 405:  # Starlette's Allow names the methods of the path's first route only
            headers = {**(headers or {}), "Allow": allowed_methods(request.scope)}
        return _response(request, code, str(exc.detail), exc.status_code, headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return _response(request, "internal_error", "internal server error", 500)
