-- Connectors (spec more-endpoints "Connectors"): a source the document pipeline pulls from.
-- cursor_json holds {"lastSyncAt": epoch seconds of the last successful scan}; settings the
-- provider's JSON settings (filesystem: rootPath, patterns, ignorePatterns, maxFileSize).
CREATE TABLE IF NOT EXISTS connectors (
    id           TEXT PRIMARY KEY,
    provider     TEXT NOT NULL,
    display_name TEXT NOT NULL,
    status       TEXT NOT NULL DEFAULT 'idle' CHECK (status IN ('idle', 'syncing', 'error')),
    last_sync_at TEXT,
    last_error   TEXT,
    last_error_at TEXT,
    cursor_json  TEXT NOT NULL DEFAULT '{}',
    settings     TEXT NOT NULL DEFAULT '{}',
    last_result  TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS idx_documents_connector ON documents(connector_id) WHERE connector_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_documents_source_url ON documents(source_url) WHERE source_url IS NOT NULL;
