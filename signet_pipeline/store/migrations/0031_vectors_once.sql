-- Vectors stored once (issue 26). vec0 held a float32 copy of every vector although the default
-- backend searches an in-process matrix; it now holds each vector's sign bits (`bit`), or the
-- float32 copy only for `search.vectorBackend: sqlite-vec`. The old table goes here and the
-- service rebuilds the kind its backend needs at start (store/embeddings.ensure_vec_table); new
-- vectors are written as float16, older float32 ones stay readable.
DROP TABLE IF EXISTS vec_embeddings;
DELETE FROM store_meta WHERE key IN ('vec_dimensions', 'vec_model', 'vec_kind');

-- The store's identity: a vector-index file beside the store names the store it was built from,
-- so a file left from a replaced database is never applied to it.
INSERT OR IGNORE INTO store_meta(key, value) VALUES ('store_id', lower(hex(randomblob(16))));
