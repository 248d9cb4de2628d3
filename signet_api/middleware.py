"""Pure ASGI middleware: the request limits, and analytics.

RequestLimitMiddleware refuses a request target (path and query string) over MAX_TARGET_BYTES with
414, and a body over its limit with 413: at once when Content-Length says so
(before routing, auth or parsing: an unauthenticated 15 MB body costs nothing), else as soon as the
streamed bytes pass the limit (the read fails inside the route and the error handler answers).
Routes that declare `upload` (transcripts, documents, MEMORY.md: 200,000 characters, up to 2.4 MB
as JSON) get limits.maxUploadBytes, every other one limits.maxBodyBytes (route_props.py).

AnalyticsMiddleware feeds analytics: every HTTP request's endpoint (route template),
actor, status and latency, and mutation rejections (409 conflict, 403 scope denial) into the
service-wide error ring. Pure ASGI rather than BaseHTTPMiddleware: no extra task or response
copy per request; on the success path it costs two clock reads, a header scan and one locked
counter update (bench/analytics_bench.py measures it on recall)."""

from __future__ import annotations

import json
import time

import anyio.to_thread
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from signet_api import route_props
from signet_api.deps import DEFAULT_ACTOR
from signet_api.errors import payload
from signet_pipeline import analytics
from signet_pipeline.analytics import Analytics, Category, ErrorCode
from signet_pipeline.config import LimitsConfig

# uvicorn's HTTP parser fails a request target over 65,535 bytes with a bare text 400: the API's own
# bound sits well under it, so a long query string is refused in JSON, with a code, before routing.
MAX_TARGET_BYTES = 32 * 1024
UNMATCHED = "(unmatched)"  # requests no route matched share one key: raw paths would grow without bound
MUTATION_ERRORS: dict[int, ErrorCode] = {409: "MUTATION_CONFLICT", 403: "MUTATION_SCOPE_DENIED"}
MAX_ERROR_BODY = 8192
# Counters are keyed by method too, and any token is a valid HTTP method: unknown ones share a key.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

class BodyTooLarge(HTTPException):
    """Raised from `receive` when the streamed body passes its limit; the error handler answers 413."""

    def __init__(self, limit: int, setting: str) -> None:
        super().__init__(413, f"request body over {limit} bytes (limits.{setting})")


class RequestLimitMiddleware:
    def __init__(self, app: ASGIApp, limits: LimitsConfig) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        target = len(scope.get("raw_path") or scope["path"].encode()) + len(scope["query_string"])
        if target > MAX_TARGET_BYTES:
            await _refuse(send, 414, payload(scope["path"], "uri_too_long",
                                             f"request target of {target} bytes is over {MAX_TARGET_BYTES}: "
                                             "send long queries in a POST body (POST /api/memory/recall)"))
            return
        upload = route_props.upload_path(scope["app"], scope["path"])
        limit = self.limits.max_upload_bytes if upload else self.limits.max_body_bytes
        setting = "maxUploadBytes" if upload else "maxBodyBytes"
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await _refuse(send, 413, payload(scope["path"], "payload_too_large",
                                             f"request body of {declared} bytes is over {limit} (limits.{setting})"))
            return
        received = 0

        async def bounded() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit, setting)
            return message

        await self.app(scope, bounded, send)


async def _refuse(send: Send, status: int, error: dict) -> None:
    """An error answered before the app runs; the connection closes (an unread body may follow)."""
    body = json.dumps(error).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body)),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class AnalyticsMiddleware:
    def __init__(self, app: ASGIApp, analytics: Analytics) -> None:
        self.app = app
        self.analytics = analytics
        self._endpoints: dict[tuple[str, str], tuple[str, Category]] = {}

    def _endpoint(self, method: str, template: str) -> tuple[str, Category]:
        """("METHOD /template", category), computed once per route and method."""
        found = self._endpoints.get((method, template))
        if found is None:
            found = self._endpoints[(method, template)] = (f"{method} {template}",
                                                           analytics.classify(method, template))
        return found

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # if the app raises before answering, the server's error handler sends a 500
        body: list[bytes] | None = None  # kept only for a 403/409 (read for a mutation error event)

        async def watch(message: Message) -> None:
            nonlocal status, body
            kind = message["type"]
            if kind == "http.response.start":
                status = message["status"]
                if status in MUTATION_ERRORS:
                    body = []
            elif body is not None and kind == "http.response.body":
                body.append(message.get("body", b"")[:MAX_ERROR_BODY])
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            ms = (time.perf_counter() - started) * 1000
            method = scope["method"] if scope["method"] in METHODS else "OTHER"
            route = scope.get("route")
            template = getattr(route, "path", None) or UNMATCHED
            endpoint, category = self._endpoint(method, template)
            actor = _header(scope, b"x-signet-actor") or DEFAULT_ACTOR
            self.analytics.record_request(endpoint, category, actor, status, ms)
        if body is not None and category == "mutate":
            await self._mutation_error(scope, status, b"".join(body), actor)

    async def _mutation_error(self, scope: Scope, status: int, body: bytes, actor: str) -> None:
        """After the response went out: the error handler's {"error": {"code", "message"}} as an
        event in the store's ring (written on a worker thread, off the event loop)."""
        try:
            error = json.loads(body).get("error") or {}
            message = f"{error.get('code', status)}: {error.get('message', '')}"
        except (ValueError, AttributeError):
            message = f"HTTP {status}"
        params = scope.get("path_params") or {}
        event = analytics.error_event(MUTATION_ERRORS[status], message,
                                      memory_id=params.get("memory_id") or params.get("id"), actor=actor)
        # Off the event loop; record_errors logs its own failures (the response is already sent).
        await anyio.to_thread.run_sync(analytics.record_errors, scope["app"].state.service.db, [event])


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None
