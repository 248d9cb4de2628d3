-- Prospective hints (spec "Prospective Indexing"): questions a memory would answer, written by the
-- hints stage after the memory, searched beside memories_fts and max-merged into its keyword score.
CREATE TABLE IF NOT EXISTS memory_hints (
    id         INTEGER PRIMARY KEY,
    memory_id  TEXT NOT NULL,
    hint       TEXT NOT NULL,
    model      TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (memory_id, hint)
);

CREATE VIRTUAL TABLE IF NOT EXISTS memory_hints_fts USING fts5(
    hint,
    content = 'memory_hints',
    content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER IF NOT EXISTS memory_hints_ai AFTER INSERT ON memory_hints BEGIN
    INSERT INTO memory_hints_fts(rowid, hint) VALUES (new.id, new.hint);
END;
CREATE TRIGGER IF NOT EXISTS memory_hints_ad AFTER DELETE ON memory_hints BEGIN
    INSERT INTO memory_hints_fts(memory_hints_fts, rowid, hint) VALUES ('delete', old.id, old.hint);
END;

-- Hints describe one content: they go when it changes or the row is purged (retention).
CREATE TRIGGER IF NOT EXISTS memories_hints_content_au AFTER UPDATE OF content ON memories
WHEN new.content IS NOT old.content BEGIN
    DELETE FROM memory_hints WHERE memory_id = old.id;
END;
CREATE TRIGGER IF NOT EXISTS memories_hints_ad AFTER DELETE ON memories BEGIN
    DELETE FROM memory_hints WHERE memory_id = old.id;
END;
