"""SQL for changing existing memory rows (PATCH, soft delete, recover). Every change bumps
`version` and `update_count`; the FTS index follows content through the triggers of 0001."""

from __future__ import annotations

from typing import Any

import apsw

from signet_pipeline.store.db import scalar

PATCHABLE = ("content", "normalized_content", "content_hash", "type", "tags", "importance", "pinned",
             "embedding_model")


def update(conn: apsw.Connection, memory_id: str, fields: dict[str, Any], *, now: str, actor: str) -> int:
    """Apply the fields to a live memory; returns the new version."""
    unknown = set(fields) - set(PATCHABLE)
    if unknown:
        raise ValueError(f"not patchable: {sorted(unknown)}")
    assignments = "".join(f"{name} = :{name}, " for name in fields)
    return int(scalar(conn, f"UPDATE memories SET {assignments}version = version + 1, "
                            "update_count = update_count + 1, updated_at = :now, updated_by = :actor "
                            "WHERE id = :id AND is_deleted = 0 RETURNING version",
                      {**fields, "now": now, "actor": actor, "id": memory_id}))


def soft_delete(conn: apsw.Connection, memory_id: str, *, now: str, actor: str) -> int:
    version = soft_delete_if_live(conn, memory_id, now=now, actor=actor)
    if version is None:
        raise ValueError(f"memory {memory_id} is not live")
    return version


def soft_delete_if_live(conn: apsw.Connection, memory_id: str, *, now: str, actor: str) -> int | None:
    """Tombstone the memory; its new version, or None when it was already deleted or is gone."""
    found = scalar(conn, "UPDATE memories SET is_deleted = 1, deleted_at = :now, updated_at = :now, "
                         "updated_by = :actor, version = version + 1, update_count = update_count + 1 "
                         "WHERE id = :id AND is_deleted = 0 RETURNING version",
                   {"now": now, "actor": actor, "id": memory_id})
    return int(found) if found is not None else None


def recover(conn: apsw.Connection, memory_id: str, *, now: str, actor: str) -> int:
    return int(scalar(conn, "UPDATE memories SET is_deleted = 0, deleted_at = NULL, updated_at = :now, "
                            "updated_by = :actor, version = version + 1, update_count = update_count + 1 "
                            "WHERE id = :id AND is_deleted = 1 RETURNING version",
                      {"now": now, "actor": actor, "id": memory_id}))
