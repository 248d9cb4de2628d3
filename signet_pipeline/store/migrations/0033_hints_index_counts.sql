-- The hints index refilled with true row counts. Hints were inserted with OR IGNORE, which overrides the
-- OR REPLACE of the trigger keeping each memory's hints document, and FTS5 counted every replaced
-- document as a new row (55,258 for 15,126 documents on a drained 10k store): BM25's IDF and average
-- document length over hints were off. store/hints.py now inserts with ON CONFLICT DO NOTHING; emptying
-- the index (its counts with it) and refilling it from memory_hints, as 0011 filled it, mends older stores.
INSERT INTO memory_hints_fts(memory_hints_fts) VALUES ('delete-all');

INSERT INTO memory_hints_fts(rowid, hints)
    SELECT m.rid, group_concat(h.hint, char(10)) FROM memory_hints h JOIN memories m ON m.id = h.memory_id
    GROUP BY m.rid;
