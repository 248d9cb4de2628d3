"""Applying auth to requests: one app-wide dependency resolves who is calling (local mode: a
trusted local caller; team: the Bearer token's claims; hybrid: loopback callers trusted, others
need a token), checks the permission the route declares (route_props.py), and counts rate-limited operations.
The identity lands in `request.state.identity`; signet_api/deps.py reads actor and agent from it,
so with a token, who is acting comes from the token, never from the body or headers."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path

from fastapi import Request, Response
from fastapi.routing import APIRoute
from starlette._utils import get_route_path
from starlette.routing import Match
from starlette.types import Scope

from signet_api import bodies, route_props
from signet_pipeline.auth import origins
from signet_pipeline.auth.policy import SlidingWindow, allowed
from signet_pipeline.auth.tokens import Role, TokenClaims, load_or_create_secret, verify
from signet_pipeline.config import Settings
from signet_pipeline.errors import Forbidden, Unauthorized


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
    props = route_props.of(route)
    identity = auth.identify(request, required=props.permission != "none")
    request.state.identity = identity
    if identity.claims is not None and not allowed(identity.claims.role, props.permission):
        raise Forbidden(f"role {identity.claims.role} may not {props.permission} "
                        f"({request.method} {getattr(route, 'path', '')})", code="permission_denied")
    if props.rate is not None and auth.mode != "local":
        actor = identity.claims.sub if identity.claims else request.headers.get("x-signet-actor") or "local"
        auth.limiter.hit(f"{actor}:{props.rate.operation}", props.rate.per_minute)


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
            app = scope.get("app")
            if app is not None and get_route_path(scope) in route_props.literal_paths(app):
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


def allowed_methods(scope: Scope) -> str:
    """What a 405 lists in Allow: the methods of every route that matches the request's path."""
    methods = {method for route, _ in route_props.routes(scope["app"]) if route.matches(scope)[0] is not Match.NONE
               for method in getattr(route, "methods", None) or ()}
    return ", ".join(sorted(methods))
