-- Core memory store: memories + FTS5 (external content), embeddings, history, jobs.
-- Idempotent: every statement can run again on a database that already has it.

CREATE TABLE IF NOT EXISTS memories (
    rid                INTEGER PRIMARY KEY,          -- stable rowid for the FTS external content
    id                 TEXT NOT NULL UNIQUE,         -- UUID exposed by the API
    type               TEXT NOT NULL DEFAULT 'fact',
    category           TEXT,
    content            TEXT NOT NULL,
    normalized_content TEXT NOT NULL,
    content_hash       TEXT NOT NULL,
    confidence         REAL,
    importance         REAL NOT NULL DEFAULT 0.8 CHECK (importance >= 0 AND importance <= 1),
    tags               TEXT NOT NULL DEFAULT '[]',   -- JSON array of strings
    who                TEXT,
    why                TEXT,
    project            TEXT,
    session_id         TEXT,
    source_id          TEXT,
    source_type        TEXT NOT NULL DEFAULT 'manual',
    source_path        TEXT,
    runtime_path       TEXT,
    idempotency_key    TEXT,
    pinned             INTEGER NOT NULL DEFAULT 0,
    agent_id           TEXT NOT NULL DEFAULT 'default',
    visibility         TEXT NOT NULL DEFAULT 'global' CHECK (visibility IN ('global', 'private', 'archived')),
    is_deleted         INTEGER NOT NULL DEFAULT 0,
    deleted_at         TEXT,
    extraction_status  TEXT NOT NULL DEFAULT 'none',
    extraction_model   TEXT,
    embedding_model    TEXT,
    version            INTEGER NOT NULL DEFAULT 1,
    update_count       INTEGER NOT NULL DEFAULT 0,
    access_count       INTEGER NOT NULL DEFAULT 0,
    last_accessed      TEXT,
    occurred_at        TEXT,
    observed_at        TEXT,
    source_created_at  TEXT,
    valid_from         TEXT,
    valid_until        TEXT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    updated_by         TEXT
);

-- Content-hash dedup is scoped per agent: two agents may each hold the same text, and a write
-- never returns (or is swallowed by) another agent's memory. Vectors are shared by hash.
CREATE UNIQUE INDEX IF NOT EXISTS idx_memories_agent_content_hash_unique
    ON memories(agent_id, content_hash) WHERE content_hash IS NOT NULL AND is_deleted = 0;
CREATE INDEX IF NOT EXISTS idx_memories_content_hash ON memories(content_hash);
CREATE INDEX IF NOT EXISTS idx_memories_idempotency
    ON memories(agent_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_memories_source_id ON memories(source_id) WHERE source_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_memories_created_at ON memories(created_at);
CREATE INDEX IF NOT EXISTS idx_memories_type ON memories(type);
CREATE INDEX IF NOT EXISTS idx_memories_who ON memories(who);
CREATE INDEX IF NOT EXISTS idx_memories_agent ON memories(agent_id, visibility);
-- Partial: an index on is_deleted would tempt the planner to serve every `is_deleted = 0` read
-- through it (a scan of all live rows) instead of the content_hash / id indexes.
CREATE INDEX IF NOT EXISTS idx_memories_tombstones ON memories(deleted_at) WHERE is_deleted = 1;

CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
    content,
    content = 'memories',
    content_rowid = 'rid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Per-term document counts, read by recall to leave out the most frequent query words when a
-- query would otherwise make BM25 score a large share of the store.
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts_vocab USING fts5vocab(memories_fts, 'row');

CREATE TRIGGER IF NOT EXISTS memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, content) VALUES (new.rid, new.content);
END;
CREATE TRIGGER IF NOT EXISTS memories_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content) VALUES ('delete', old.rid, old.content);
END;
-- Only content changes touch the index: access tracking updates must not rewrite FTS rows.
CREATE TRIGGER IF NOT EXISTS memories_au AFTER UPDATE OF content ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content) VALUES ('delete', old.rid, old.content);
    INSERT INTO memories_fts(rowid, content) VALUES (new.rid, new.content);
END;

CREATE TABLE IF NOT EXISTS embeddings (
    id           INTEGER PRIMARY KEY,
    content_hash TEXT NOT NULL UNIQUE,
    vector       BLOB NOT NULL,                 -- float32 little-endian, L2-normalized
    dimensions   INTEGER NOT NULL CHECK (dimensions > 0),
    model        TEXT NOT NULL,
    source_type  TEXT NOT NULL DEFAULT 'memory',
    source_id    TEXT,
    chunk_text   TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_embeddings_source ON embeddings(source_id);
CREATE INDEX IF NOT EXISTS idx_embeddings_model ON embeddings(model, dimensions);

-- Change log that lets every process keep an in-memory vector index in sync with the table,
-- whichever process (API, Dagster run) wrote the change.
CREATE TABLE IF NOT EXISTS embedding_changes (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    embedding_id INTEGER NOT NULL,
    op           TEXT NOT NULL CHECK (op IN ('upsert', 'delete'))
);
CREATE TRIGGER IF NOT EXISTS embeddings_ai AFTER INSERT ON embeddings BEGIN
    INSERT INTO embedding_changes(embedding_id, op) VALUES (new.id, 'upsert');
END;
CREATE TRIGGER IF NOT EXISTS embeddings_au AFTER UPDATE OF vector, model, dimensions, content_hash ON embeddings BEGIN
    INSERT INTO embedding_changes(embedding_id, op) VALUES (new.id, 'upsert');
END;
CREATE TRIGGER IF NOT EXISTS embeddings_ad AFTER DELETE ON embeddings BEGIN
    INSERT INTO embedding_changes(embedding_id, op) VALUES (old.id, 'delete');
END;

CREATE TABLE IF NOT EXISTS memory_history (
    id          TEXT PRIMARY KEY,
    memory_id   TEXT NOT NULL,
    event       TEXT NOT NULL,
    old_content TEXT,
    new_content TEXT,
    changed_by  TEXT,
    actor_type  TEXT,
    reason      TEXT,
    metadata    TEXT,
    session_id  TEXT,
    request_id  TEXT,
    created_at  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_memory_history_memory ON memory_history(memory_id, created_at);
CREATE INDEX IF NOT EXISTS idx_memory_history_created ON memory_history(created_at);

CREATE TABLE IF NOT EXISTS memory_jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id    TEXT,
    document_id  TEXT,
    job_type     TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'leased', 'completed', 'failed', 'dead')),
    payload      TEXT,
    result       TEXT,
    attempts     INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 3,
    not_before   TEXT,
    leased_at    TEXT,
    completed_at TEXT,
    failed_at    TEXT,
    error        TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_memory_jobs_status ON memory_jobs(status, job_type, id);
CREATE INDEX IF NOT EXISTS idx_memory_jobs_memory ON memory_jobs(memory_id);
CREATE INDEX IF NOT EXISTS idx_memory_jobs_completed ON memory_jobs(completed_at) WHERE status = 'completed';
CREATE INDEX IF NOT EXISTS idx_memory_jobs_dead ON memory_jobs(failed_at) WHERE status = 'dead';
-- Enqueue dedup: one live (pending/leased) job per target and type.
CREATE UNIQUE INDEX IF NOT EXISTS idx_memory_jobs_live_memory
    ON memory_jobs(memory_id, job_type) WHERE status IN ('pending', 'leased') AND memory_id IS NOT NULL;
CREATE UNIQUE INDEX IF NOT EXISTS idx_memory_jobs_live_document
    ON memory_jobs(document_id, job_type) WHERE status IN ('pending', 'leased') AND document_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS store_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
