"""Request-scoped helpers: the service, the actor and the reading agent."""

from __future__ import annotations

import uuid

from fastapi import Request

from signet_pipeline.memory.remember import Actor
from signet_pipeline.memory.service import MemoryService


DEFAULT_ACTOR = "api"  # who a request is when it names no actor (history rows, analytics)


def service(request: Request) -> MemoryService:
    return request.app.state.service


def actor(request: Request) -> Actor:
    headers = request.headers
    return Actor(
        name=headers.get("x-signet-actor") or DEFAULT_ACTOR,
        type=headers.get("x-signet-actor-type") or "operator",
        request_id=headers.get("x-request-id") or str(uuid.uuid4()),
    )


def reading_agent(request: Request, agent_id: str | None = None) -> str:
    return agent_id or request.headers.get("x-signet-agent-id") or "default"
