"""SQL for the agents table (read policies) and the read-policy clause every memory read uses."""

from __future__ import annotations

import apsw

from signet_pipeline.store.db import Row, one, rows, scalar

# Whether agent :agent_id may read the row `m` (memories alias), by its read policy. An agent
# not in the table reads as `shared` (the reference's default). The subqueries do not depend on
# the row, so SQLite evaluates them once per statement.
_POLICY = "coalesce((SELECT read_policy FROM agents WHERE id = :agent_id), 'shared')"
READ_POLICY_SQL = (
    "((m.agent_id = :agent_id AND m.visibility <> 'archived') OR (m.visibility = 'global' AND ("
    f"{_POLICY} = 'shared' OR ({_POLICY} = 'group' AND m.agent_id IN (SELECT id FROM agents WHERE "
    "policy_group = (SELECT policy_group FROM agents WHERE id = :agent_id))))))"
)


def can_read(conn: apsw.Connection, *, agent_id: str, owner: str, visibility: str) -> bool:
    """READ_POLICY_SQL for one row's owner and visibility (single-row reads)."""
    return bool(scalar(conn, f"SELECT {READ_POLICY_SQL} FROM (SELECT :owner AS agent_id, :visibility AS visibility) m",
                       {"agent_id": agent_id, "owner": owner, "visibility": visibility}))


def register_seen(conn: apsw.Connection, agent_id: str, now: str) -> None:
    """A first-seen agent reads as shared; an existing row (roster or seen) is kept."""
    conn.execute("INSERT INTO agents(id, read_policy, source, created_at, updated_at) "
                 "VALUES (?, 'shared', 'seen', ?, ?) ON CONFLICT(id) DO NOTHING", (agent_id, now, now))


def sync_roster(conn: apsw.Connection, roster: list[tuple[str, str, str | None]], now: str) -> int:
    """Apply the roster's (name, read policy, group) entries; returns rows changed."""
    changed = 0
    for name, policy, group in roster:
        changed += len(list(conn.execute(
            "INSERT INTO agents(id, read_policy, policy_group, source, created_at, updated_at) "
            "VALUES (?, ?, ?, 'roster', ?, ?) ON CONFLICT(id) DO UPDATE SET read_policy = excluded.read_policy, "
            "policy_group = excluded.policy_group, source = 'roster', updated_at = excluded.updated_at "
            "WHERE agents.read_policy IS NOT excluded.read_policy OR agents.policy_group IS NOT excluded.policy_group "
            "OR agents.source <> 'roster' RETURNING 1", (name, policy, group, now, now))))
    return changed


def all_agents(conn: apsw.Connection) -> list[Row]:
    return rows(conn, "SELECT id, read_policy, policy_group, source, created_at, updated_at FROM agents ORDER BY id")


def readable_owners(conn: apsw.Connection, agent_id: str) -> set[str] | None:
    """Owners whose global memories the agent may read: None for every owner (shared, the
    default), its group's agents (group), or none but itself (isolated)."""
    found = rows(conn, "SELECT read_policy, policy_group FROM agents WHERE id = ?", (agent_id,))
    policy = found[0]["read_policy"] if found else "shared"
    if policy == "shared":
        return None
    if policy == "isolated":
        return {agent_id}
    return {r[0] for r in conn.execute("SELECT id FROM agents WHERE policy_group = ?", (found[0]["policy_group"],))}


# -- the roster through the API (0026: source 'api') ---------------------------------------------

def get(conn: apsw.Connection, agent_id: str) -> Row | None:
    return one(conn, "SELECT id, read_policy, policy_group, source, created_at, updated_at FROM agents WHERE id = ?",
               (agent_id,))


def register_api(conn: apsw.Connection, agent_id: str, read_policy: str, group: str | None, now: str) -> None:
    """Create or update an agent from the API (a first-seen or API agent takes the given policy)."""
    conn.execute("INSERT INTO agents(id, read_policy, policy_group, source, created_at, updated_at) "
                 "VALUES (?, ?, ?, 'api', ?, ?) ON CONFLICT(id) DO UPDATE SET read_policy = excluded.read_policy, "
                 "policy_group = excluded.policy_group, source = 'api', updated_at = excluded.updated_at",
                 (agent_id, read_policy, group, now, now))


def delete(conn: apsw.Connection, agent_id: str) -> bool:
    return bool(list(conn.execute("DELETE FROM agents WHERE id = ? RETURNING 1", (agent_id,))))


def memory_count(conn: apsw.Connection, agent_id: str, reader: str | None = None) -> int:
    """The agent's live memories (archived ones included: they are still its own); with `reader`,
    only those that agent may read (another agent's private memories are not even counted)."""
    if reader is None:
        return int(scalar(conn, "SELECT count(*) FROM memories WHERE agent_id = ? AND is_deleted = 0",
                          (agent_id,)) or 0)
    return int(scalar(conn, f"SELECT count(*) FROM memories m WHERE m.agent_id = :owner AND m.is_deleted = 0 "
                            f"AND {READ_POLICY_SQL}", {"owner": agent_id, "agent_id": reader}) or 0)


def owned_memories(conn: apsw.Connection, agent_id: str, *, archived: bool, limit: int) -> list[Row]:
    """Up to `limit` of the agent's live memories (id, content), archived ones only with `archived`."""
    return rows(conn, "SELECT id, content FROM memories WHERE agent_id = ? AND is_deleted = 0 "
                      "AND (? OR visibility <> 'archived') ORDER BY rid LIMIT ?", (agent_id, archived, limit))
