-- Memory-search telemetry (GET /api/telemetry/memory-search): one row per search, kept only
-- while memory.pipelineV2.telemetryEnabled is on, bounded (the writer keeps the newest rows,
-- retention drops old ones). It holds the query as sent, the filters, timings and, per result,
-- its id, rank, score, type, importance and when it was made: no text a user wrote into a memory
-- (content, tags, who, project), which the log reads from the memory itself when asked.
CREATE TABLE IF NOT EXISTS memory_search_telemetry (
    id            INTEGER PRIMARY KEY,
    created_at    TEXT NOT NULL,
    route         TEXT NOT NULL,
    agent_id      TEXT NOT NULL,
    session_key   TEXT,
    project       TEXT,
    query         TEXT NOT NULL,
    keyword_query TEXT,
    filters       TEXT NOT NULL DEFAULT '{}',
    method        TEXT NOT NULL,
    result_count  INTEGER NOT NULL,
    top_score     REAL,
    no_hits       INTEGER NOT NULL,
    duration_ms   REAL NOT NULL,
    timings       TEXT NOT NULL DEFAULT '{}',
    results       TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS idx_memory_search_telemetry_at ON memory_search_telemetry(created_at);
CREATE INDEX IF NOT EXISTS idx_memory_search_telemetry_agent ON memory_search_telemetry(agent_id, created_at);
