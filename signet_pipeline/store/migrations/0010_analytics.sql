-- Analytics error ring (spec architecture "Analytics"): the newest 500 stage errors of the whole
-- service. Pipeline errors happen in Dagster runs and API errors in the API process, and
-- /api/analytics/errors must show both, so the ring lives in the store (trimmed on insert).
-- Codes are validated by the writer (a CHECK could not grow with the taxonomy without a rebuild).
-- No secondary index: filters scan at most 500 rows, and every index would cost each insert.
CREATE TABLE IF NOT EXISTS analytics_errors (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at TEXT NOT NULL,
    stage      TEXT NOT NULL,
    code       TEXT NOT NULL,
    message    TEXT NOT NULL,
    memory_id  TEXT,
    actor      TEXT
);
