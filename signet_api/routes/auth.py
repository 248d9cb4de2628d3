"""Auth endpoints: who am I, and token issuance (admin)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from signet_api.auth import AuthorizedRoute
from signet_api.deps import service
from signet_api.route_props import declare
from signet_pipeline.auth.tokens import Role, TokenScope, issue
from signet_pipeline.request_rules import STRICT
from signet_pipeline.service import MemoryService

router = APIRouter(tags=["auth"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]


class TokenRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", **STRICT)

    sub: str = Field(..., min_length=1, max_length=200, description="who the token stands for")
    role: Role
    scope: TokenScope = TokenScope()
    ttl_days: float | None = Field(None, gt=0, le=3650, description="default auth.defaultTokenTtlDays")


@router.get("/api/auth/whoami", summary="The caller's identity as the server sees it")
@declare("none")
def whoami_route(request: Request) -> dict[str, Any]:
    identity = request.state.identity
    claims = identity.claims.model_dump(exclude_none=True) if identity.claims else None
    return {"authenticated": identity.authenticated, "mode": identity.mode, "role": identity.role,
            "trusted": identity.trusted, "claims": claims}


@router.post("/api/auth/token", summary="Issue a signed token (admin)")
@declare("admin")
def token_route(request: Request, body: TokenRequest, svc: Service) -> dict[str, Any]:
    days = body.ttl_days or svc.settings.auth.default_token_ttl_days
    token, claims = issue(request.app.state.auth.secret, sub=body.sub, role=body.role, scope=body.scope,
                          ttl_s=int(days * 86400))
    return {"token": token, "claims": claims.model_dump(exclude_none=True)}
