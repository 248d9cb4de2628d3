-- Local telemetry (more-endpoints "Telemetry"): counts, durations and codes, never content.
-- Bounded: the writer keeps the newest rows, retention drops old ones.
CREATE TABLE IF NOT EXISTS telemetry_events (
    id         INTEGER PRIMARY KEY,
    event      TEXT NOT NULL,
    properties TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_telemetry_events_at ON telemetry_events(created_at);
CREATE INDEX IF NOT EXISTS idx_telemetry_events_event ON telemetry_events(event, created_at);

-- The structured log of every Signet process (API, CLI, Dagster runs), newest kept: what
-- /api/logs and its stream read, so pipeline stages show up beside the API.
CREATE TABLE IF NOT EXISTS log_entries (
    id       INTEGER PRIMARY KEY,
    level    INTEGER NOT NULL,
    category TEXT NOT NULL,
    message  TEXT NOT NULL,
    fields   TEXT,
    process  TEXT NOT NULL,
    at       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_log_entries_at ON log_entries(at);
