-- Pipeline v2 controlled writes: derived facts point at the memory they were extracted from, and
-- an UPDATE/DELETE decision (when allowed) supersedes its target instead of deleting it.

ALTER TABLE memories ADD COLUMN source_memory_id TEXT;   -- raw memory a derived fact came from
ALTER TABLE memories ADD COLUMN superseded_by TEXT;      -- memory that replaced this one
ALTER TABLE memories ADD COLUMN superseded_at TEXT;

CREATE INDEX IF NOT EXISTS idx_memories_source_memory
    ON memories(source_memory_id) WHERE source_memory_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_memories_superseded
    ON memories(superseded_by) WHERE superseded_by IS NOT NULL;
