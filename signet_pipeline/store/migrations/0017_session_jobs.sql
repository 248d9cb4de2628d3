-- session_summary jobs target a session (its stored transcript), so the queue gets a session
-- target beside memory, document and entity, with the same live-job dedup: a session-end repeated
-- while its summary is still pending does not queue a second one.
ALTER TABLE memory_jobs ADD COLUMN session_key TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS idx_memory_jobs_live_session
    ON memory_jobs(session_key, job_type) WHERE status IN ('pending', 'leased') AND session_key IS NOT NULL;
