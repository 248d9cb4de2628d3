"""Batch mutations (memory-api.txt): `modify` applies up to 200 patches, each validated and
written on its own (partial success); `forget` previews the memories a query, ids or filter
select that the caller may delete (the execute's rule), then deletes them. Above 25 candidates
an execute must carry the preview's confirm token, a digest of the candidate set (ids and
versions): if the set changed since the preview, the token no longer matches and nothing is
deleted.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import ValidationError

from signet_pipeline.errors import Forbidden, InvalidRequest, MutationRejected, NotFound
from signet_pipeline.models import RecallRequest
from signet_pipeline.mutations import edits as mutations
from signet_pipeline.mutations.models import (
    DeleteRequest,
    ForgetRequest,
    MemoryPatch,
    ModifyItem,
    ModifyRequest,
    MutationResult,
)
from signet_pipeline.recall.search import RecallOptions, recall_memories
from signet_pipeline.service import MemoryService
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.write.remember import Actor, ensure_writable

CONFIRM_ABOVE = 25


def _refused(memory_id: str, exc: MutationRejected | NotFound | Forbidden) -> MutationResult:
    return MutationResult(id=memory_id, status=exc.code, currentVersion=exc.details.get("currentVersion"),
                          error=exc.message)


def _invalid(raw: dict[str, Any], message: str) -> MutationResult:
    return MutationResult(id=str(raw.get("id") or ""), status="invalid_request", error=message)


def _describe(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'patch'}: {e['msg']}" for e in exc.errors())


def modify(svc: MemoryService, req: ModifyRequest, *, actor: Actor, agent_id: str,
           project_scope: str | None = None) -> dict[str, Any]:
    ensure_writable(svc)
    results: list[MutationResult] = []
    for raw in req.patches:
        try:
            item, patch = ModifyItem.model_validate(raw), MemoryPatch.model_validate(raw)
        except ValidationError as exc:
            results.append(_invalid(raw, _describe(exc)))
            continue
        reason = item.reason or req.reason
        if not reason:
            results.append(_invalid(raw, "reason is required (on the patch or the request)"))
            continue
        try:
            results.append(mutations.patch(svc, item.id, patch, reason=reason, actor=actor, agent_id=agent_id,
                                           changed_by=req.changed_by, project_scope=project_scope))
        except (MutationRejected, NotFound, Forbidden) as exc:
            results.append(_refused(item.id, exc))
        except InvalidRequest as exc:
            results.append(_invalid(raw, exc.message))
    return {"total": len(results), "updated": sum(r.status == "updated" for r in results),
            "results": [r.model_dump(exclude_none=True) for r in results]}


def _selected(svc: MemoryService, req: ForgetRequest, agent_id: str,
              project_scope: str | None) -> list[tuple[Row, float]]:
    """(row, score) of the live memories the request selects that the agent can see: every listed
    id (ids are capped at 200 by the model, not by `limit`), else at most `limit` (of the token's
    project, when it is scoped to one)."""
    conn = svc.db.reader()
    if req.ids:
        found = mem_store.fetch_many(conn, list(dict.fromkeys(req.ids)))
        visible = mem_store.visible_ids(conn, list(found), MemoryFilter(agent_id=agent_id, include_superseded=True))
        return [(found[i], 1.0) for i in dict.fromkeys(req.ids) if i in visible]
    if req.query:
        result = recall_memories(svc, RecallRequest(query=req.query, agentId=agent_id, type=req.type, tags=req.tags,
                                           who=req.who, since=req.since, until=req.until, limit=req.limit,
                                           project=project_scope),
                        RecallOptions(track_access=False))
        hits = [h for h in result.results if req.source_type is None or h.source_type == req.source_type]
        rows = mem_store.fetch_many(conn, [h.id for h in hits])
        return [(rows[h.id], h.score) for h in hits if h.id in rows]
    flt = MemoryFilter(agent_id=agent_id, types=[req.type] if req.type else [], tags=req.tags or [], who=req.who,
                       source_type=req.source_type, since=req.since, until=req.until, project=project_scope)
    return [(r, 1.0) for r in mem_store.list_page(conn, flt, req.limit, 0)]


def confirm_token(candidates: list[dict[str, Any]]) -> str:
    digest = hashlib.sha256("\n".join(f"{c['id']}:{c['version']}" for c in sorted(candidates, key=lambda c: c["id"]))
                            .encode()).hexdigest()
    return digest[:32]


def forget(svc: MemoryService, req: ForgetRequest, *, actor: Actor, agent_id: str,
           project_scope: str | None = None) -> dict[str, Any]:
    selected = _selected(svc, req, agent_id, project_scope)
    # What the caller sees but may not change (another agent's shared memory, another project's)
    # is no candidate: the preview lists what the execute deletes, and `denied` says what it refuses.
    refused = {row["id"]: exc for row, _ in selected if (exc := mutations.refusal(row, agent_id, actor, project_scope))}
    candidates = [{"id": row["id"], "score": score, "pinned": bool(row["pinned"]), "version": row["version"]}
                  for row, score in selected if row["id"] not in refused]
    token = confirm_token(candidates)
    requires = len(candidates) > CONFIRM_ABOVE
    found = {row["id"] for row, _ in selected}
    # Listed ids that are gone or not the caller's to see: answered, never silently dropped.
    missing = [i for i in dict.fromkeys(req.ids or []) if i not in found]
    if req.mode == "preview":
        return {"mode": "preview", "count": len(candidates), "requiresConfirm": requires, "confirmToken": token,
                "candidates": candidates, **({"denied": list(refused)} if refused else {}),
                **({"notFound": missing} if missing else {})}
    ensure_writable(svc)
    if requires and not req.confirm_token:
        raise InvalidRequest(f"{len(candidates)} memories: preview first and pass its confirm_token",
                             code="confirm_token_required")
    if req.confirm_token and req.confirm_token != token:
        raise MutationRejected("the candidates changed since the preview: preview again",
                               code="confirm_token_mismatch", details={"count": len(candidates)})
    results = [_refused(i, NotFound(f"memory {i} not found")) for i in missing]
    results += [_refused(i, exc) for i, exc in refused.items()]
    for c in candidates:
        try:
            # The version the token was computed over: a memory changed since is refused, not deleted.
            results.append(mutations.delete(svc, c["id"], DeleteRequest(reason=req.reason, force=req.force,
                                                                        if_version=c["version"]),
                                            actor=actor, agent_id=agent_id, project_scope=project_scope))
        except (MutationRejected, NotFound, Forbidden) as exc:
            results.append(_refused(c["id"], exc))
    return {"mode": "execute", "requested": len(selected) + len(missing),
            "deleted": sum(r.status == "deleted" for r in results),
            "results": [r.model_dump(exclude_none=True) for r in results]}
