"""Repair endpoints: each action behind the policy gate (frozen, role, cooldown, hourly budget).
`re-embed` has its own route: it alone takes the reference CLI's `batchSize` and `dryRun`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query
from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from signet_api.auth import AuthorizedRoute
from signet_api.deps import actor, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.request_rules import STRICT, Integer
from signet_pipeline.service import MemoryService
from signet_pipeline.stages import dedup, repair
from signet_pipeline.stages.embedding_refresh import MAX_ROWS
from signet_pipeline.write.remember import Actor

router = APIRouter(tags=["repair"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]
REEMBED = "re-embed"


class RepairRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", **STRICT)

    reason: str | None = Field(None, max_length=500)
    repair: bool = Field(False, description="check-fts: rebuild the index when it drifted more than 10%, and the "
                                            "per-agent term statistics when an agent's differ from its rows")


class ReembedRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, **STRICT)

    reason: str | None = Field(None, max_length=500)
    batch_size: Annotated[int, Integer(ge=1, le=MAX_ROWS)] | None = Field(
        None, validation_alias=AliasChoices("batchSize", "batch_size"),
        description=f"memories re-embedded at most in this run (default {MAX_ROWS})")
    dry_run: bool = Field(False, validation_alias=AliasChoices("dryRun", "dry_run"),
                          description="report what would be re-embedded; write nothing, claim no cooldown")


class RepairAnswer(BaseModel):
    """A repair's outcome: the reference's action / success / affected / message, and ours."""

    model_config = ConfigDict(extra="allow")

    action: str
    success: bool
    affected: int
    message: str
    result: dict[str, Any]
    runId: int | None = None  # GET /api/repair lists it; none for a dry run
    executedAt: str | None = None


class EmbeddingGaps(BaseModel):
    total: int = Field(description="live memories")
    unembedded: int = Field(description="live memories without a vector of the configured model")
    coverage: str = Field(description='share with one, e.g. "96.5%" (floored while any is missing)')
    oldestUnembedded: str | None = Field(description="created_at of the oldest one without")
    stale: int = Field(description="live memories whose only vector is of another model")
    model: str


@router.get("/api/repair", summary="Recent repair runs (executed, denied, failed) and the actions")
@declare("operator")
def runs_route(svc: Service, limit: Annotated[int, Query(ge=1, le=500)] = 50) -> dict[str, Any]:
    return repair.recent_runs(svc, limit)


@router.get("/api/repair/dedup-stats", summary="Exact and near-duplicate memories per agent (counts and samples); "
                                             "a read: no gate, no audit row (POST /api/repair/deduplicate merges)")
@declare("operator")
def dedup_stats_route(svc: Service) -> dict[str, Any]:
    return {"result": dedup.stats(svc)}


@router.get("/api/repair/embedding-gaps", response_model=EmbeddingGaps,
            summary="Live memories without a vector of the configured model (`signet embed audit`)")
@declare("operator")
def embedding_gaps_route(svc: Service) -> dict[str, Any]:
    return repair.embedding_gaps(svc)


@router.post("/api/repair/re-embed", response_model=RepairAnswer, response_model_exclude_none=True,
             summary="Re-embed memories whose vector is missing, outdated or of another model "
                     "(`signet embed backfill`); dryRun reports what it would do",
             responses=errors(429, 503))
@declare("operator")
def reembed_route(svc: Service, who: Annotated[Actor, Depends(actor)],
                  body: ReembedRequest | None = None) -> dict[str, Any]:
    body = body or ReembedRequest()
    if body.dry_run:
        return repair.reembed_preview(svc, body.batch_size)
    return repair.run_repair(svc, REEMBED, who, reason=body.reason, options={"batch_size": body.batch_size})


@router.post("/api/repair/{action}", response_model=RepairAnswer,
             summary="Run a repair action: requeue-dead, release-leases, check-fts, retention-sweep, "
                     "clean-orphans, deduplicate", responses=errors(404, 429, 503))
@declare("operator")
def repair_route(action: Annotated[str, Path(max_length=50, json_schema_extra={
                     "enum": sorted(set(repair.ACTIONS) - {REEMBED})})],
                 svc: Service, who: Annotated[Actor, Depends(actor)],
                 body: RepairRequest | None = None) -> dict[str, Any]:
    body = body or RepairRequest()
    return repair.run_repair(svc, action, who, reason=body.reason, options={"repair": body.repair})
