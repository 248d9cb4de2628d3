-- Continuity scoring (spec memory-pipeline "Continuity Scoring"): how well the memories injected
-- into a session served it, judged at session end from its transcript. One row per session (a
-- resumed session's later summary replaces it); per-memory relevance goes to session_memories.
CREATE TABLE IF NOT EXISTS session_scores (
    session_key          TEXT PRIMARY KEY,
    agent_id             TEXT NOT NULL DEFAULT 'default',
    project              TEXT,
    harness              TEXT,
    score                REAL NOT NULL CHECK (score BETWEEN 0 AND 1),
    confidence           REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    memories_recalled    INTEGER NOT NULL DEFAULT 0,
    memories_used        INTEGER NOT NULL DEFAULT 0,
    novel_context_count  INTEGER NOT NULL DEFAULT 0,
    reasoning            TEXT,
    model                TEXT,
    created_at           TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_session_scores_project ON session_scores(project, created_at);
CREATE INDEX IF NOT EXISTS idx_session_scores_created ON session_scores(created_at);
