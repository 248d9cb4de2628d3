-- Supersession in the write path walks an aspect's newest active attributes first and stops after
-- a bounded number (a busy aspect at 100k memories held 10,000 active attributes: the unbounded
-- filter-and-sort made remember's p95 46 ms).
CREATE INDEX IF NOT EXISTS idx_attributes_aspect_recent ON entity_attributes(aspect_id, status, created_at);
