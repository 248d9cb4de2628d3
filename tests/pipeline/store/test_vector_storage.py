"""Each vector is stored once: float16 in `embeddings` (float32 blobs of older builds still read),
and vec0 holds its sign bits, or a float32 copy only for the sqlite-vec backend."""

import gzip
import shutil

import numpy as np

from signet_pipeline.config import load_settings
from signet_pipeline.service import MemoryService
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store.db import Database
from signet_pipeline.store.migrate import migrate
from tests.conftest import DATA


def unit_vectors(n: int, dims: int, seed: int = 5) -> np.ndarray:
    vectors = np.random.default_rng(seed).normal(size=(n, dims)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def store(tmp_path) -> Database:
    db = Database(tmp_path / "memories.db")
    migrate(db)
    return db


def test_a_vector_is_stored_as_float16_and_older_float32_blobs_still_read():
    vector = unit_vectors(1, 384)[0]
    blob = emb_store.to_blob(vector)
    assert len(blob) == 2 * 384 + 1  # odd: never a float32 blob
    assert np.allclose(emb_store.from_blob(blob), vector, atol=1e-3)
    old = vector.astype("<f4").tobytes()
    assert np.array_equal(emb_store.from_blob(old), vector)
    both = emb_store.decode([blob, old], 384)
    assert both.dtype == np.float32 and np.allclose(both, [vector, vector], atol=1e-3)
    huge = np.full(4, 1e6, np.float32)  # beyond float16: kept as float32
    assert np.array_equal(emb_store.from_blob(emb_store.to_blob(huge)), huge)


def test_vec0_holds_the_sign_bits_sqlite_vec_computes(tmp_path):
    db = store(tmp_path)
    vectors = unit_vectors(20, 64)
    with db.write() as conn:
        assert emb_store.ensure_vec_table(conn, 64, "m")
        for i, v in enumerate(vectors):
            emb_store.upsert(conn, content_hash=f"h{i}", vector=v, model="m", source_id=None, now="t")
    conn = db.reader()
    ids, bits = emb_store.vec_bits(conn, "m", 64)
    assert ids.tolist() == list(range(1, 21))
    for vector, row in zip(vectors, bits):
        stored = emb_store.from_blob(emb_store.to_blob(vector)).astype("<f4").tobytes()
        assert row.tobytes() == conn.execute("SELECT vec_quantize_binary(vec_f32(?))", (stored,)).fetchall()[0][0]
    assert conn.execute("SELECT length(embedding) FROM vec_embeddings LIMIT 1").fetchall() == [(8,)]
    db.close()


def test_switching_the_backend_rebuilds_the_right_table_and_odd_dimensions_get_floats(tmp_path):
    db = store(tmp_path)
    vectors = unit_vectors(10, 64)
    with db.write() as conn:
        emb_store.ensure_vec_table(conn, 64, "m")
        for i, v in enumerate(vectors):
            emb_store.upsert(conn, content_hash=f"h{i}", vector=v, model="m", source_id=None, now="t")
        assert not emb_store.ensure_vec_table(conn, 64, "m")  # kind None keeps what the store holds
        assert emb_store.ensure_vec_table(conn, 64, "m", "float")
        hits = emb_store.vec_knn(conn, vectors[3], 1)
        assert hits[0][0] == "h3" and hits[0][1] > 0.999
        assert emb_store.vec_bits(conn, "m", 64) is None
        assert emb_store.ensure_vec_table(conn, 64, "m", "bit")
        assert emb_store.vec_bits(conn, "m", 64)[0].size == 10
        assert emb_store.ensure_vec_table(conn, 12, "m", "bit")  # bit[12] is impossible
        assert emb_store._vec_target(conn) == (12, "m", "float")
    db.close()


def test_an_import_written_as_float32_is_compacted_and_indexed(tmp_path):
    """The snapshot import writes float32 rows and calls `reindex`: they end up as `upsert`
    would have written them."""
    db = store(tmp_path)
    vectors = unit_vectors(5, 64)
    with db.write() as conn:
        emb_store.ensure_vec_table(conn, 64, "m")
        ids = [conn.execute("INSERT INTO embeddings(content_hash, vector, dimensions, model, created_at, updated_at) "
                            "VALUES (?, ?, 64, 'm', 't', 't') RETURNING id", (f"h{i}", v.tobytes())).fetchall()[0][0]
               for i, v in enumerate(vectors)]
        emb_store.reindex(conn, ids)
    conn = db.reader()
    assert conn.execute("SELECT DISTINCT length(vector) FROM embeddings").fetchall() == [(129,)]
    assert emb_store.vec_bits(conn, "m", 64)[0].tolist() == ids
    assert np.allclose(emb_store.vectors_for_hashes(conn, ["h2"], "m", 64)["h2"], vectors[2], atol=1e-3)
    db.close()


def test_a_0_1_0_store_drops_its_float32_copy_and_keeps_working(tmp_path, embedder):
    workspace = tmp_path / "ws"
    (workspace / "memory").mkdir(parents=True)
    with gzip.open(DATA / "workspace-0.1.0-memories.db.gz") as src, \
            open(workspace / "memory" / "memories.db", "wb") as dst:
        shutil.copyfileobj(src, dst)
    svc = MemoryService(load_settings(workspace), embedder=embedder)
    try:
        conn = svc.db.reader()
        assert emb_store._vec_target(conn) == (384, embedder.model, "bit")
        assert emb_store.store_id(conn)
        (count,) = conn.execute("SELECT count(*) FROM embeddings").fetchall()[0]
        assert emb_store.vec_bits(conn, embedder.model, 384)[0].size == count == len(svc.vector_index())
        assert conn.execute("SELECT DISTINCT length(vector) FROM embeddings").fetchall() == [(1536,)]  # read as is
        query = svc.embedder.embed_one("where is the spare key?")
        assert svc.vector_index().search(query, 3)[0][1] > 0.5
    finally:
        svc.close()
