"""SQL for the knowledge-graph family: entities, mentions, relations, aspects, attributes,
dependencies, communities; the navigation reads are in navigation.py, a memory's lineage (derived
facts, a session's summaries) in lineage.py. Every function runs inside the caller's transaction."""

from __future__ import annotations

import json
import uuid

import apsw

from signet_pipeline.store.db import Row, rows, scalar

CONSTELLATION_LIMIT = 500


def upsert_entity(conn: apsw.Connection, *, agent_id: str, name: str, canonical: str, now: str,
                  entity_type: str = "extracted") -> str:
    """The entity's id, created if new; a known type replaces 'extracted', and 'unknown' (the structural
    stage's answer when nothing told) gives way to a type the words around a later mention give."""
    return scalar(
        conn,
        "INSERT INTO entities(id, name, canonical_name, entity_type, agent_id, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(agent_id, canonical_name) "
        "DO UPDATE SET updated_at = excluded.updated_at, "
        "entity_type = CASE WHEN entities.entity_type = 'extracted' OR (entities.entity_type = 'unknown' "
        "AND excluded.entity_type <> 'extracted') THEN excluded.entity_type ELSE entities.entity_type END "
        "RETURNING id",
        (str(uuid.uuid4()), name, canonical, entity_type, agent_id, now, now),
    )


def add_mention(conn: apsw.Connection, *, memory_id: str, entity_id: str, mention_text: str, confidence: float,
                now: str) -> bool:
    """Link a memory to an entity; the entity's `mentions` grows only for a new link (idempotent)."""
    conn.execute("INSERT OR IGNORE INTO memory_entity_mentions(memory_id, entity_id, mention_text, confidence, "
                 "created_at) VALUES (?, ?, ?, ?, ?)", (memory_id, entity_id, mention_text, confidence, now))
    if conn.changes() == 0:
        return False
    conn.execute("UPDATE entities SET mentions = mentions + 1, updated_at = ? WHERE id = ?", (now, entity_id))
    return True


def upsert_aspect(conn: apsw.Connection, *, entity_id: str, name: str, now: str) -> str:
    return scalar(
        conn,
        "INSERT INTO entity_aspects(id, entity_id, name, canonical_name, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(entity_id, canonical_name) "
        "DO UPDATE SET updated_at = excluded.updated_at "
        "RETURNING id",
        (str(uuid.uuid4()), entity_id, name, name.strip().lower(), now, now),
    )


def add_attribute(conn: apsw.Connection, *, entity_id: str, aspect_id: str | None, memory_id: str, kind: str,
                  content: str, normalized: str, confidence: float, importance: float, now: str,
                  group_key: str | None = None, claim_key: str | None = None) -> str | None:
    """The new attribute's id, or None when this memory already gave the entity this attribute."""
    attribute_id = str(uuid.uuid4())
    conn.execute(
        "INSERT OR IGNORE INTO entity_attributes(id, entity_id, aspect_id, memory_id, kind, content, "
        "normalized_content, confidence, importance, group_key, claim_key, created_at, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (attribute_id, entity_id, aspect_id, memory_id, kind, content, normalized, confidence, importance, group_key,
         claim_key, now, now),
    )
    return attribute_id if conn.changes() else None


def claim_rivals(conn: apsw.Connection, *, entity_id: str, aspect_id: str, group_key: str | None, claim_key: str,
                 normalized: str, exclude_id: str) -> list[Row]:
    """Active attributes making the same grouped claim with other content, newest source first:
    (id, at) where `at` is when their memory says it was written (createdAt for backfills)."""
    return rows(conn, "SELECT a.id, coalesce(m.created_at, a.created_at) AS at FROM entity_attributes a "
                      "LEFT JOIN memories m ON m.id = a.memory_id WHERE a.entity_id = ? AND a.aspect_id = ? "
                      "AND a.group_key IS ? AND a.claim_key = ? AND a.id <> ? AND a.status = 'active' "
                      "AND a.normalized_content <> ? ORDER BY at DESC",
                (entity_id, aspect_id, group_key, claim_key, exclude_id, normalized))


def active_siblings(conn: apsw.Connection, *, entity_id: str, aspect_id: str, exclude_id: str,
                    containing: list[str], limit: int, scan: int) -> list[tuple[str, str]]:
    """(id, content) of the newest `scan` active attributes of the aspect (walked newest first on
    idx_attributes_aspect_recent, so a busy aspect costs `scan` rows, not all of them) that are
    plain ones on the same entity (constraints are never superseded) whose normalized content
    contains one of the given lowercase words (substring), at most `limit`. The words are OR-ed
    instr() terms, not a json_each join: one virtual table per scanned row cost more than the rest
    of remember on a busy aspect."""
    if not containing:
        return []
    words = " OR ".join("instr(normalized_content, ?) > 0" for _ in containing)
    return [(r[0], r[1]) for r in conn.execute(
        "SELECT id, content FROM (SELECT id, content, normalized_content, entity_id, kind, created_at "
        "FROM entity_attributes WHERE aspect_id = ? AND status = 'active' ORDER BY created_at DESC LIMIT ?) "
        f"WHERE entity_id = ? AND id <> ? AND kind = 'attribute' AND ({words}) ORDER BY created_at DESC LIMIT ?",
        (aspect_id, scan, entity_id, exclude_id, *containing, limit))]


def supersede_attribute(conn: apsw.Connection, attribute_id: str, *, by: str, now: str) -> None:
    conn.execute("UPDATE entity_attributes SET status = 'superseded', superseded_by = ?, updated_at = ? "
                 "WHERE id = ? AND status = 'active'", (by, now, attribute_id))


def link_relation(conn: apsw.Connection, *, source_id: str, target_id: str, relation_type: str, confidence: float,
                  memory_id: str, now: str) -> bool:
    """A memory asserts a relation (strength 1.0). The first assertion per memory counts: `mentions`
    grows and confidence becomes the running average; re-processing the memory changes nothing.
    Returns whether this memory's assertion is new."""
    relation_id = scalar(
        conn,
        "INSERT INTO relations(id, source_entity_id, target_entity_id, relation_type, mentions, confidence, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0, ?, ?) "
        "ON CONFLICT(source_entity_id, target_entity_id, relation_type) "
        "DO UPDATE SET relation_type = excluded.relation_type RETURNING id",
        (str(uuid.uuid4()), source_id, target_id, relation_type, now, now),
    )
    conn.execute("INSERT OR IGNORE INTO relation_mentions(relation_id, memory_id) VALUES (?, ?)",
                 (relation_id, memory_id))
    if conn.changes() == 0:
        return False
    conn.execute("UPDATE relations SET confidence = (confidence * mentions + ?) / (mentions + 1), "
                 "mentions = mentions + 1, updated_at = ? WHERE id = ?", (confidence, now, relation_id))
    return True


def upsert_dependency(conn: apsw.Connection, *, source_id: str, target_id: str, dependency_type: str,
                      strength: float, now: str) -> None:
    """Directed edge for traversal; a repeat keeps the strongest evidence."""
    conn.execute(
        "INSERT INTO entity_dependencies(id, source_entity_id, target_entity_id, dependency_type, strength, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(source_entity_id, target_entity_id, dependency_type) "
        "DO UPDATE SET strength = max(entity_dependencies.strength, excluded.strength), "
        "updated_at = excluded.updated_at",
        (str(uuid.uuid4()), source_id, target_id, dependency_type, strength, now, now),
    )


def forget_memories(conn: apsw.Connection, memory_ids: list[str], *, now: str) -> tuple[int, int]:
    """Retention hook for purged memories: drop their mentions, decrement `mentions` (floor 0),
    remove unpinned entities left with none (relations, aspects, attributes follow by cascade).
    Returns (entities decremented, entities removed)."""
    ids = json.dumps(memory_ids)
    counts = list(conn.execute(
        "SELECT entity_id, count(*) FROM memory_entity_mentions WHERE memory_id IN (SELECT value FROM json_each(?)) "
        "GROUP BY entity_id", (ids,)))
    conn.execute("DELETE FROM memory_entity_mentions WHERE memory_id IN (SELECT value FROM json_each(?))", (ids,))
    conn.execute("UPDATE entity_attributes SET status = 'deleted', updated_at = ? "
                 "WHERE memory_id IN (SELECT value FROM json_each(?)) AND status = 'active'", (now, ids))
    conn.executemany("UPDATE entities SET mentions = max(0, mentions - ?), updated_at = ? WHERE id = ?",
                     [(n, now, entity_id) for entity_id, n in counts])
    touched = json.dumps([entity_id for entity_id, _ in counts])
    conn.execute("DELETE FROM entities WHERE id IN (SELECT value FROM json_each(?)) AND mentions = 0 AND pinned = 0",
                 (touched,))
    return len(counts), conn.changes()


def list_entities(conn: apsw.Connection, *, agent_id: str, limit: int, offset: int, query: str | None = None,
                  entity_type: str | None = None) -> list[Row]:
    """Pinned first (most recently pinned first), then by mentions (spec listKnowledgeEntities)."""
    where = ["e.agent_id = :agent"]
    params: dict = {"agent": agent_id, "limit": limit, "offset": offset}
    if query:
        where.append("e.canonical_name LIKE :q ESCAPE '\\'")
        params["q"] = "%" + query.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    if entity_type:
        where.append("e.entity_type = :type")
        params["type"] = entity_type
    return rows(conn, "SELECT e.*, (SELECT count(*) FROM entity_aspects a WHERE a.entity_id = e.id) AS aspect_count "
                      f"FROM entities e WHERE {' AND '.join(where)} "
                      "ORDER BY e.pinned DESC, e.pinned_at DESC, e.mentions DESC, e.canonical_name "
                      "LIMIT :limit OFFSET :offset", params)


def count_entities(conn: apsw.Connection, agent_id: str) -> int:
    return int(scalar(conn, "SELECT count(*) FROM entities WHERE agent_id = ?", (agent_id,)) or 0)


def set_pinned(conn: apsw.Connection, *, entity_id: str, agent_id: str, pinned: bool, now: str) -> Row | None:
    found = rows(conn, "UPDATE entities SET pinned = ?, pinned_at = ?, updated_at = ? WHERE id = ? AND agent_id = ? "
                       "RETURNING *", (int(pinned), now if pinned else None, now, entity_id, agent_id))
    return found[0] if found else None


def constellation(conn: apsw.Connection, agent_id: str) -> dict[str, list[Row]]:
    """Up to 500 entities with mentions, a pin or an aspect; their aspects, active attributes and
    the dependencies between them (spec getKnowledgeGraphForConstellation)."""
    entities = rows(conn, "SELECT e.* FROM entities e WHERE e.agent_id = ? AND (e.mentions > 0 OR e.pinned = 1 OR "
                          "EXISTS (SELECT 1 FROM entity_aspects a WHERE a.entity_id = e.id)) "
                          "ORDER BY e.pinned DESC, e.mentions DESC LIMIT ?", (agent_id, CONSTELLATION_LIMIT))
    ids = json.dumps([e["id"] for e in entities])
    in_set = "(SELECT value FROM json_each(:ids))"
    return {
        "entities": entities,
        "aspects": rows(conn, f"SELECT * FROM entity_aspects WHERE entity_id IN {in_set} ORDER BY weight DESC",
                        {"ids": ids}),
        "attributes": rows(conn, f"SELECT * FROM entity_attributes WHERE entity_id IN {in_set} AND status = 'active' "
                                 "ORDER BY importance DESC", {"ids": ids}),
        "dependencies": rows(conn, f"SELECT * FROM entity_dependencies WHERE source_entity_id IN {in_set} "
                                   f"AND target_entity_id IN {in_set}", {"ids": ids}),
    }


def weighted_edges(conn: apsw.Connection, agent_id: str) -> list[tuple[str, str, float]]:
    """Undirected edge weights for community detection: dependencies and relations summed."""
    return [(r[0], r[1], float(r[2])) for r in conn.execute(
        "SELECT a, b, sum(w) FROM ("
        " SELECT min(d.source_entity_id, d.target_entity_id) AS a, max(d.source_entity_id, d.target_entity_id) AS b, "
        " d.strength AS w FROM entity_dependencies d JOIN entities e ON e.id = d.source_entity_id WHERE e.agent_id = ? "
        " UNION ALL "
        " SELECT min(r.source_entity_id, r.target_entity_id), max(r.source_entity_id, r.target_entity_id), "
        " r.confidence * r.mentions FROM relations r JOIN entities e ON e.id = r.source_entity_id WHERE e.agent_id = ?"
        ") WHERE a <> b GROUP BY a, b", (agent_id, agent_id))]


def names_and_mentions(conn: apsw.Connection, agent_id: str) -> dict[str, tuple[str, int]]:
    """entity id -> (name, mentions) for one agent (labels of communities)."""
    return {r[0]: (r[1], r[2]) for r in conn.execute(
        "SELECT id, name, mentions FROM entities WHERE agent_id = ?", (agent_id,))}


def graph_agents(conn: apsw.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT DISTINCT agent_id FROM entities ORDER BY agent_id")]


def replace_communities(conn: apsw.Connection, *, agent_id: str, assignment: dict[str, str],
                        communities: list[tuple[str, str, int]], modularity: float, now: str) -> None:
    """Persist one agent's partition: entity_communities rows and entities.community_id."""
    conn.execute("DELETE FROM entity_communities WHERE agent_id = ?", (agent_id,))
    conn.executemany("INSERT INTO entity_communities(id, agent_id, label, size, modularity, computed_at) "
                     "VALUES (?, ?, ?, ?, ?, ?)", [(cid, agent_id, label, size, modularity, now)
                                                   for cid, label, size in communities])
    conn.execute("UPDATE entities SET community_id = NULL WHERE agent_id = ?", (agent_id,))
    conn.executemany("UPDATE entities SET community_id = ? WHERE id = ?",
                     [(cid, entity_id) for entity_id, cid in assignment.items()])


# --- reads for recall (traversal) and session-start's constraints ---------------------------

def entities_named(conn: apsw.Connection, agent_id: str, canonical_names: list[str], limit: int,
                   entity_type: str | None = None) -> list[str]:
    """Entity ids whose canonical name is one of these, most mentioned first (index lookups)."""
    sql = ("SELECT id FROM entities WHERE agent_id = ? AND canonical_name IN (SELECT value FROM json_each(?))"
           + (" AND entity_type = ?" if entity_type else "") + " ORDER BY mentions DESC LIMIT ?")
    params = (agent_id, json.dumps(canonical_names), *((entity_type,) if entity_type else ()), limit)
    return [r[0] for r in conn.execute(sql, params)]


def pinned_entities(conn: apsw.Connection, agent_id: str) -> list[str]:
    return [r[0] for r in conn.execute("SELECT id FROM entities WHERE agent_id = ? AND pinned = 1", (agent_id,))]


def constraint_memories(conn: apsw.Connection, entity_id: str, limit: int) -> list[str]:
    """Memories of the entity's active constraints, most important first (no aspect cap:
    constraints always surface; `limit` only bounds the walk's work)."""
    return [r[0] for r in conn.execute(
        "SELECT memory_id FROM entity_attributes WHERE entity_id = ? AND kind = 'constraint' AND status = 'active' "
        "AND memory_id IS NOT NULL ORDER BY importance DESC LIMIT ?", (entity_id, limit))]


def aspect_memories(conn: apsw.Connection, entity_id: str, *, aspects: int, per_aspect: int) -> list[str]:
    """Memories of the top attributes (by importance) of the entity's top aspects (by weight):
    one index range per aspect, never a sort of all the entity's attributes."""
    out: list[str] = []
    for (aspect_id,) in conn.execute("SELECT id FROM entity_aspects WHERE entity_id = ? ORDER BY weight DESC LIMIT ?",
                                     (entity_id, aspects)).fetchall():
        out += [r[0] for r in conn.execute(
            "SELECT memory_id FROM entity_attributes WHERE aspect_id = ? AND status = 'active' AND kind = 'attribute' "
            "AND memory_id IS NOT NULL ORDER BY importance DESC LIMIT ?", (aspect_id, per_aspect))]
    return out


def dependency_neighbours(conn: apsw.Connection, entity_ids: list[str], *, min_strength: float,
                          limit: int) -> list[tuple[str, float]]:
    """One hop along outgoing dependency edges, strongest first."""
    return [(r[0], r[1]) for r in conn.execute(
        "SELECT target_entity_id, max(strength) AS s FROM entity_dependencies WHERE source_entity_id IN "
        "(SELECT value FROM json_each(?)) AND strength >= ? GROUP BY target_entity_id ORDER BY s DESC LIMIT ?",
        (json.dumps(entity_ids), min_strength, limit))]


def linked_entities(conn: apsw.Connection, memory_ids: list[str]) -> dict[str, list[tuple[str, int]]]:
    """memory id -> [(entity id, entity mentions)]."""
    out: dict[str, list[tuple[str, int]]] = {}
    for memory_id, entity_id, mentions in conn.execute(
            "SELECT m.memory_id, e.id, e.mentions FROM memory_entity_mentions m JOIN entities e ON e.id = m.entity_id "
            "WHERE m.memory_id IN (SELECT value FROM json_each(?))", (json.dumps(memory_ids),)):
        out.setdefault(memory_id, []).append((entity_id, mentions))
    return out


# --- structural classification -----------------------------------------------------------------

def entity_row(conn: apsw.Connection, entity_id: str) -> Row | None:
    found = rows(conn, "SELECT * FROM entities WHERE id = ?", (entity_id,))
    return found[0] if found else None


def aspect_names(conn: apsw.Connection, entity_id: str) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM entity_aspects WHERE entity_id = ? ORDER BY weight DESC, name",
                                       (entity_id,))]


def untyped_entities_of(conn: apsw.Connection, memory_id: str) -> list[str]:
    """The entities a memory mentions that are still typed 'extracted'."""
    return [r[0] for r in conn.execute("SELECT e.id FROM memory_entity_mentions m "
                                       "JOIN entities e ON e.id = m.entity_id "
                                       "WHERE m.memory_id = ? AND e.entity_type = 'extracted'", (memory_id,))]


def recent_attributes(conn: apsw.Connection, entity_id: str, limit: int) -> list[Row]:
    """The entity's active attributes, newest first (what is said of it, to type it)."""
    return rows(conn, "SELECT id, content, memory_id FROM entity_attributes WHERE entity_id = ? AND status = 'active' "
                      "ORDER BY created_at DESC, rowid DESC LIMIT ?", (entity_id, limit))


def unclassified_attributes(conn: apsw.Connection, entity_id: str, limit: int) -> list[Row]:
    """Active attributes the pipeline attached without an aspect yet, oldest first."""
    return rows(conn, "SELECT id, content, memory_id FROM entity_attributes WHERE entity_id = ? AND aspect_id IS NULL "
                      "AND status = 'active' ORDER BY created_at, rowid LIMIT ?", (entity_id, limit))


def classify_attribute(conn: apsw.Connection, attribute_id: str, *, aspect_id: str, kind: str, importance: float,
                       now: str) -> None:
    conn.execute("UPDATE entity_attributes SET aspect_id = ?, kind = ?, importance = max(importance, ?), "
                 "updated_at = ? WHERE id = ?", (aspect_id, kind, importance, now, attribute_id))


def set_entity_type(conn: apsw.Connection, entity_id: str, entity_type: str, now: str) -> bool:
    """Replace an 'extracted' type with an inferred one (a known type is never overwritten)."""
    conn.execute("UPDATE entities SET entity_type = ?, updated_at = ? WHERE id = ? AND entity_type = 'extracted'",
                 (entity_type, now, entity_id))
    return conn.changes() > 0


def aspect_confirmations(conn: apsw.Connection, memory_ids: list[str]) -> dict[str, int]:
    """aspect id -> how many of these memories back an active attribute of it."""
    if not memory_ids:
        return {}
    marks = ", ".join("?" * len(memory_ids))
    return dict(conn.execute(
        f"SELECT aspect_id, COUNT(DISTINCT memory_id) FROM entity_attributes WHERE memory_id IN ({marks}) "
        "AND status = 'active' AND aspect_id IS NOT NULL GROUP BY aspect_id", memory_ids))


def agent_aspects_of(conn: apsw.Connection, memory_id: str, agent_id: str) -> list[str]:
    """The aspects a memory's active attributes sit on, among the agent's own entities."""
    return [r[0] for r in conn.execute(
        "SELECT DISTINCT a.aspect_id FROM entity_attributes a JOIN entities e ON e.id = a.entity_id "
        "WHERE a.memory_id = ? AND a.status = 'active' AND a.aspect_id IS NOT NULL AND e.agent_id = ?",
        (memory_id, agent_id))]


def adjust_aspect_weights(conn: apsw.Connection, deltas: dict[str, float], *, low: float, high: float,
                          now: str) -> int:
    """weight += delta, clamped to [low, high]; returns the aspects changed."""
    changed = 0
    for aspect_id, delta in deltas.items():
        changed += len(list(conn.execute(
            "UPDATE entity_aspects SET weight = MIN(?, MAX(?, weight + ?)), updated_at = ? WHERE id = ? RETURNING 1",
            (high, low, delta, now, aspect_id))))
    return changed


def decay_stale_aspects(conn: apsw.Connection, agent_id: str, *, stale_before: str, rate: float,
                        floor: float) -> int:
    """Lower the weight of the agent's aspects not updated since `stale_before` (floored). Leaves
    updated_at alone, so an aspect nobody confirms keeps drifting down on each decay run."""
    return len(list(conn.execute(
        "UPDATE entity_aspects SET weight = MAX(?, weight - ?) WHERE weight > ? AND updated_at < ? "
        "AND entity_id IN (SELECT id FROM entities WHERE agent_id = ?) RETURNING 1",
        (floor, rate, floor, stale_before, agent_id))))
