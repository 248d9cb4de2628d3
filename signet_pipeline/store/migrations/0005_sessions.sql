-- Harness sessions (spec hooks): one row per session key, so session-end work (aspect feedback)
-- runs once per session however often a client repeats the call.
CREATE TABLE IF NOT EXISTS sessions (
    session_key TEXT PRIMARY KEY,
    agent_id    TEXT NOT NULL DEFAULT 'default',
    harness     TEXT,
    project     TEXT,
    started_at  TEXT NOT NULL,
    ended_at    TEXT,
    end_reason  TEXT
);

-- Memories a session saw (spec session_memories): injected at session start with their rank,
-- and how often a later full-text search of the same session hit them (aspect feedback input).
CREATE TABLE IF NOT EXISTS session_memories (
    session_key     TEXT NOT NULL,
    memory_id       TEXT NOT NULL,
    agent_id        TEXT NOT NULL DEFAULT 'default',
    was_injected    INTEGER NOT NULL DEFAULT 0,
    rank            INTEGER,
    relevance_score REAL,
    fts_hit_count   INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    PRIMARY KEY (session_key, memory_id)
);
CREATE INDEX IF NOT EXISTS idx_session_memories_memory ON session_memories(memory_id);

-- Aspect feedback per agent: the session counter that throttles decay, and cumulative telemetry
-- (kept in the store, not in process memory, so it survives restarts and every process sees it).
CREATE TABLE IF NOT EXISTS aspect_feedback_state (
    agent_id             TEXT PRIMARY KEY,
    sessions_since_decay INTEGER NOT NULL DEFAULT 0,
    sessions_applied     INTEGER NOT NULL DEFAULT 0,
    aspects_updated      INTEGER NOT NULL DEFAULT 0,
    fts_confirmations    INTEGER NOT NULL DEFAULT 0,
    decayed_aspects      INTEGER NOT NULL DEFAULT 0,
    last_decay_at        TEXT,
    updated_at           TEXT NOT NULL
);
