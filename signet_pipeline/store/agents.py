"""SQL for the agents table (read policies) and the read-policy clause every memory read uses."""

from __future__ import annotations

import apsw

from signet_pipeline.store.db import Row, rows, scalar

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
    conn.execute("INSERT INTO agents(id, read_policy, source, created_at, updated_at) VALUES (?, 'shared', 'seen', ?, ?) "
                 "ON CONFLICT(id) DO NOTHING", (agent_id, now, now))


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
