"""Request-scoped helpers: the service, the actor and the reading agent.

The dependencies are `async def` although they never await: FastAPI runs a plain `def` dependency
on the thread pool, a hop per dependency per request (on remember over HTTP the hops cost more
than the whole write; bench.remember_bench). These only read the request."""

from __future__ import annotations

import uuid
from dataclasses import replace

import anyio.to_thread
from fastapi import Request

from signet_api import route_props
from signet_pipeline.auth.tokens import TokenClaims
from signet_pipeline.recall.search import SEARCH, RecallOptions
from signet_pipeline.recall.session_context import session_agent
from signet_pipeline.service import MemoryService
from signet_pipeline.write.remember import Actor

DEFAULT_ACTOR = "api"  # who a request is when it names no actor (history rows, analytics)
# Recall that records nothing: no access counts, and no session ledger (neither read nor written:
# RecallOptions has no switch that reads the ledger without writing it).
QUIET_SEARCH = replace(SEARCH, track_access=False)


async def service(request: Request) -> MemoryService:
    svc: MemoryService = request.app.state.service
    writer = svc.embed_behind
    if writer is not None and route_props.of(request.scope.get("route")).waits:
        writer.begin_read()  # the request waits for vectors submitted before it, never for later ones
        if writer.pending:
            await anyio.to_thread.run_sync(writer.settle)  # milliseconds; off the event loop
    return svc


def _claims(request: Request) -> TokenClaims | None:
    identity = getattr(request.state, "identity", None)
    return identity.claims if identity is not None else None


async def actor(request: Request) -> Actor:
    """Who acts: the token's subject and role when a token came (headers are ignored then),
    else the x-signet-actor / x-signet-actor-type headers of a trusted local caller."""
    headers = request.headers
    request_id = headers.get("x-request-id") or str(uuid.uuid4())
    claims = _claims(request)
    if claims is not None:
        return Actor(name=claims.sub, type="agent" if claims.role == "agent" else "operator", request_id=request_id,
                     verified=True)
    return Actor(name=headers.get("x-signet-actor") or DEFAULT_ACTOR,
                 type=headers.get("x-signet-actor-type") or "operator", request_id=request_id)


def bound_agent(request: Request) -> str | None:
    """The agent a token binds its caller to, whatever the request asks: its agent scope, else the
    subject of an agent or readonly token. None for operators, admins and trusted local callers."""
    claims = _claims(request)
    if claims is not None and claims.scope.agent:
        return claims.scope.agent
    if claims is not None and claims.role in ("agent", "readonly"):
        return claims.sub  # an agent token without an agent scope acts as its subject, never as anyone asked
    return None


def reading_agent(request: Request, agent_id: str | None = None) -> str:
    """The agent a request acts as: the token's (bound_agent) when it binds one; operators, admins
    and trusted local callers act as the requested agent (`agentId` or `agent_id`), the
    x-signet-agent-id header, the agent of the x-signet-session-key's session (spec), or `default`."""
    return (bound_agent(request) or agent_id or request.query_params.get("agent_id")
            or request.headers.get("x-signet-agent-id") or _session_agent(request) or "default")


def _session_agent(request: Request) -> str | None:
    key = request.headers.get("x-signet-session-key")
    return session_agent(request.app.state.service, key) if key else None


def project_scope(request: Request) -> str | None:
    """The project a scoped token is limited to (mutations check it against the target)."""
    claims = _claims(request)
    return claims.scope.project if claims is not None and claims.role != "admin" else None


def records(request: Request) -> bool:
    """Whether a read may leave traces in the store (session rows and ledger, prompt notes,
    checkpoints, access counts): not for a readonly token, which may not write, nor while
    memory.pipelineV2.mutationsFrozen stops every write (reads only)."""
    claims = _claims(request)
    frozen = request.app.state.service.settings.pipeline.mutations_frozen
    return not frozen and (claims is None or claims.role != "readonly")


def recall_options(request: Request) -> RecallOptions:
    """The API's recall: SEARCH, or QUIET_SEARCH for a caller that may not record (`records`)."""
    return SEARCH if records(request) else QUIET_SEARCH
