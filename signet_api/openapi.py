"""The OpenAPI schema says what the API does (tests/api/test_openapi_fuzz.py runs schemathesis with
every check against it). FastAPI's schema is completed here, in one place:

- every error response has the body the error handlers send (signet_api/errors.py): `{"error":
  {"code", "message"}}`, on /api/hooks/* `{"error": message, "code"}`; no FastAPI `{"detail"}`;
- the statuses any route may answer are added to each: 401 and 403 (tokens, roles, the local-name
  and cross-site guards), 414 (a request target over its bound), 400 and 413 where a body is read
  (refused as sent; over the body limit), 429 where the route declares a rate limit
  (signet_api/route_props.py); the hooks answer a body that fails validation with 400, not 422;
- each route declares the others it answers with `errors(404, 409, ...)`;
- the Bearer token is optional: local mode ignores it, hybrid mode needs none from loopback (team
  mode serves no schema)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema

from signet_api import route_props
from signet_api.errors import HOOKS_PREFIX
from signet_api.middleware import MAX_TARGET_BYTES

DESCRIPTIONS = {
    400: "Refused: the request cannot be acted on as sent (`code` says why); on /api/hooks/* also a body that "
         "does not validate",
    401: "No valid Bearer token (auth.mode team, or hybrid off loopback; never in local mode)",
    403: "Not allowed: the token's role or scope, a Host that is not a local name (auth.allowedHosts), "
         "a cross-site request, or a route for local callers only",
    404: "Not found, or not visible to the caller",
    408: "The query ran past limits.queryTimeMs and was stopped",
    409: "Refused by the current state (`code`: version_conflict, deleted, pinned_requires_force, ...)",
    413: "Body over limits.maxBodyBytes (limits.maxUploadBytes where transcripts and documents are sent), "
         "counted in bytes as sent",
    414: f"Request target (path and query string) over {MAX_TARGET_BYTES:,} bytes: send long queries in a POST body",
    415: "The body is not application/json",
    422: "The request fails validation: `message` names each field and why",
    429: "Too many calls (Retry-After says when to try again)",
    503: "Writes are stopped (memory.pipelineV2.mutationsFrozen)",
}
HOOK_VALIDATION = "The body fails validation, or `harness` is missing: `error` says why"
RETRY_AFTER = {"Retry-After": {"description": "seconds until a call is allowed again", "schema": {"type": "integer"}}}


class ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="allow")  # some errors add fields: id, status, currentVersion, ...

    code: str = Field(description="stable, for programs")
    message: str = Field(description="for people")


class ErrorBody(BaseModel):
    """Every error outside /api/hooks/*."""

    error: ErrorDetail


class HookErrorBody(BaseModel):
    """An error of /api/hooks/* (harness clients print `error` as text)."""

    model_config = ConfigDict(extra="allow")

    error: str = Field(description="the message")
    code: str = Field(description="stable, for programs")


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """A route's `responses` for the error statuses it answers besides those every route may."""
    return {status: {"description": DESCRIPTIONS[status]} for status in statuses}


def install(app: FastAPI) -> None:
    generate = app.openapi  # FastAPI's: builds the schema once (again when routes change)
    completed: list[dict[str, Any]] = []

    def openapi() -> dict[str, Any]:
        schema = generate()
        if not completed or completed[0] is not schema:
            rated = {(method, path) for route, path in route_props.routes(app)
                     if isinstance(route, APIRoute) and route_props.of(route).rate for method in route.methods or ()}
            complete(schema, rated)
            completed[:] = [schema]
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def complete(schema: dict[str, Any], rated: set[tuple[str, str | None]]) -> None:
    """FastAPI's schema, completed in place (see the module doc); `rated`: the (method, path) pairs
    that count against a rate limit."""
    components = schema.setdefault("components", {})
    models = components.setdefault("schemas", {})
    _, defs = models_json_schema([(ErrorBody, "serialization"), (HookErrorBody, "serialization")],
                                 ref_template="#/components/schemas/{model}")
    models.update(defs["$defs"])
    for path, item in schema.get("paths", {}).items():
        for method, operation in item.items():
            _complete_operation(path, method.upper(), operation, rated=(method.upper(), path) in rated)
    for unused in ("HTTPValidationError", "ValidationError"):  # FastAPI's 422 body, which no route sends
        models.pop(unused, None)
    components["securitySchemes"] = {"bearer": {
        "type": "http", "scheme": "bearer",
        "description": "a token from `signet token create` or POST /api/auth/token; needed in team mode, "
                       "and in hybrid mode from other machines"}}
    schema["security"] = [{}, {"bearer": []}]


def _complete_operation(path: str, method: str, operation: dict[str, Any], *, rated: bool) -> None:
    hooks = path.startswith(HOOKS_PREFIX)
    responses = operation.setdefault("responses", {})
    added = {401, 403, 414}
    if "requestBody" in operation:
        added |= {400, 413}
    if rated:
        added.add(429)
    if hooks and responses.pop("422", None) is not None:
        responses["400"] = {"description": HOOK_VALIDATION}
    for status in sorted(added):
        responses.setdefault(str(status), {"description": DESCRIPTIONS[status]})
    body = {"$ref": "#/components/schemas/" + ("HookErrorBody" if hooks else "ErrorBody")}
    for status, response in responses.items():
        if int(status) < 400:
            continue
        if "HTTPValidationError" in str(response.get("content")):  # FastAPI's 422: a `{"detail"}` never sent
            response.update(description=DESCRIPTIONS[422], content=None)
        if not response.get("content"):
            response["content"] = {"application/json": {"schema": body}}
        if status == "429":
            response.setdefault("headers", RETRY_AFTER)
