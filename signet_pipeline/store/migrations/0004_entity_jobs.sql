-- structural_classify jobs target an entity (all its unclassified facts in one LLM call), so the
-- queue gets an entity target beside memory and document, with the same live-job dedup.
ALTER TABLE memory_jobs ADD COLUMN entity_id TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS idx_memory_jobs_live_entity
    ON memory_jobs(entity_id, job_type) WHERE status IN ('pending', 'leased') AND entity_id IS NOT NULL;
