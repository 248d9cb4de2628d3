-- Hints are searched as one document per memory (rowid = memories.rid), like memories_fts:
-- ranking the best hint rows, then grouping them by memory and joining back, cost recall 2.5 ms
-- at 10k (docs/BENCHMARKS.md). memory_hints keeps one row per hint (the max-merge scores each
-- hint alone); triggers keep the per-memory document in step with it. Re-running this file
-- rebuilds the index from memory_hints.
DROP TRIGGER IF EXISTS memory_hints_ai;
DROP TRIGGER IF EXISTS memory_hints_ad;
DROP TABLE IF EXISTS memory_hints_fts;

CREATE VIRTUAL TABLE IF NOT EXISTS memory_hints_fts USING fts5(
    hints,
    content = '',
    contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
);

INSERT INTO memory_hints_fts(rowid, hints)
    SELECT m.rid, group_concat(h.hint, char(10)) FROM memory_hints h JOIN memories m ON m.id = h.memory_id
    GROUP BY m.rid;

CREATE TRIGGER IF NOT EXISTS memory_hints_doc_ai AFTER INSERT ON memory_hints BEGIN
    INSERT OR REPLACE INTO memory_hints_fts(rowid, hints)
        SELECT m.rid, group_concat(h.hint, char(10)) FROM memory_hints h JOIN memories m ON m.id = h.memory_id
        WHERE h.memory_id = new.memory_id GROUP BY m.rid;
END;
CREATE TRIGGER IF NOT EXISTS memory_hints_doc_ad AFTER DELETE ON memory_hints BEGIN
    DELETE FROM memory_hints_fts WHERE rowid = (SELECT rid FROM memories WHERE id = old.memory_id);
    INSERT OR REPLACE INTO memory_hints_fts(rowid, hints)
        SELECT m.rid, group_concat(h.hint, char(10)) FROM memory_hints h JOIN memories m ON m.id = h.memory_id
        WHERE h.memory_id = old.memory_id GROUP BY m.rid;
END;
CREATE TRIGGER IF NOT EXISTS memories_hints_doc_ad AFTER DELETE ON memories BEGIN
    DELETE FROM memory_hints_fts WHERE rowid = old.rid;
END;
