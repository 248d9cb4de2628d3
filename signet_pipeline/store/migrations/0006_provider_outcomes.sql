-- Provider health (spec "Provider tracker"): the latest outcomes of each provider's calls, kept
-- as a ring of the newest N per provider in the store, because the calls happen in Dagster runs
-- while the API reports diagnostics.
CREATE TABLE IF NOT EXISTS provider_outcomes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    provider   TEXT NOT NULL,
    model      TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('success', 'failure', 'timeout')),
    latency_ms REAL NOT NULL,
    error      TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_provider_outcomes_provider ON provider_outcomes(provider, id);
