"""GET /api/embeddings/projection: the UMAP projection of the embedded memories (memory-api.txt).

200 with nodes and edges from the last layout, `stale: true` when the memories changed since (a
recompute is then requested); 202 "computing" only while no layout exists. A request is recorded for
the pipeline's projection sensor to turn into a Dagster run (the API never runs UMAP)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response

from signet_api.auth import AuthorizedRoute
from signet_api.deps import reading_agent, service
from signet_api.route_props import declare
from signet_pipeline.ops import projection_view
from signet_pipeline.ops.projection_view import ProjectionCached, ProjectionComputing
from signet_pipeline.service import MemoryService

router = APIRouter(tags=["projection"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]


@router.get("/api/embeddings/projection", summary="UMAP 2D/3D projection of the embedded memories",
            responses={200: {"model": ProjectionCached,
                            "description": "the last projection (stale: true while a newer one is computed)"},
                       202: {"model": ProjectionComputing, "description": "being computed: poll again"}})
@declare("recall")
def projection_route(request: Request, svc: Service,
                     dimensions: Annotated[int, Query(ge=2, le=3, description="output dimensions: 2 or 3")] = 2
                     ) -> Response:
    answer = projection_view.projection(svc.db, svc.settings.embedding.model, dimensions, reading_agent(request))
    # The body is JSON already (the cache is served without re-encoding it).
    return Response(answer.body, status_code=answer.status_code, media_type="application/json")
