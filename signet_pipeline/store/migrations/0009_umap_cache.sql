-- UMAP projection (architecture.txt "UMAP Projection", "umap_cache"): one cached result per output
-- dimension (2 or 3), replaced whenever the projected set changes. A Dagster run computes it; the
-- API only reads it. `fingerprint` identifies the projected set (model, count, which memories and
-- vectors): the count alone would miss a delete followed by an add. `result_json` is the response's
-- {"nodes", "edges"}, served without re-parsing when the reader may see every node; `private_json`
-- lists the nodes only their own agent may see ([[index, agent_id], ...]).
CREATE TABLE IF NOT EXISTS umap_cache (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    dimensions      INTEGER NOT NULL UNIQUE CHECK (dimensions IN (2, 3)),
    embedding_count INTEGER NOT NULL,
    fingerprint     TEXT NOT NULL,
    result_json     TEXT NOT NULL,
    private_json    TEXT NOT NULL DEFAULT '[]',
    elapsed_ms      REAL NOT NULL,
    cached_at       TEXT NOT NULL
);
-- Projections the API was asked for and could not serve fresh (it answered 202). The sensor turns
-- them into runs (run key = dimensions + requested_at); the asset claims (deletes) them when it
-- starts, so a failed run leaves nothing behind and the next request launches a new one.
CREATE TABLE IF NOT EXISTS umap_requests (
    dimensions   INTEGER PRIMARY KEY CHECK (dimensions IN (2, 3)),
    requested_at TEXT NOT NULL
);
