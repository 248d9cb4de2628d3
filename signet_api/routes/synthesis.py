"""MEMORY.md synthesis for harnesses (more-endpoints "MEMORY.md synthesis"): the prompt and the
memories to write it from, the write-back, and the settings. Local callers only (architecture:
`/api/hooks/synthesis/*` is local): the file lands in this machine's workspace."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import reading_agent, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.errors import Forbidden
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import synthesis
from signet_pipeline.sessions.synthesis import SynthesisComplete, SynthesisRequest
from signet_pipeline.write.remember import ensure_writable


def _local(request: Request) -> None:
    if not request.state.identity.trusted:
        raise Forbidden("MEMORY.md synthesis writes this machine's workspace: local callers only", code="local_only")


router = APIRouter(tags=["hooks"], route_class=AuthorizedRoute, dependencies=[Depends(_local)])
Service = Annotated[MemoryService, Depends(service)]


@router.post("/api/hooks/synthesis", summary="The prompt and memories a harness writes MEMORY.md from")
@declare("recall")
def synthesis_route(request: Request, body: SynthesisRequest, svc: Service) -> dict[str, Any]:
    return synthesis.harness_request(svc, reading_agent(request))


@router.post("/api/hooks/synthesis/complete", summary="Write MEMORY.md (the previous file is backed up)",
             responses=errors(503))
@declare("remember", upload=True)
def synthesis_complete_route(request: Request, body: SynthesisComplete, svc: Service) -> dict[str, Any]:
    ensure_writable(svc)  # it replaces the agent's MEMORY.md, which session-start injects
    synthesis.write(svc, body.content, agent_id=reading_agent(request))
    return {"success": True}


@router.get("/api/hooks/synthesis/config", summary="The memory.synthesis settings")
@declare("recall")
def synthesis_config_route(svc: Service) -> dict[str, Any]:
    cfg = svc.settings.memory.synthesis
    return {"harness": cfg.harness, "model": cfg.model, "schedule": cfg.schedule, "max_tokens": cfg.max_tokens}
