-- Per-agent term statistics for recall's BM25 (store/fulltext/agent_terms.py): in a store shared by agents, FTS5's
-- document frequencies are the whole store's, so a name that is rare store-wide but in half of one
-- agent's rows outranks that agent's content words. For each agent: its live rows (`agent_term_totals`)
-- and how many of them hold each indexed term (`agent_terms`; a count may fall to 0 and stay). The
-- triggers keep both in the transaction that writes a row; signet_terms() is registered on every
-- connection (store/fulltext/functions.py). The repair action check-fts rebuilds them.
CREATE TABLE IF NOT EXISTS agent_terms (
    agent_id TEXT NOT NULL,
    term     TEXT NOT NULL,
    docs     INTEGER NOT NULL,
    PRIMARY KEY (agent_id, term)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS agent_term_totals (
    agent_id TEXT PRIMARY KEY,
    docs     INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO agent_terms(agent_id, term, docs)
    SELECT m.agent_id, t.value, count(*) FROM memories m, json_each(signet_terms(m.content)) t
    WHERE m.is_deleted = 0 GROUP BY m.agent_id, t.value;
INSERT INTO agent_term_totals(agent_id, docs)
    SELECT agent_id, count(*) FROM memories WHERE is_deleted = 0 GROUP BY agent_id;

CREATE TRIGGER IF NOT EXISTS memories_terms_ai AFTER INSERT ON memories WHEN new.is_deleted = 0 BEGIN
    INSERT INTO agent_terms(agent_id, term, docs)
        SELECT new.agent_id, value, 1 FROM json_each(signet_terms(new.content)) WHERE true
        ON CONFLICT(agent_id, term) DO UPDATE SET docs = docs + 1;
    INSERT INTO agent_term_totals(agent_id, docs) VALUES (new.agent_id, 1)
        ON CONFLICT(agent_id) DO UPDATE SET docs = docs + 1;
END;

CREATE TRIGGER IF NOT EXISTS memories_terms_ad AFTER DELETE ON memories WHEN old.is_deleted = 0 BEGIN
    UPDATE agent_terms SET docs = docs - 1
        WHERE agent_id = old.agent_id AND term IN (SELECT value FROM json_each(signet_terms(old.content)));
    UPDATE agent_term_totals SET docs = docs - 1 WHERE agent_id = old.agent_id;
END;

-- A row leaves its agent's counts when it is tombstoned, changes text or agent, and comes back when restored.
CREATE TRIGGER IF NOT EXISTS memories_terms_au AFTER UPDATE OF content, is_deleted, agent_id ON memories
WHEN old.content IS NOT new.content OR old.is_deleted IS NOT new.is_deleted OR old.agent_id IS NOT new.agent_id
BEGIN
    UPDATE agent_terms SET docs = docs - 1
        WHERE old.is_deleted = 0 AND agent_id = old.agent_id
        AND term IN (SELECT value FROM json_each(signet_terms(old.content)));
    UPDATE agent_term_totals SET docs = docs - 1 WHERE old.is_deleted = 0 AND agent_id = old.agent_id;
    INSERT INTO agent_terms(agent_id, term, docs)
        SELECT new.agent_id, value, 1 FROM json_each(signet_terms(new.content)) WHERE new.is_deleted = 0
        ON CONFLICT(agent_id, term) DO UPDATE SET docs = docs + 1;
    INSERT INTO agent_term_totals(agent_id, docs) SELECT new.agent_id, 1 WHERE new.is_deleted = 0
        ON CONFLICT(agent_id) DO UPDATE SET docs = docs + 1;
END;
