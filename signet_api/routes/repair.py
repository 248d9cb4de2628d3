"""Repair endpoints: each action behind the policy gate (frozen, role, cooldown, hourly budget)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query
from pydantic import BaseModel, ConfigDict, Field

from signet_api.auth import AuthorizedRoute
from signet_api.deps import actor, service
from signet_api.openapi import errors
from signet_pipeline.request_rules import STRICT
from signet_pipeline.service import MemoryService
from signet_pipeline.stages import dedup, repair
from signet_pipeline.write.remember import Actor

router = APIRouter(tags=["repair"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]


class RepairRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", **STRICT)

    reason: str | None = Field(None, max_length=500)
    repair: bool = Field(False, description="check-fts: rebuild the index when it drifted more than 10%")


@router.get("/api/repair", summary="Recent repair runs (executed, denied, failed) and the actions")
def runs_route(svc: Service, limit: Annotated[int, Query(ge=1, le=500)] = 50) -> dict[str, Any]:
    return repair.recent_runs(svc, limit)


@router.get("/api/repair/dedup-stats", summary="Exact and near-duplicate memories per agent (counts and samples); "
                                             "a read: no gate, no audit row (POST /api/repair/deduplicate merges)")
def dedup_stats_route(svc: Service) -> dict[str, Any]:
    return {"result": dedup.stats(svc)}


@router.post("/api/repair/{action}", summary="Run a repair action: requeue-dead, release-leases, check-fts, "
                                             "retention-sweep, re-embed, clean-orphans, deduplicate",
             responses=errors(404, 429, 503))
def repair_route(action: Annotated[str, Path(max_length=50, json_schema_extra={"enum": sorted(repair.ACTIONS)})],
                 svc: Service, who: Annotated[Actor, Depends(actor)],
                 body: RepairRequest | None = None) -> dict[str, Any]:
    body = body or RepairRequest()
    return repair.run_repair(svc, action, who, reason=body.reason, options={"repair": body.repair})
