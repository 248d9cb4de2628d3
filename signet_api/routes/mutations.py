"""Memory mutations (memory-api.txt): PATCH, DELETE, recover, batch modify and forget. A refused
mutation answers with the spec's status value as the error code (409 version_conflict, 404
not_found, 403 autonomous_force_denied, ...); `mutationsFrozen` answers 503. PATCH and DELETE answer
`success: true` beside the result: the OpenCode and OpenClaw memory tools report an edit "failed"
without it."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Query, Request

from signet_api.auth import AuthorizedRoute
from signet_api.deps import actor, project_scope, reading_agent, service
from signet_api.openapi import errors
from signet_api.route_props import BATCH_FORGET, FORGET, MODIFY, declare
from signet_pipeline.errors import InvalidRequest
from signet_pipeline.mutations import batch as batch_mutations
from signet_pipeline.mutations import edits as mutations
from signet_pipeline.mutations.models import (
    DeleteBody,
    DeleteRequest,
    ForgetRequest,
    ModifyRequest,
    MutationAnswer,
    PatchRequest,
    RecoverRequest,
)
from signet_pipeline.request_rules import SAFE_INTEGERS
from signet_pipeline.service import MemoryService
from signet_pipeline.write.remember import Actor

router = APIRouter(tags=["memory"], route_class=AuthorizedRoute)
Service = Annotated[MemoryService, Depends(service)]
Who = Annotated[Actor, Depends(actor)]
MemoryId = Annotated[str, Path(min_length=1, max_length=100)]
# DELETE takes `reason` as a query parameter or in its JSON body (wire-contract). A schema cannot
# say "one or the other": it says the query parameter is required, the form generated clients use.
DELETE_REASON = {"parameters": [{"name": "reason", "in": "query", "required": True,
                                 "schema": {"type": "string", "minLength": 1, "maxLength": 1000},
                                 "description": "why (kept in history); may come in the JSON body instead"}]}


@router.post("/api/memory/modify", summary="Patch up to 200 memories; each patch succeeds or fails alone",
             responses=errors(503))
@declare("modify", rate=MODIFY)
def modify_route(request: Request, body: ModifyRequest, svc: Service, who: Who) -> dict[str, Any]:
    return batch_mutations.modify(svc, body, actor=who, agent_id=reading_agent(request),
                                  project_scope=project_scope(request))


@router.post("/api/memory/forget", summary="Preview, then delete, the memories a query, ids or a filter select",
             responses=errors(408, 409, 503))
@declare("forget", rate=BATCH_FORGET)
def forget_route(request: Request, body: ForgetRequest, svc: Service, who: Who) -> dict[str, Any]:
    return batch_mutations.forget(svc, body, actor=who, agent_id=reading_agent(request),
                                  project_scope=project_scope(request))


@router.patch("/api/memory/{memory_id}", summary="Update a memory's content, type, tags, importance or pinned",
              response_model=MutationAnswer, response_model_exclude_none=True, responses=errors(404, 409, 503))
@declare("modify", rate=MODIFY)
def patch_route(request: Request, memory_id: MemoryId, body: PatchRequest, svc: Service, who: Who) -> MutationAnswer:
    result = mutations.patch(svc, memory_id, body, reason=body.reason, actor=who, agent_id=reading_agent(request),
                             changed_by=body.changed_by, project_scope=project_scope(request))
    return MutationAnswer(**result.model_dump())


@router.delete("/api/memory/{memory_id}", summary="Soft-delete a memory (recoverable for 30 days)",
               response_model=MutationAnswer, response_model_exclude_none=True, responses=errors(404, 409, 503),
               openapi_extra=DELETE_REASON)
@declare("forget", rate=FORGET)
def delete_route(request: Request, memory_id: MemoryId, svc: Service, who: Who,
                 body: Annotated[DeleteBody | None, Body()] = None,
                 reason: Annotated[str | None, Query(min_length=1, max_length=1000, include_in_schema=False)] = None,
                 force: bool | None = None,
                 if_version: Annotated[int | None, Query(ge=1, le=SAFE_INTEGERS[1])] = None) -> MutationAnswer:
    given = body or DeleteBody()
    merged = {"reason": given.reason or reason, "force": given.force if given.force is not None else bool(force),
              "if_version": given.if_version or if_version}
    if merged["reason"] is None:
        # 422 like every other validation failure of a request
        raise InvalidRequest("reason is required (in the body or as ?reason=)", status=422)
    req = DeleteRequest(**merged)
    deleted = mutations.delete(svc, memory_id, req, actor=who, agent_id=reading_agent(request),
                               project_scope=project_scope(request))
    return MutationAnswer(**deleted.model_dump())


@router.post("/api/memory/{memory_id}/recover", summary="Restore a soft-deleted memory within the retention window",
             responses=errors(404, 409, 503))
@declare("recover")
def recover_route(request: Request, memory_id: MemoryId, body: RecoverRequest, svc: Service,
                  who: Who) -> dict[str, Any]:
    return mutations.recover(svc, memory_id, body, actor=who, agent_id=reading_agent(request),
                             project_scope=project_scope(request)).model_dump(exclude_none=True)
