-- idx_memories_deleted(is_deleted, deleted_at) made the planner serve every `is_deleted = 0`
-- read through it (a scan of all live rows) instead of the content_hash / id indexes.
-- Tombstone sweeps only need the deleted rows: index just those.
DROP INDEX IF EXISTS idx_memories_deleted;
CREATE INDEX IF NOT EXISTS idx_memories_tombstones ON memories(deleted_at) WHERE is_deleted = 1;
