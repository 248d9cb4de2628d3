-- Documents (spec architecture "Document Ingest"): a URL or a text queued for ingest; the
-- document_ingest job fetches it, chunks it, and writes each chunk as a memory linked here.
CREATE TABLE IF NOT EXISTS documents (
    id            TEXT PRIMARY KEY,
    source_url    TEXT,
    source_type   TEXT NOT NULL CHECK (source_type IN ('url', 'text')),
    content_type  TEXT,
    content_hash  TEXT,
    title         TEXT,
    raw_content   TEXT,
    status        TEXT NOT NULL DEFAULT 'queued' CHECK (status IN
                      ('queued', 'extracting', 'chunking', 'embedding', 'indexing', 'done', 'failed')),
    error         TEXT,
    connector_id  TEXT,
    chunk_count   INTEGER NOT NULL DEFAULT 0,
    memory_count  INTEGER NOT NULL DEFAULT 0,
    agent_id      TEXT NOT NULL DEFAULT 'default',
    visibility    TEXT NOT NULL DEFAULT 'global',
    project       TEXT,
    metadata_json TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    completed_at  TEXT
);
CREATE INDEX IF NOT EXISTS idx_documents_status ON documents(status);
CREATE INDEX IF NOT EXISTS idx_documents_source_url ON documents(source_url);
CREATE INDEX IF NOT EXISTS idx_documents_connector ON documents(connector_id);
CREATE INDEX IF NOT EXISTS idx_documents_content_hash ON documents(content_hash);

CREATE TABLE IF NOT EXISTS document_memories (
    document_id TEXT NOT NULL,
    memory_id   TEXT NOT NULL,
    chunk_index INTEGER NOT NULL,
    PRIMARY KEY (document_id, memory_id)
);
CREATE INDEX IF NOT EXISTS idx_document_memories_memory ON document_memories(memory_id);
