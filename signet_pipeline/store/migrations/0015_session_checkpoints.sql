-- Session checkpoints (spec "Session Checkpoints"): digests of a session's state for continuity
-- recovery, written on prompt intervals, before compaction and at session end (secrets redacted
-- first); session_activity is the running state they are built from. Both belong to the session's
-- agent: only it reads them back.
CREATE TABLE IF NOT EXISTS session_activity (
    session_key    TEXT PRIMARY KEY,
    agent_id       TEXT NOT NULL DEFAULT 'default',
    harness        TEXT,
    project        TEXT,
    prompt_count   INTEGER NOT NULL DEFAULT 0,
    recent_queries TEXT NOT NULL DEFAULT '[]',
    started_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS session_checkpoints (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    session_key        TEXT NOT NULL,
    agent_id           TEXT NOT NULL DEFAULT 'default',
    harness            TEXT,
    project            TEXT,
    project_normalized TEXT,
    trigger            TEXT NOT NULL CHECK (trigger IN ('periodic', 'pre_compaction', 'session_end', 'agent',
                                                        'explicit')),
    digest             TEXT NOT NULL,
    prompt_count       INTEGER NOT NULL DEFAULT 0,
    memory_queries     TEXT NOT NULL DEFAULT '[]',
    recent_remembers   TEXT NOT NULL DEFAULT '[]',
    created_at         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_session_checkpoints_session ON session_checkpoints(session_key, created_at);
CREATE INDEX IF NOT EXISTS idx_session_checkpoints_project ON session_checkpoints(agent_id, project_normalized, created_at);
