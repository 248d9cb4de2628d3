-- Sessions through the API (issue 25): a bypassed session's hooks answer nothing (POST
-- /api/sessions/{key}/bypass sets bypassed_at), and the runtime path it started on (plugin |
-- legacy) is what GET /api/sessions lists it with.
ALTER TABLE sessions ADD COLUMN bypassed_at TEXT;
ALTER TABLE sessions ADD COLUMN runtime_path TEXT;
CREATE INDEX IF NOT EXISTS idx_sessions_agent_started ON sessions(agent_id, started_at);

-- Session search (POST /api/sessions/search) reads transcripts through a full-text index. An
-- external-content index needs a stable integer row id, which a table keyed by session_key does
-- not have (VACUUM may renumber implicit rowids), so the table is rebuilt with one, rows kept.
CREATE TABLE session_transcripts_rebuilt (
    rid              INTEGER PRIMARY KEY,
    session_key      TEXT NOT NULL UNIQUE,
    content          TEXT NOT NULL,
    harness          TEXT,
    project          TEXT,
    agent_id         TEXT NOT NULL DEFAULT 'default',
    created_at       TEXT NOT NULL,
    summarized_turns INTEGER NOT NULL DEFAULT 0,
    summarized_hash  TEXT,
    updated_at       TEXT
);
INSERT INTO session_transcripts_rebuilt(session_key, content, harness, project, agent_id, created_at,
                                        summarized_turns, summarized_hash, updated_at)
    SELECT session_key, content, harness, project, agent_id, created_at, summarized_turns, summarized_hash,
           updated_at FROM session_transcripts ORDER BY created_at;
DROP TABLE session_transcripts;
ALTER TABLE session_transcripts_rebuilt RENAME TO session_transcripts;
CREATE INDEX IF NOT EXISTS idx_session_transcripts_project ON session_transcripts(project);
CREATE INDEX IF NOT EXISTS idx_session_transcripts_created ON session_transcripts(created_at);
CREATE INDEX IF NOT EXISTS idx_session_transcripts_agent ON session_transcripts(agent_id);

CREATE VIRTUAL TABLE IF NOT EXISTS session_transcripts_fts USING fts5(
    content,
    content = 'session_transcripts',
    content_rowid = 'rid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO session_transcripts_fts(session_transcripts_fts) VALUES ('rebuild');

CREATE TRIGGER IF NOT EXISTS session_transcripts_ai AFTER INSERT ON session_transcripts BEGIN
    INSERT INTO session_transcripts_fts(rowid, content) VALUES (new.rid, new.content);
END;
CREATE TRIGGER IF NOT EXISTS session_transcripts_ad AFTER DELETE ON session_transcripts BEGIN
    INSERT INTO session_transcripts_fts(session_transcripts_fts, rowid, content) VALUES ('delete', old.rid, old.content);
END;
-- Only content changes touch the index (summary progress updates must not rewrite it).
CREATE TRIGGER IF NOT EXISTS session_transcripts_au AFTER UPDATE OF content ON session_transcripts BEGIN
    INSERT INTO session_transcripts_fts(session_transcripts_fts, rowid, content) VALUES ('delete', old.rid, old.content);
    INSERT INTO session_transcripts_fts(rowid, content) VALUES (new.rid, new.content);
END;
