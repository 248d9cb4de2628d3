"""GET /api/embeddings (memory-api.txt): stored vectors with their memory's metadata, paginated.

Only vectors of the configured model and dimension are exported (vectors of different models are
not comparable, and a page mixing dimensions is useless to a consumer); during a model switch the
export grows as the refresh re-embeds. Visibility follows the reading agent, as listing does.
"""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from signet_api.auth import AuthorizedRoute
from signet_api.deps import reading_agent, service
from signet_api.route_props import declare
from signet_pipeline.service import MemoryService
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store.memories import MemoryFilter

router = APIRouter(tags=["embeddings"], route_class=AuthorizedRoute)
MIN_PAGE, MAX_PAGE = 50, 5000
Service = Annotated[MemoryService, Depends(service)]


class ExportedEmbedding(BaseModel):
    id: str
    content: str
    text: str
    who: str | None
    importance: float
    type: str
    tags: list[str]
    sourceType: str
    sourceId: str | None
    createdAt: str
    vector: list[float] | None = Field(None, description="only with vectors=true")


class EmbeddingsPage(BaseModel):
    embeddings: list[ExportedEmbedding]
    count: int
    total: int
    limit: int
    offset: int
    hasMore: bool


@router.get("/api/embeddings", response_model=EmbeddingsPage, response_model_exclude_unset=True,
            summary="Export stored embeddings (configured model) with their memory's metadata")
@declare("recall")
def export_route(request: Request, svc: Service,
                 limit: Annotated[int, Query(ge=1, le=1_000_000)] = 600,
                 offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
                 vectors: bool = False, agentId: str | None = None) -> EmbeddingsPage:
    limit = min(max(limit, MIN_PAGE), MAX_PAGE)  # the spec's range: out-of-range values are clamped
    flt = MemoryFilter(agent_id=reading_agent(request, agentId))
    model, dimensions = svc.embedder.model, svc.embedder.dimensions
    with svc.db.read() as conn:  # page and total from one snapshot
        found = emb_store.export_page(conn, flt, model=model, dimensions=dimensions, limit=limit, offset=offset,
                                      with_vectors=vectors)
        total = emb_store.export_total(conn, flt, model=model, dimensions=dimensions)
    items = []
    for row in found:
        fields = {"id": row["id"], "content": row["content"], "text": row["text"], "who": row["who"],
                  "importance": row["importance"], "type": row["type"], "tags": json.loads(row["tags"]),
                  "sourceType": row["source_type"], "sourceId": row["source_id"], "createdAt": row["created_at"]}
        if vectors:
            fields["vector"] = emb_store.from_blob(row["vector"]).tolist()
        items.append(ExportedEmbedding(**fields))
    return EmbeddingsPage(embeddings=items, count=len(items), total=total, limit=limit, offset=offset,
                          hasMore=offset + len(items) < total)
