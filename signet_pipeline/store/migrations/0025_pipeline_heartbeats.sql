-- The pipeline's sign of life: when each queue sensor last ticked (written from Dagster's code
-- location every few seconds). /health, /api/status and `signet status` read it to say whether
-- anything drains memory_jobs: a live API beside a dead daemon must not look healthy.
CREATE TABLE IF NOT EXISTS pipeline_heartbeats (
    component TEXT PRIMARY KEY,
    pid       INTEGER NOT NULL,
    host      TEXT NOT NULL,
    beat_at   TEXT NOT NULL
);
