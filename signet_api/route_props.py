"""What each route declares where it is defined: the permission it needs (the spec's API table),
whether its body may carry a transcript or a document (limits.maxUploadBytes, else maxBodyBytes),
whether it waits for the vectors acknowledged before it, and the rate limit it counts against.
auth.py, deps.py, middleware.py and openapi.py read them back from the route, so a new alias cannot
get one of them wrong by being left out of a list.

    @router.post("/api/memory/save", ...)
    @declare("remember", upload=True, waits=False)
    def save_route(...): ...
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar
from weakref import WeakKeyDictionary

from fastapi.routing import APIRoute, iter_route_contexts
from starlette.routing import BaseRoute, compile_path
from starlette.types import ASGIApp

Endpoint = TypeVar("Endpoint", bound=Callable)
_ATTRIBUTE = "__signet_route_props__"


@dataclass(frozen=True)
class RateLimit:
    """A sliding window per actor and operation; routes naming one operation share its window."""

    operation: str
    per_minute: int


# The spec's limits: forget 30/min, modify 60/min, batch forget 5/min.
FORGET = RateLimit("forget", 30)
MODIFY = RateLimit("modify", 60)
BATCH_FORGET = RateLimit("batch-forget", 5)


@dataclass(frozen=True)
class RouteProps:
    permission: str
    upload: bool = False
    # Remembers do not wait for earlier remembers' vectors (what write-behind buys), and recall
    # scores its agent's unwritten vectors itself (recall/search.py); every other route waits for
    # the vectors acknowledged before it, so what was acknowledged is visible to it.
    waits: bool = True
    rate: RateLimit | None = None


UNDECLARED = RouteProps("admin")  # the safe default: admin only, the small body limit, waiting


def declare(permission: str, *, upload: bool = False, waits: bool = True,
            rate: RateLimit | None = None) -> Callable[[Endpoint], Endpoint]:
    """Mark an endpoint function; goes below the router decorator, which reads it."""

    def mark(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, _ATTRIBUTE, RouteProps(permission, upload, waits, rate))
        return endpoint

    return mark


def declared(route: APIRoute) -> RouteProps | None:
    return getattr(route.endpoint, _ATTRIBUTE, None)


def of(route: object) -> RouteProps:
    """A route's properties (UNDECLARED for an unmarked route, or none matched)."""
    return (declared(route) if isinstance(route, APIRoute) else None) or UNDECLARED


@dataclass(frozen=True)
class _PathTable:
    """What is answered from a request path before routing, built once per app from its routes (all
    added before it serves)."""

    literal: frozenset[str]  # API routes without path parameters
    upload_literal: frozenset[str]
    upload_templated: tuple[re.Pattern[str], ...]


_TABLES: WeakKeyDictionary[ASGIApp, _PathTable] = WeakKeyDictionary()


def routes(app: ASGIApp) -> Iterator[tuple[BaseRoute, str | None]]:
    """Every route of the app with its path (FastAPI keeps included routers as one entry each)."""
    for context in iter_route_contexts(app.routes):  # type: ignore[attr-defined]
        yield context.original_route, context.path


def _table(app: ASGIApp) -> _PathTable:
    table = _TABLES.get(app)
    if table is None:
        api = [(route, path or "") for route, path in routes(app) if isinstance(route, APIRoute)]
        uploads = [(route, path) for route, path in api if of(route).upload]
        table = _TABLES[app] = _PathTable(
            frozenset(path for route, path in api if not route.param_convertors),
            frozenset(path for route, path in uploads if not route.param_convertors),
            tuple(compile_path(path)[0] for route, path in uploads if route.param_convertors))
    return table


def literal_paths(app: ASGIApp) -> frozenset[str]:
    """The paths of the app's API routes without path parameters."""
    return _table(app).literal


def upload_path(app: ASGIApp, path: str) -> bool:
    """Whether a request path belongs to an upload route, answered before routing (the body limit
    is enforced before auth)."""
    table = _table(app)
    return path in table.upload_literal or any(pattern.match(path) for pattern in table.upload_templated)
