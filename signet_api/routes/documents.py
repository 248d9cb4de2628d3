"""Documents (architecture.txt API table): queue a URL or a text for ingest, follow its status,
read its chunks, delete it."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import actor, project_scope, reading_agent, service
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.service import MemoryService
from signet_pipeline.write import documents
from signet_pipeline.write.documents import (
    DocumentChunks,
    DocumentCreated,
    DocumentDeleted,
    DocumentPage,
    DocumentRequest,
    DocumentView,
)
from signet_pipeline.write.remember import Actor

router = APIRouter(tags=["documents"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]
DocumentId = Annotated[str, Path(min_length=1, max_length=100)]
Status = Literal["queued", "extracting", "chunking", "embedding", "indexing", "done", "failed"]


@router.post("/api/documents", status_code=202, response_model=DocumentCreated,
             summary="Queue a URL or a text for ingest (chunked into memories)", responses=errors(503))
@declare("documents", upload=True)
def create_route(request: Request, body: DocumentRequest, svc: Service) -> DocumentCreated:
    body.project = project_scope(request) or body.project  # a project-scoped token files into its project
    return documents.create(svc, body, agent_id=reading_agent(request, body.agent_id))


@router.get("/api/documents", response_model=DocumentPage, summary="Documents, newest first")
@declare("documents")
def list_route(request: Request, svc: Service, status: Status | None = None,
               limit: Annotated[int, Query(ge=1, le=500)] = 50,
               offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> DocumentPage:
    return documents.page(svc, agent_id=reading_agent(request), status=status, limit=limit, offset=offset)


@router.get("/api/documents/{document_id}", response_model=DocumentView, summary="One document and its ingest status",
            responses=errors(404))
@declare("documents")
def get_route(request: Request, document_id: DocumentId, svc: Service) -> DocumentView:
    return documents.get(svc, document_id, agent_id=reading_agent(request))


@router.get("/api/documents/{document_id}/chunks", response_model=DocumentChunks,
            summary="The memories a document was chunked into", responses=errors(404))
@declare("documents")
def chunks_route(request: Request, document_id: DocumentId, svc: Service) -> DocumentChunks:
    return documents.chunks(svc, document_id, agent_id=reading_agent(request))


@router.delete("/api/documents/{document_id}", response_model=DocumentDeleted,
               summary="Delete a document; its chunk memories are soft-deleted", responses=errors(404, 503))
@declare("documents")
def delete_route(request: Request, document_id: DocumentId, svc: Service,
                 who: Annotated[Actor, Depends(actor)]) -> DocumentDeleted:
    return documents.delete(svc, document_id, agent_id=reading_agent(request), actor=who,
                            project_scope=project_scope(request))
