-- Drain runs (pipeline/drain.py): a lease belongs to one worker, named by lease_owner (a Dagster
-- run id, or a process's own name for in-process drains). A lease is identified by (id,
-- lease_owner, attempts): a worker whose lease was released and taken by another can no longer
-- write or complete the job. queue_workers holds one row per live worker with its heartbeat; a
-- worker that stops beating is dead and its leases go back to pending at once.
ALTER TABLE memory_jobs ADD COLUMN lease_owner TEXT;
CREATE INDEX IF NOT EXISTS idx_memory_jobs_owner ON memory_jobs(lease_owner) WHERE status = 'leased';

CREATE TABLE IF NOT EXISTS queue_workers (
    owner       TEXT PRIMARY KEY,
    job_type    TEXT NOT NULL,
    pid         INTEGER NOT NULL,
    host        TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    beat_at     TEXT NOT NULL,
    jobs_done   INTEGER NOT NULL DEFAULT 0,
    batches     INTEGER NOT NULL DEFAULT 0
);
