"""One pure ASGI middleware that feeds analytics: every HTTP request's endpoint (route template),
actor, status and latency, and mutation rejections (409 conflict, 403 scope denial) into the
service-wide error ring. Pure ASGI rather than BaseHTTPMiddleware: no extra task or response
copy per request; on the success path it costs two clock reads, a header scan and one locked
counter update (bench/analytics_bench.py measures it on recall)."""

from __future__ import annotations

import json
import time

import anyio.to_thread
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from signet_api.deps import DEFAULT_ACTOR
from signet_pipeline import analytics
from signet_pipeline.analytics import Analytics, Category, ErrorCode

UNMATCHED = "(unmatched)"  # requests no route matched share one key: raw paths would grow without bound
MUTATION_ERRORS: dict[int, ErrorCode] = {409: "MUTATION_CONFLICT", 403: "MUTATION_SCOPE_DENIED"}
MAX_ERROR_BODY = 8192
# Counters are keyed by method too, and any token is a valid HTTP method: unknown ones share a key.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


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
