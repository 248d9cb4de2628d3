-- session_summary jobs target a session (its stored transcript), so the queue gets a session
-- target beside memory, document and entity. Dedup covers pending jobs only: a session-end that
-- arrives while the session's summary is running queues the next one (the running job read the
-- transcript before it changed).
ALTER TABLE memory_jobs ADD COLUMN session_key TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS idx_memory_jobs_pending_session
    ON memory_jobs(session_key, job_type) WHERE status = 'pending' AND session_key IS NOT NULL;
-- How far a transcript has been summarized (turns, and a hash of those turns: a transcript that
-- only grew is summarized from there on; a rewritten one from the start), and when it last
-- changed (transcript retention goes by that).
ALTER TABLE session_transcripts ADD COLUMN summarized_turns INTEGER NOT NULL DEFAULT 0;
ALTER TABLE session_transcripts ADD COLUMN summarized_hash TEXT;
ALTER TABLE session_transcripts ADD COLUMN updated_at TEXT;
