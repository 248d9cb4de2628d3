"""Changing one memory: PATCH, soft delete, recover (memory-api.txt).

Each is one short write transaction that reads the row, checks the request against it
(visibility to the acting agent, deletion state, `if_version`, pinning) and writes the change,
a version bump and a history row with actor, actor type, reason and request id — so two
requests holding the same `if_version` cannot both win. A new content is embedded before the
transaction (never inside it). Refusals raise MutationRejected / NotFound with the spec's status
value as the code; batch callers turn them into per-item results.
"""

from __future__ import annotations

import json
from datetime import timedelta

import apsw

from signet_pipeline.errors import Forbidden, InvalidRequest, MutationRejected, NotFound
from signet_pipeline.mutations.models import DeleteRequest, MemoryPatch, MutationResult, RecoverRequest
from signet_pipeline.recall.reads import visible
from signet_pipeline.service import MemoryService
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import history as history_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store import memory_writes as writes
from signet_pipeline.store.db import Row
from signet_pipeline.store.queue import enqueue_for_new_memory
from signet_pipeline.text.content import normalize_content
from signet_pipeline.timeutil import now_iso, parse_iso, to_iso
from signet_pipeline.write.remember import AUTONOMOUS, Actor, embed_missing, ensure_writable


def _reject(status: str, message: str, row: Row, http: int = 409) -> MutationRejected:
    return MutationRejected(message, code=status, status=http,
                            details={"id": row["id"], "status": status, "currentVersion": row["version"]})


def refusal(row: Row, agent_id: str, actor: Actor, project_scope: str | None = None) -> Forbidden | None:
    """Why the caller may not change a memory it can see, or None: an agent changes only its own
    memories (reading a shared one is not owning it), a project-scoped token only its project's."""
    details = {"id": row["id"], "status": "scope_denied"}
    if actor.type in AUTONOMOUS and row["agent_id"] != agent_id:
        return Forbidden(f"memory {row['id']} belongs to agent {row['agent_id']!r}", code="scope_denied",
                         details=details)
    if project_scope is not None and row["project"] != project_scope:
        return Forbidden(f"the token is scoped to project {project_scope!r}", code="scope_denied", details=details)
    return None


def target(conn: apsw.Connection, memory_id: str, agent_id: str, actor: Actor,
           project_scope: str | None = None) -> Row:
    """The row, deleted or not, if the acting agent may see it (another agent's private memory
    is as absent as a missing one) and may change it (`refusal`)."""
    row = mem_store.get(conn, memory_id, include_deleted=True)
    if row is None or not visible(conn, row, agent_id):
        raise NotFound(f"memory {memory_id} not found", details={"id": memory_id, "status": "not_found"})
    denied = refusal(row, agent_id, actor, project_scope)
    if denied is not None:
        raise denied
    return row


def _check_version(row: Row, if_version: int | None) -> None:
    if if_version is not None and if_version != row["version"]:
        raise _reject("version_conflict", f"memory is at version {row['version']}, not {if_version}", row)


def patch(svc: MemoryService, memory_id: str, req: MemoryPatch, *, reason: str, actor: Actor, agent_id: str,
          changed_by: str | None = None, project_scope: str | None = None) -> MutationResult:
    ensure_writable(svc)
    changes = req.changes()
    norm = normalize_content(changes["content"]) if "content" in changes else None
    if norm is not None and not norm.storage:
        raise InvalidRequest("content is empty once whitespace is removed", code="empty_content")
    vectors, stored = embed_missing(svc, [norm.storage]) if norm else ({}, set())
    who = actor.changed_by(changed_by)
    with svc.db.write() as conn:
        now = now_iso()
        row = target(conn, memory_id, agent_id, actor, project_scope)
        if row["is_deleted"]:
            raise _reject("deleted", "a deleted memory cannot be modified (recover it first)", row)
        _check_version(row, req.if_version)
        fields: dict = {}
        if norm is not None and norm.storage != row["content"]:
            if norm.content_hash != row["content_hash"]:
                twin = mem_store.find_live_by_hash(conn, row["agent_id"], norm.content_hash)
                if twin is not None and twin["id"] != memory_id:
                    raise _reject("duplicate_content_hash", f"memory {twin['id']} already holds this content", row)
            fields.update(content=norm.storage, normalized_content=norm.normalized, content_hash=norm.content_hash)
        if "type" in changes and changes["type"] != row["type"]:
            fields["type"] = changes["type"]
        if "tags" in changes and (changes["tags"] or []) != json.loads(row["tags"] or "[]"):
            fields["tags"] = json.dumps(changes["tags"] or [])
        if "importance" in changes and changes["importance"] != row["importance"]:
            fields["importance"] = changes["importance"]
        if "pinned" in changes and int(changes["pinned"]) != row["pinned"]:
            fields["pinned"] = int(changes["pinned"])
        if not fields:
            return MutationResult(id=memory_id, status="no_changes", currentVersion=row["version"],
                                  newVersion=row["version"], contentChanged=False)
        content_changed = "content" in fields
        embedded = None
        if norm is not None and "content_hash" in fields:  # the content changed
            vector = vectors.get(norm.content_hash)
            if vector is not None:
                emb_store.upsert(conn, content_hash=norm.content_hash, vector=vector, model=svc.embedder.model,
                                 source_id=memory_id, now=now)
            embedded = vector is not None or norm.content_hash in stored
            fields["embedding_model"] = svc.embedder.model if embedded else None
        version = writes.update(conn, memory_id, fields, now=now, actor=who)
        if "content_hash" in fields:
            emb_store.delete_unused_by_sources(conn, [memory_id])  # the old content's vector, if now unused
        history_store.record(
            conn, memory_id=memory_id, event="updated", now=now, changed_by=who, actor_type=actor.type,
            reason=reason, request_id=actor.request_id,
            old_content=row["content"] if content_changed else None,
            new_content=fields["content"] if content_changed else None,
            metadata={"fields": sorted(k for k in fields if k not in ("normalized_content", "content_hash",
                                                                       "embedding_model")),
                      "fromVersion": row["version"], "toVersion": version})
        if content_changed:  # the old content's hints went with it (trigger): ask for new ones
            enqueue_for_new_memory(conn, svc.settings.pipeline, memory_id=memory_id, now=now, extract=False)
    return MutationResult(id=memory_id, status="updated", currentVersion=row["version"], newVersion=version,
                          contentChanged=content_changed, embedded=embedded)


def delete(svc: MemoryService, memory_id: str, req: DeleteRequest, *, actor: Actor, agent_id: str,
           project_scope: str | None = None) -> MutationResult:
    ensure_writable(svc)
    with svc.db.write() as conn:
        now = now_iso()
        row = target(conn, memory_id, agent_id, actor, project_scope)
        if row["is_deleted"]:
            raise _reject("already_deleted", "memory is already deleted", row)
        _check_version(row, req.if_version)
        if row["pinned"] and not req.force:
            raise _reject("pinned_requires_force", "memory is pinned: pass force: true to delete it", row)
        if row["pinned"] and actor.type in AUTONOMOUS:
            raise _reject("autonomous_force_denied", f"a {actor.type} actor may not force-delete a pinned memory",
                          row, http=403)
        version = writes.soft_delete(conn, memory_id, now=now, actor=actor.name)
        history_store.record(conn, memory_id=memory_id, event="deleted", now=now, old_content=row["content"],
                             changed_by=actor.name, actor_type=actor.type, reason=req.reason,
                             request_id=actor.request_id, metadata={"force": req.force, "fromVersion": row["version"],
                                                                    "toVersion": version})
    return MutationResult(id=memory_id, status="deleted", currentVersion=row["version"], newVersion=version)


def recover(svc: MemoryService, memory_id: str, req: RecoverRequest, *, actor: Actor, agent_id: str,
            project_scope: str | None = None) -> MutationResult:
    ensure_writable(svc)
    window_days = svc.settings.pipeline.retention.tombstone_retention_days
    with svc.db.write() as conn:
        now = now_iso()
        row = target(conn, memory_id, agent_id, actor, project_scope)
        if not row["is_deleted"]:
            raise _reject("not_deleted", "memory is not deleted", row)
        _check_version(row, req.if_version)
        if row["deleted_at"] and row["deleted_at"] < to_iso(parse_iso(now) - timedelta(days=window_days)):
            raise _reject("retention_expired", f"deleted more than {window_days:g} days ago", row)
        twin = mem_store.find_live_by_hash(conn, row["agent_id"], row["content_hash"])
        if twin is not None:
            raise _reject("duplicate_content_hash", f"memory {twin['id']} holds this content now", row)
        version = writes.recover(conn, memory_id, now=now, actor=actor.name)
        history_store.record(conn, memory_id=memory_id, event="recovered", now=now, new_content=row["content"],
                             changed_by=actor.name, actor_type=actor.type, reason=req.reason,
                             request_id=actor.request_id, metadata={"fromVersion": row["version"],
                                                                    "toVersion": version})
    return MutationResult(id=memory_id, status="recovered", currentVersion=row["version"], newVersion=version,
                          retentionDays=int(window_days) if float(window_days).is_integer() else window_days)
