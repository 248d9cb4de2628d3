-- Agents and their read policies (spec architecture "Multi-Agent Support"): the roster of
-- agent.yaml is synced here at start, and first-seen agentIds are registered as `shared`.
-- isolated: only its own memories; shared: global ones and its own; group: global ones of its
-- group's agents and its own.
CREATE TABLE IF NOT EXISTS agents (
    id           TEXT PRIMARY KEY,
    read_policy  TEXT NOT NULL DEFAULT 'shared' CHECK (read_policy IN ('isolated', 'shared', 'group')),
    policy_group TEXT,
    source       TEXT NOT NULL DEFAULT 'seen' CHECK (source IN ('roster', 'seen')),
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_agents_group ON agents(policy_group) WHERE policy_group IS NOT NULL;

-- Agents that already wrote memories keep what they saw before: shared.
INSERT OR IGNORE INTO agents(id, read_policy, source, created_at, updated_at)
    SELECT DISTINCT agent_id, 'shared', 'seen', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
           strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM memories;
