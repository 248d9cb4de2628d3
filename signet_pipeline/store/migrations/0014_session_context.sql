-- Session context ledger (spec recall "sessionKey"): what a session has been given in its current
-- context epoch (recall results and injections), so recall does not repeat it; compaction starts
-- a new epoch. And lossless session transcripts, stored at session end (recall `expand`).
CREATE TABLE IF NOT EXISTS session_context (
    session_key   TEXT NOT NULL,
    agent_id      TEXT NOT NULL,
    context_epoch INTEGER NOT NULL DEFAULT 0,
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (session_key, agent_id)
);

CREATE TABLE IF NOT EXISTS session_recalls (
    session_key   TEXT NOT NULL,
    agent_id      TEXT NOT NULL,
    context_epoch INTEGER NOT NULL,
    memory_id     TEXT NOT NULL,
    first_at      TEXT NOT NULL,
    PRIMARY KEY (session_key, agent_id, context_epoch, memory_id)
);

CREATE TABLE IF NOT EXISTS session_transcripts (
    session_key TEXT PRIMARY KEY,
    content     TEXT NOT NULL,
    harness     TEXT,
    project     TEXT,
    agent_id    TEXT NOT NULL DEFAULT 'default',
    created_at  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_session_transcripts_project ON session_transcripts(project);
CREATE INDEX IF NOT EXISTS idx_session_transcripts_created ON session_transcripts(created_at);
