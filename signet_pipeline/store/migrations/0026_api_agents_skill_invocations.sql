-- Agents registered through POST /api/agents (source 'api'): the CHECK of 0012 knew only
-- 'roster' and 'seen', and SQLite cannot alter a CHECK, so the table is rebuilt with its rows.
-- The roster of agent.yaml still wins: it is synced over any row of the same name at start.
CREATE TABLE agents_rebuilt (
    id           TEXT PRIMARY KEY,
    read_policy  TEXT NOT NULL DEFAULT 'shared' CHECK (read_policy IN ('isolated', 'shared', 'group')),
    policy_group TEXT,
    source       TEXT NOT NULL DEFAULT 'seen' CHECK (source IN ('roster', 'seen', 'api')),
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
INSERT INTO agents_rebuilt(id, read_policy, policy_group, source, created_at, updated_at)
    SELECT id, read_policy, policy_group, source, created_at, updated_at FROM agents;
DROP TABLE agents;
ALTER TABLE agents_rebuilt RENAME TO agents;
CREATE INDEX IF NOT EXISTS idx_agents_group ON agents(policy_group) WHERE policy_group IS NOT NULL;

-- Skill invocations a harness reports (POST /api/hooks/skill-invocation), each its agent's own.
-- Counts, names and outcomes only: no arguments (they may quote the user). One row per tool call
-- (a repeated report of the same toolUseId is the same invocation); the newest rows are kept.
CREATE TABLE IF NOT EXISTS skill_invocations (
    id          INTEGER PRIMARY KEY,
    agent_id    TEXT NOT NULL DEFAULT 'default',
    harness     TEXT NOT NULL,
    skill_name  TEXT NOT NULL,
    session_key TEXT,
    tool_use_id TEXT,
    origin      TEXT,
    success     INTEGER NOT NULL DEFAULT 1 CHECK (success IN (0, 1)),
    latency_ms  INTEGER CHECK (latency_ms IS NULL OR latency_ms >= 0),
    error_text  TEXT,
    created_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_skill_invocations_tool_use
    ON skill_invocations(agent_id, tool_use_id) WHERE tool_use_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_skill_invocations_agent ON skill_invocations(agent_id, created_at);
