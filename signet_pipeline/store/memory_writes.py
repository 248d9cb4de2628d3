"""SQL for changing existing memory rows (PATCH, soft delete, recover, archive, merging duplicates).
Every change bumps `version` and `update_count`; the FTS index follows content through the
triggers of 0001."""

from __future__ import annotations

import json
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
    return soft_delete_many(conn, [memory_id], now=now, actor=actor).get(memory_id)


def recover(conn: apsw.Connection, memory_id: str, *, now: str, actor: str) -> int:
    return int(scalar(conn, "UPDATE memories SET is_deleted = 0, deleted_at = NULL, updated_at = :now, "
                            "updated_by = :actor, version = version + 1, update_count = update_count + 1 "
                            "WHERE id = :id AND is_deleted = 1 RETURNING version",
                      {"now": now, "actor": actor, "id": memory_id}))


def soft_delete_many(conn: apsw.Connection, memory_ids: list[str], *, now: str, actor: str) -> dict[str, int]:
    """Tombstone the live ones of these memories (retention purges them after its window);
    returns id -> new version for each one changed."""
    return {r[0]: int(r[1]) for r in conn.execute(
        "UPDATE memories SET is_deleted = 1, deleted_at = :now, updated_at = :now, updated_by = :actor, "
        "version = version + 1, update_count = update_count + 1 "
        "WHERE id IN (SELECT value FROM json_each(:ids)) AND is_deleted = 0 RETURNING id, version",
        {"now": now, "actor": actor, "ids": json.dumps(memory_ids)})}


def archive_many(conn: apsw.Connection, memory_ids: list[str], *, now: str, actor: str) -> dict[str, int]:
    """Set the live, not yet archived ones of these memories to visibility `archived` (no agent
    reads them, their owner neither); returns id -> new version for each one changed."""
    return {r[0]: int(r[1]) for r in conn.execute(
        "UPDATE memories SET visibility = 'archived', updated_at = :now, updated_by = :actor, "
        "version = version + 1, update_count = update_count + 1 "
        "WHERE id IN (SELECT value FROM json_each(:ids)) AND is_deleted = 0 AND visibility <> 'archived' "
        "RETURNING id, version", {"now": now, "actor": actor, "ids": json.dumps(memory_ids)})}


def _move_links(conn: apsw.Connection, ids: str, keep: str, now: str, links: str, target: str, counted: str, *,
                floor: int) -> tuple[int, int]:
    """Repoint the dropped memories' rows of a link table (`links`, linking to `target` ids of the
    `counted` table) at the keeper; a link the keeper already has is removed and its target's
    mention count lowered (not below `floor`). Returns (moved, merged). Table names are literals."""
    conn.execute(f"UPDATE OR IGNORE {links} SET memory_id = ? WHERE memory_id IN (SELECT value FROM json_each(?))",
                 (keep, ids))
    moved = conn.changes()
    repeats = list(conn.execute(f"SELECT {target}, count(*) FROM {links} WHERE memory_id IN "
                                "(SELECT value FROM json_each(?)) GROUP BY " + target, (ids,)))
    conn.execute(f"DELETE FROM {links} WHERE memory_id IN (SELECT value FROM json_each(?))", (ids,))
    conn.executemany(f"UPDATE {counted} SET mentions = max({floor}, mentions - ?), updated_at = ? WHERE id = ?",
                     [(n, now, target_id) for target_id, n in repeats])
    return moved, sum(n for _, n in repeats)


def merge_references(conn: apsw.Connection, dropped: list[str], keep: str, *, now: str) -> dict[str, int]:
    """Point everything that referenced the dropped memories at `keep`: entity mentions (a link the
    keeper already has is removed and its entity's count lowered), entity attributes (a duplicate
    of the keeper's own is marked deleted), relation assertions (a repeat lowers the relation's
    mention count), derived facts' provenance and supersession targets."""
    ids = json.dumps(dropped)
    moved_mentions, mentions_merged = _move_links(conn, ids, keep, now, "memory_entity_mentions", "entity_id",
                                                   "entities", floor=0)
    conn.execute("UPDATE OR IGNORE entity_attributes SET memory_id = ?, updated_at = ? WHERE memory_id IN "
                 "(SELECT value FROM json_each(?))", (keep, now, ids))
    moved_attributes = conn.changes()
    conn.execute("UPDATE entity_attributes SET status = 'deleted', updated_at = ? WHERE memory_id IN "
                 "(SELECT value FROM json_each(?)) AND status = 'active'", (now, ids))
    moved_relations, _ = _move_links(conn, ids, keep, now, "relation_mentions", "relation_id", "relations", floor=1)
    conn.execute("UPDATE memories SET source_memory_id = ? WHERE source_memory_id IN (SELECT value FROM json_each(?)) "
                 "AND id <> ?", (keep, ids, keep))  # a keeper derived from a dropped twin keeps its provenance
    derived = conn.changes()
    conn.execute("UPDATE memories SET superseded_by = ? WHERE superseded_by IN (SELECT value FROM json_each(?))",
                 (keep, ids))
    return {"mentionsMoved": moved_mentions, "mentionsMerged": mentions_merged,
            "attributesMoved": moved_attributes, "relationAssertionsMoved": moved_relations,
            "derivedFactsRepointed": derived, "supersessionsRepointed": conn.changes()}
