"""SQL of one agent's graph as a tree, read a step at a time (the reference's /api/knowledge/navigation/*):
an entity by name or id, its aspects, the groups (groupKey) and claims (claimKey) inside an
aspect, the attributes of one claim, constraints and outgoing dependencies. Every read is
scoped to the agent through the entity, the only table that names it.

Attributes without a groupKey sit in the group `general`. Group and claim keys are compared as
`key_name` (lowercase, spaces as underscores), so `Favorite Restaurant` finds `favorite_restaurant`."""

from __future__ import annotations

import json

import apsw

from signet_pipeline.store.db import Row, one, rows

GENERAL = "general"
# An attribute's group and claim as compared (see key_name).
_GROUP = "lower(replace(coalesce({t}.group_key, 'general'), ' ', '_'))"
_CLAIM = "lower(replace({t}.claim_key, ' ', '_'))"


def _like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def resolve_entity(conn: apsw.Connection, agent_id: str, canonical: str) -> Row | None:
    """The agent's entity best matching a canonical name: exact, then a name starting with it,
    then one containing it; the most mentioned first."""
    return one(conn, "SELECT * FROM entities WHERE agent_id = :agent AND canonical_name LIKE :contains ESCAPE '\\' "
                     "ORDER BY CASE WHEN canonical_name = :name THEN 0 WHEN canonical_name LIKE :starts ESCAPE '\\' "
                     "THEN 1 ELSE 2 END, mentions DESC, updated_at DESC, name LIMIT 1",
               {"agent": agent_id, "name": canonical, "starts": _like(canonical) + "%",
                "contains": "%" + _like(canonical) + "%"})


def entity(conn: apsw.Connection, agent_id: str, entity_id: str) -> Row | None:
    return one(conn, "SELECT * FROM entities WHERE id = ? AND agent_id = ?", (entity_id, agent_id))


def entity_counts(conn: apsw.Connection, entity_ids: list[str]) -> dict[str, Row]:
    """entity id -> its aspects, active attributes and constraints, outgoing and incoming
    dependencies (per-entity index lookups: a page costs its own rows, not the graph)."""
    found = rows(conn, """
        SELECT e.id,
          (SELECT count(*) FROM entity_aspects a WHERE a.entity_id = e.id) AS aspect_count,
          (SELECT count(*) FROM entity_attributes t WHERE t.entity_id = e.id AND t.kind = 'attribute'
             AND t.status = 'active') AS attribute_count,
          (SELECT count(*) FROM entity_attributes t WHERE t.entity_id = e.id AND t.kind = 'constraint'
             AND t.status = 'active') AS constraint_count,
          (SELECT count(*) FROM entity_dependencies d WHERE d.source_entity_id = e.id) AS outgoing,
          (SELECT count(*) FROM entity_dependencies d WHERE d.target_entity_id = e.id) AS incoming
        FROM entities e WHERE e.id IN (SELECT value FROM json_each(?))""", (json.dumps(entity_ids),))
    return {r["id"]: r for r in found}


def aspects(conn: apsw.Connection, entity_id: str, *, limit: int, containing: str | None = None) -> list[Row]:
    """The entity's aspects, heaviest first, with their active attribute and constraint counts
    and how many groups and claims they hold; `containing`: only aspects whose name holds it."""
    return rows(conn, f"""
        SELECT a.*,
          (SELECT count(*) FROM entity_attributes t WHERE t.aspect_id = a.id AND t.status = 'active'
             AND t.kind = 'attribute') AS attribute_count,
          (SELECT count(*) FROM entity_attributes t WHERE t.aspect_id = a.id AND t.status = 'active'
             AND t.kind = 'constraint') AS constraint_count,
          (SELECT count(DISTINCT {_GROUP.format(t='t')}) FROM entity_attributes t WHERE t.aspect_id = a.id
             AND t.status <> 'deleted') AS group_count,
          (SELECT count(DISTINCT {_GROUP.format(t='t')} || ':' || {_CLAIM.format(t='t')}) FROM entity_attributes t
             WHERE t.aspect_id = a.id AND t.status <> 'deleted' AND t.claim_key IS NOT NULL) AS claim_count
        FROM entity_aspects a WHERE a.entity_id = :entity
          AND (:containing IS NULL OR a.canonical_name LIKE :containing ESCAPE '\\')
        ORDER BY a.weight DESC, a.name LIMIT :limit""",
                {"entity": entity_id, "limit": limit,
                 "containing": None if containing is None else "%" + _like(containing) + "%"})


def aspect(conn: apsw.Connection, entity_id: str, canonical: str) -> Row | None:
    return one(conn, "SELECT * FROM entity_aspects WHERE entity_id = ? AND canonical_name = ?", (entity_id, canonical))


def groups(conn: apsw.Connection, aspect_id: str, *, limit: int) -> list[Row]:
    """The groups of an aspect (history included, deleted rows not), the fullest first."""
    return rows(conn, f"""
        SELECT {_GROUP.format(t='t')} AS group_key,
          count(CASE WHEN t.kind = 'attribute' AND t.status = 'active' THEN 1 END) AS attribute_count,
          count(CASE WHEN t.kind = 'constraint' AND t.status = 'active' THEN 1 END) AS constraint_count,
          count(DISTINCT {_CLAIM.format(t='t')}) AS claim_count, max(t.updated_at) AS latest_updated_at
        FROM entity_attributes t WHERE t.aspect_id = ? AND t.status <> 'deleted'
        GROUP BY 1 ORDER BY attribute_count DESC, constraint_count DESC, group_key LIMIT ?""", (aspect_id, limit))


def claims(conn: apsw.Connection, aspect_id: str, group: str, *, limit: int, offset: int = 0) -> list[Row]:
    """The claims of one group: counts by kind and status, and the most important active
    attribute as a preview; claims with something active first, then the latest changed."""
    return rows(conn, f"""
        SELECT {_CLAIM.format(t='t')} AS claim_key, max(t.group_key) AS group_key,
          count(CASE WHEN t.kind = 'attribute' THEN 1 END) AS attribute_count,
          count(CASE WHEN t.kind = 'constraint' THEN 1 END) AS constraint_count,
          count(CASE WHEN t.status = 'active' THEN 1 END) AS active_count,
          count(CASE WHEN t.status = 'superseded' THEN 1 END) AS superseded_count,
          max(t.updated_at) AS latest_updated_at,
          (SELECT p.content FROM entity_attributes p WHERE p.aspect_id = :aspect AND p.status = 'active'
             AND {_GROUP.format(t='p')} = :group AND {_CLAIM.format(t='p')} = {_CLAIM.format(t='t')}
             ORDER BY p.importance DESC, p.updated_at DESC LIMIT 1) AS preview
        FROM entity_attributes t WHERE t.aspect_id = :aspect AND t.status <> 'deleted'
          AND t.claim_key IS NOT NULL AND {_GROUP.format(t='t')} = :group
        GROUP BY 1 ORDER BY active_count > 0 DESC, latest_updated_at DESC, claim_key LIMIT :limit OFFSET :offset""",
                {"aspect": aspect_id, "group": group, "limit": limit, "offset": offset})


def claim_attributes(conn: apsw.Connection, aspect_id: str, group: str, claim: str, *, kind: str | None,
                     status: str, limit: int, offset: int) -> list[Row]:
    """The attributes of one claim, newest first; `status` 'all' includes history."""
    return rows(conn, f"""
        SELECT * FROM entity_attributes t WHERE t.aspect_id = :aspect AND {_GROUP.format(t='t')} = :group
          AND {_CLAIM.format(t='t')} = :claim AND (:kind IS NULL OR t.kind = :kind)
          AND (:status = 'all' OR t.status = :status)
        ORDER BY t.created_at DESC, t.importance DESC LIMIT :limit OFFSET :offset""",
                {"aspect": aspect_id, "group": group, "claim": claim, "kind": kind, "status": status,
                 "limit": limit, "offset": offset})


def aspect_attributes(conn: apsw.Connection, aspect_id: str, limit: int) -> list[Row]:
    """An aspect's active attributes and constraints, most important first."""
    return rows(conn, "SELECT * FROM entity_attributes WHERE aspect_id = ? AND status = 'active' "
                      "ORDER BY importance DESC, created_at DESC LIMIT ?", (aspect_id, limit))


def constraints(conn: apsw.Connection, entity_ids: list[str], limit: int) -> list[Row]:
    """Active constraints of these entities, most important first, with the entity's name."""
    return rows(conn, "SELECT t.*, e.name AS entity_name FROM entity_attributes t "
                      "JOIN entities e ON e.id = t.entity_id WHERE t.entity_id IN (SELECT value FROM json_each(?)) "
                      "AND t.kind = 'constraint' AND t.status = 'active' "
                      "ORDER BY t.importance DESC, t.created_at DESC LIMIT ?",
                (json.dumps(entity_ids), limit))


def dependencies_from(conn: apsw.Connection, entity_id: str, *, min_strength: float, limit: int) -> list[Row]:
    """Outgoing dependency edges at least this strong, strongest first, with the target's name."""
    return rows(conn, "SELECT d.*, e.name AS target_name FROM entity_dependencies d "
                      "JOIN entities e ON e.id = d.target_entity_id WHERE d.source_entity_id = ? AND d.strength >= ? "
                      "ORDER BY d.strength DESC, e.name LIMIT ?", (entity_id, min_strength, limit))
