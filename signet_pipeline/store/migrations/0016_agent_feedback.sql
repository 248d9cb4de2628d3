-- Agent feedback on memories (spec "agent_feedback", the memory_feedback MCP tool): an agent
-- says a memory it was given helped (positive), misled or was irrelevant (negative), or is wrong
-- and what is right (correction); the reference clients' ratings (-1..1) keep their score.
-- Rows go with their memory when retention purges it.
CREATE TABLE IF NOT EXISTS agent_feedback (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id       TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    agent_id        TEXT NOT NULL DEFAULT 'default',
    session_id      TEXT,
    feedback_type   TEXT NOT NULL CHECK (feedback_type IN ('positive', 'negative', 'correction')),
    score           REAL CHECK (score IS NULL OR score BETWEEN -1 AND 1),
    correction_text TEXT,
    actor           TEXT NOT NULL,
    actor_type      TEXT,
    created_at      TEXT NOT NULL,
    CHECK (feedback_type <> 'correction' OR correction_text IS NOT NULL)
);
CREATE INDEX IF NOT EXISTS idx_agent_feedback_memory ON agent_feedback(memory_id, created_at);
CREATE INDEX IF NOT EXISTS idx_agent_feedback_created ON agent_feedback(created_at);
