"""Applying auth to requests: one app-wide dependency resolves who is calling (local mode: a
trusted local caller; team: the Bearer token's claims; hybrid: loopback callers trusted, others
need a token), checks the route's permission in ROUTES, and counts rate-limited operations.
The identity lands in `request.state.identity`; signet_api/deps.py reads actor and agent from it,
so with a token, who is acting comes from the token, never from the body or headers."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from weakref import WeakKeyDictionary

from fastapi import Request, Response
from fastapi.routing import APIRoute, iter_route_contexts
from starlette._utils import get_route_path
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Scope

from signet_api import bodies
from signet_pipeline.auth import origins
from signet_pipeline.auth.policy import SlidingWindow, allowed
from signet_pipeline.auth.tokens import Role, TokenClaims, load_or_create_secret, verify
from signet_pipeline.config import Settings
from signet_pipeline.errors import Forbidden, Unauthorized

# Permission per (method, route template): the spec's API table. A route missing here needs
# admin (tests/test_auth.py fails on any route left out).
ROUTES: dict[tuple[str, str], str] = {
    ("GET", "/health"): "none", ("GET", "/api/status"): "none", ("GET", "/api/features"): "none",
    ("GET", "/api/auth/whoami"): "none", ("POST", "/api/auth/token"): "admin",
    ("GET", "/api/config"): "operator",
    ("POST", "/api/memory/remember"): "remember", ("POST", "/api/memory/save"): "remember",
    ("POST", "/api/hook/remember"): "remember", ("POST", "/api/memory/codex-native-note"): "remember",
    ("POST", "/api/memory/recall"): "recall", ("GET", "/api/memory/search"): "recall",
    ("GET", "/api/memories"): "recall", ("GET", "/api/memory/jobs/{job_id}"): "recall",
    ("GET", "/api/memory/{memory_id}"): "recall", ("GET", "/api/memory/{memory_id}/history"): "recall",
    ("GET", "/memory/search"): "recall", ("GET", "/memory/similar"): "recall",
    ("PATCH", "/api/memory/{memory_id}"): "modify", ("POST", "/api/memory/modify"): "modify",
    ("DELETE", "/api/memory/{memory_id}"): "forget", ("POST", "/api/memory/forget"): "forget",
    ("POST", "/api/memory/{memory_id}/recover"): "recover",
    # Feedback writes a row about a memory: not for readonly tokens, which may only recall.
    ("POST", "/api/memory/feedback"): "modify",
    # MCP: any identity may call it (each tool call is authorized again as its REST route:
    # routes/mcp.py); an anonymous team-mode caller is refused before its body is read.
    ("POST", "/mcp"): "recall",
    ("GET", "/api/knowledge/entities"): "recall", ("GET", "/api/knowledge/constellation"): "recall",
    ("POST", "/api/knowledge/entities/{entity_id}/pin"): "modify",
    ("DELETE", "/api/knowledge/entities/{entity_id}/pin"): "modify",
    ("GET", "/api/knowledge/entities/{entity_id}"): "recall",
    ("GET", "/api/knowledge/navigation/entities"): "recall",
    ("GET", "/api/knowledge/navigation/entity"): "recall",
    ("GET", "/api/knowledge/navigation/tree"): "recall",
    ("GET", "/api/knowledge/navigation/aspects"): "recall",
    ("GET", "/api/knowledge/navigation/groups"): "recall",
    ("GET", "/api/knowledge/navigation/claims"): "recall",
    ("GET", "/api/knowledge/navigation/attributes"): "recall",
    ("POST", "/api/knowledge/expand"): "recall",
    ("POST", "/api/knowledge/expand/session"): "recall",
    ("POST", "/api/sessions/summaries/expand"): "recall",
    ("POST", "/api/hooks/session-start"): "remember", ("POST", "/api/hooks/session-end"): "remember",
    ("POST", "/api/hooks/user-prompt-submit"): "recall", ("POST", "/api/hooks/pre-compaction"): "remember",
    ("POST", "/api/hooks/compaction-complete"): "remember", ("POST", "/api/hooks/remember"): "remember",
    ("POST", "/api/hooks/recall"): "recall",
    ("POST", "/api/hooks/session-checkpoint-extract"): "remember",
    ("POST", "/api/hooks/skill-invocation"): "remember",
    ("GET", "/api/checkpoints"): "recall", ("GET", "/api/checkpoints/{session_key}"): "recall",
    ("GET", "/api/embeddings"): "recall", ("GET", "/api/embeddings/status"): "recall",
    ("GET", "/api/embeddings/health"): "recall", ("GET", "/api/embeddings/projection"): "recall",
    ("GET", "/api/diagnostics"): "diagnostics", ("GET", "/api/diagnostics/{domain}"): "diagnostics",
    ("GET", "/api/diagnostics/openclaw"): "diagnostics",
    # The OpenClaw adapter reports its health with the token its hooks use (it writes no store row).
    ("POST", "/api/diagnostics/openclaw/heartbeat"): "remember",
    ("GET", "/api/agents"): "recall", ("GET", "/api/agents/{name}"): "recall",
    ("POST", "/api/agents"): "operator", ("DELETE", "/api/agents/{name}"): "operator",
    ("GET", "/api/pipeline/status"): "diagnostics",
    ("GET", "/api/repair"): "operator", ("POST", "/api/repair/{action}"): "operator",
    ("GET", "/api/repair/dedup-stats"): "operator", ("GET", "/api/repair/embedding-gaps"): "operator",
    ("POST", "/api/repair/re-embed"): "operator",
    ("GET", "/api/analytics/usage"): "analytics", ("GET", "/api/analytics/errors"): "analytics",
    ("GET", "/api/analytics/latency"): "analytics", ("GET", "/api/analytics/continuity"): "analytics",
    ("GET", "/api/analytics/continuity/latest"): "analytics",
    ("POST", "/api/documents"): "documents", ("GET", "/api/documents"): "documents",
    ("GET", "/api/documents/{document_id}"): "documents", ("GET", "/api/documents/{document_id}/chunks"): "documents",
    ("DELETE", "/api/documents/{document_id}"): "documents",
    ("GET", "/api/telemetry/events"): "analytics", ("GET", "/api/telemetry/stats"): "analytics",
    ("GET", "/api/telemetry/export"): "analytics", ("GET", "/api/analytics/memory-safety"): "analytics",
    ("GET", "/api/telemetry/memory-search"): "analytics", ("GET", "/api/telemetry/memory-search/export"): "analytics",
    ("GET", "/api/sessions"): "recall", ("GET", "/api/sessions/{session_key}"): "recall",
    ("POST", "/api/sessions/search"): "recall", ("POST", "/api/sessions/{session_key}/bypass"): "remember",
    ("GET", "/api/logs"): "diagnostics", ("GET", "/api/analytics/logs"): "diagnostics",
    ("GET", "/api/logs/stream"): "diagnostics",
    ("GET", "/api/timeline/{item_id}"): "recall", ("GET", "/api/timeline/{item_id}/export"): "recall",
    ("GET", "/api/identity"): "recall",
    ("POST", "/api/hooks/synthesis"): "recall", ("POST", "/api/hooks/synthesis/complete"): "remember",
    ("GET", "/api/hooks/synthesis/config"): "recall",
    # Connectors read the disk of the machine the service runs on: operators register and sync them.
    ("GET", "/api/connectors"): "diagnostics", ("GET", "/api/connectors/{connector_id}"): "diagnostics",
    ("GET", "/api/connectors/{connector_id}/health"): "diagnostics",
    ("POST", "/api/connectors"): "operator", ("DELETE", "/api/connectors/{connector_id}"): "operator",
    ("POST", "/api/connectors/{connector_id}/sync"): "operator",
    ("POST", "/api/connectors/{connector_id}/sync/full"): "operator",
}
# Sliding-window limits per actor and operation (spec: forget 30/min, modify 60/min, batch forget 5/min).
RATE_LIMITS: dict[tuple[str, str], tuple[str, int]] = {
    ("DELETE", "/api/memory/{memory_id}"): ("forget", 30),
    ("PATCH", "/api/memory/{memory_id}"): ("modify", 60),
    ("POST", "/api/memory/modify"): ("modify", 60),
    ("POST", "/api/memory/forget"): ("batch-forget", 5),
}


@dataclass(frozen=True)
class Identity:
    mode: str
    claims: TokenClaims | None  # set when a valid token came with the request
    trusted: bool  # local mode or a loopback caller in hybrid mode: full access without a token

    @property
    def authenticated(self) -> bool:
        return self.claims is not None

    @property
    def role(self) -> Role | None:
        """The token's role; a trusted caller acts as admin; an anonymous one has none."""
        return self.claims.role if self.claims else ("admin" if self.trusted else None)


class Auth:
    """Per-app auth state: the mode, the signing secret (read once) and the rate limiter."""

    def __init__(self, settings: Settings):
        self.mode = settings.auth.mode
        self.local_hosts = origins.local_names([settings.server.host, *settings.auth.allowed_hosts])
        self._secret_path: Path = settings.auth_secret_path
        self._secret: bytes | None = None
        self.limiter = SlidingWindow()

    @property
    def secret(self) -> bytes:
        if self._secret is None:
            self._secret = load_or_create_secret(self._secret_path)
        return self._secret

    def identify(self, request: Request, *, required: bool = True) -> Identity:
        """`required`: whether the route needs an identity (routes open to anyone do not)."""
        if self.mode == "local":  # no auth at all: whatever Authorization header comes is ignored
            self._check_local(request)
            return Identity("local", None, trusted=True)
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if header and (scheme.lower() != "bearer" or not token.strip()):
            raise Unauthorized("Authorization must be 'Bearer <token>'", code="token_malformed")
        claims = verify(self.secret, token) if token.strip() else None
        if claims is None and self.mode == "hybrid" and _loopback(request):
            self._check_local(request)
            return Identity("hybrid", None, trusted=True)
        if claims is None and required:
            raise Unauthorized("a Bearer token is required", code="token_required")
        return Identity(self.mode, claims, trusted=False)


    def _check_local(self, request: Request) -> None:
        """Trust without a token only for requests addressed to this machine by name (DNS rebinding)
        and not sent by a browser for another site where it needs no CORS preflight to send them
        (a form, or a body-less POST to /recover or /sync, would otherwise act as a local caller)."""
        headers = request.headers
        host = origins.hostname(headers.get("host", ""))
        if host not in self.local_hosts:
            raise Forbidden(f"host {host!r} is not a local name (auth.allowedHosts)", code="host_not_allowed")
        if origins.unpreflighted(request.method, headers.get("content-type")):
            reason = origins.cross_site(headers.get("origin"), headers.get("sec-fetch-site"), headers.get("host", ""))
            if reason:
                raise Forbidden(f"cross-site request refused: {reason}", code="cross_site_request")


def _loopback(request: Request) -> bool:
    """The connection comes from this machine (the peer address, which a remote caller cannot
    forge, unlike the Host header)."""
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


async def authorize(request: Request) -> None:
    """App-wide dependency: identity, the route's permission, then its rate limit. On the event
    loop (no await, no I/O: a token's HMAC at most), not on the thread pool (signet_api/deps.py)."""
    auth: Auth = request.app.state.auth
    route = request.scope.get("route")
    key = (request.method, getattr(route, "path", ""))
    permission = ROUTES.get(key, "admin")
    identity = auth.identify(request, required=permission != "none")
    request.state.identity = identity
    if identity.claims is not None and not allowed(identity.claims.role, permission):
        raise Forbidden(f"role {identity.claims.role} may not {permission} ({request.method} {key[1]})",
                        code="permission_denied")
    limit = RATE_LIMITS.get(key)
    if limit and auth.mode != "local":
        operation, per_minute = limit
        actor = identity.claims.sub if identity.claims else request.headers.get("x-signet-actor") or "local"
        auth.limiter.hit(f"{actor}:{operation}", per_minute)


class AuthorizedRoute(APIRoute):
    """Every API route: `authorize` runs before FastAPI reads and parses the body, so a caller
    without the right token is refused before its body costs anything (an app-wide dependency
    would run only after the body was parsed); then the body is parsed as bodies.py says.

    A path that a route names literally belongs to that route alone: /api/memory/feedback is not
    the memory `feedback` of /api/memory/{memory_id}, so GET on it answers 405 (Allow: POST), as
    the schema says, rather than looking up a memory of that id."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child = super().matches(scope)
        if match is not Match.NONE and self.param_convertors:
            if get_route_path(scope) in _literal_paths(scope.get("app")):
                return Match.NONE, {}
        return match, child

    def get_route_handler(self):
        handle = super().get_route_handler()

        async def authorized(request: Request) -> Response:
            await authorize(request)
            if self.body_field is not None:  # after auth: an anonymous body is never read
                await bodies.prepare(request)
            return await handle(request)

        return authorized


_LITERAL_PATHS: WeakKeyDictionary[ASGIApp, frozenset[str]] = WeakKeyDictionary()


def _routes(app: ASGIApp) -> Iterator[tuple[BaseRoute, str | None]]:
    """Every route of the app with its path (FastAPI keeps included routers as one entry each)."""
    for context in iter_route_contexts(app.routes):  # type: ignore[attr-defined]
        yield context.original_route, context.path


def _literal_paths(app: ASGIApp | None) -> frozenset[str]:
    """The paths of the app's API routes without path parameters (all added before it serves)."""
    if app is None:
        return frozenset()
    found = _LITERAL_PATHS.get(app)
    if found is None:
        found = _LITERAL_PATHS[app] = frozenset(path for route, path in _routes(app)
                                                if isinstance(route, APIRoute) and not route.param_convertors)
    return found


def allowed_methods(scope: Scope) -> str:
    """What a 405 lists in Allow: the methods of every route that matches the request's path."""
    methods = {method for route, _ in _routes(scope["app"]) if route.matches(scope)[0] is not Match.NONE
               for method in getattr(route, "methods", None) or ()}
    return ", ".join(sorted(methods))
