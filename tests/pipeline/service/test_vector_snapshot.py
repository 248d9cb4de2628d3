"""A large vector index lives in a file beside the store: mapped at the next open instead of read
from the table, checked against the store and its change log, rebuilt on a worker thread while
searches go on (first by vec0's sign bits), and renewed as changes accumulate."""

import threading

import numpy as np
import pytest

from signet_pipeline.service import index_snapshot, segment_build, vectors
from signet_pipeline.service.vectors import MatrixIndex
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store.db import Database
from signet_pipeline.store.migrate import migrate

DIMS = 64
N = 400


def unit_vectors(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(8, DIMS))
    vectors = (centres[rng.integers(0, 8, n)] + 0.5 * rng.normal(size=(n, DIMS))).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def put(db, start: int, vectors: np.ndarray) -> None:
    with db.write() as conn:
        for i, v in enumerate(vectors, start):
            emb_store.upsert(conn, content_hash=f"h{i}", vector=v, model="m", source_id=None, now="t")


def delete(db, hashes: list[str]) -> None:
    with db.write() as conn:
        emb_store.delete_for_hashes(conn, hashes)


@pytest.fixture
def db(tmp_path):
    db = Database(tmp_path / "memories.db")
    migrate(db)
    with db.write() as conn:
        emb_store.ensure_vec_table(conn, DIMS, "m")
    put(db, 0, unit_vectors(N, 1))
    yield db
    db.close()


def large(db, **kw) -> MatrixIndex:
    """An index that treats this store as large: file, worker thread, float16 past 200 rows."""
    index = MatrixIndex(db, model="m", dimensions=DIMS, snapshot=index_snapshot.path_for(db.path), snapshot_min=100,
                        **{"prefilter_min": 200, "prefilter_candidates": 300, **kw})
    index.sync()
    assert index.wait(30)
    return index


def exact(db) -> MatrixIndex:
    return MatrixIndex(db, model="m", dimensions=DIMS)


def agree(db, index: MatrixIndex, queries: np.ndarray, k: int = 10, share: float = 0.9) -> None:
    truth = exact(db)
    truth.sync()
    assert len(index) == len(truth)
    kept = [len({h for h, _ in truth.search(q, k)} & {h for h, _ in index.search(q, k)}) for q in queries]
    assert sum(kept) >= share * k * len(queries)


def test_the_index_is_written_once_then_mapped_at_the_next_open(db, monkeypatch):
    first = large(db)
    path = index_snapshot.path_for(db.path)
    assert path.exists() and first._segment.compact  # float16, searched through the prefilter
    queries = unit_vectors(20, 2)
    agree(db, first, queries)
    best, cosine = first.search(queries[0], 1)[0]  # int8 ranks; the stored vector gives the cosine
    assert cosine == pytest.approx(float(first.vectors([best])[best] @ queries[0]), abs=1e-6)
    first.close()

    def no_table_reads(*args, **kwargs):
        raise AssertionError("the index read every vector from the table")

    monkeypatch.setattr(emb_store, "iter_matching", no_table_reads)
    put(db, N, unit_vectors(30, 3))  # written after the file: applied from the log
    delete(db, ["h1", "h2", "h3"])
    second = large(db)
    assert len(second) == N + 30 - 3
    monkeypatch.undo()
    agree(db, second, queries)
    assert [h for h, _ in second.search(unit_vectors(30, 3)[7], 1)] == [f"h{N + 7}"]
    assert "h2" not in dict(second.search(unit_vectors(N, 1)[2], 5))
    assert set(second.vectors(["h2", "h5", f"h{N + 1}"])) == {"h5", f"h{N + 1}"}
    second.close()


def test_a_file_of_another_store_or_a_cut_file_is_not_used(db, tmp_path):
    large(db).close()
    path = index_snapshot.path_for(db.path)
    other = Database(tmp_path / "other" / "memories.db")
    migrate(other)
    put(other, 0, unit_vectors(N, 9))  # the same hashes, other vectors, another store
    other_path = index_snapshot.path_for(other.path)
    other_path.write_bytes(path.read_bytes())
    assert segment_build.SegmentBuilder(other, model="m", dimensions=DIMS, snapshot=other_path, snapshot_min=100,
                                        closing=threading.Event()).open_snapshot(other.reader()) is None
    agree(other, large(other), unit_vectors(10, 4))  # rebuilt from its own table
    other.close()

    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    assert index_snapshot.read(path) is None
    agree(db, large(db), unit_vectors(10, 4))


def test_while_the_first_build_runs_searches_rank_by_vec0_sign_bits(db, monkeypatch):
    release = threading.Event()
    build = segment_build.SegmentBuilder.from_table

    def slow(self, **kwargs):  # the worker's build (into the file) waits; an exact index's does not
        assert not kwargs["to_file"] or release.wait(30)
        return build(self, **kwargs)

    monkeypatch.setattr(segment_build.SegmentBuilder, "from_table", slow)
    index = MatrixIndex(db, model="m", dimensions=DIMS, snapshot=index_snapshot.path_for(db.path), snapshot_min=100,
                        prefilter_min=200, prefilter_candidates=300)
    index.sync()
    for _ in range(300):  # the sign bits are read on the worker, then it waits on `release`
        if len(index):
            break
        threading.Event().wait(0.01)
    assert len(index) == N and not index._segment.complete
    queries = unit_vectors(20, 2)
    agree(db, index, queries)
    put(db, N, queries[:1])  # a write meanwhile is found at once
    assert index.search(queries[0], 1)[0][0] == f"h{N}"
    assert index.search(queries[0], 1, allowed_hashes={"h5"})[0][0] == "h5"
    assert set(index.vectors(["h5", f"h{N}"])) == {"h5", f"h{N}"}
    release.set()
    assert index.wait(30) and index._segment.complete
    assert index_snapshot.path_for(db.path).exists()
    agree(db, index, queries)
    index.close()


def test_a_gap_in_the_log_rebuilds_on_the_worker_and_changes_are_folded_into_a_new_file(db, monkeypatch):
    large(db).close()
    path = index_snapshot.path_for(db.path)
    put(db, N, unit_vectors(50, 5))
    with db.write() as conn:  # retention pruned entries the file's index never read
        conn.execute("DELETE FROM embedding_changes")
    put(db, N + 50, unit_vectors(5, 6))
    index = large(db)  # serves the file, rebuilds from the table on the worker
    assert index.wait(30) and len(index) == N + 55
    agree(db, index, unit_vectors(10, 7))
    seq = index_snapshot.read(path)[0]["seq"]

    monkeypatch.setattr(vectors, "DELTA_MIN", 10)
    put(db, N + 55, unit_vectors(40, 8))
    delete(db, ["h10"])
    index.sync()  # 40 changed rows beside the segment: folded into a new file on the worker
    assert index.wait(30)
    index.sync()
    assert index._n == 0 and index_snapshot.read(path)[0]["seq"] > seq
    agree(db, index, unit_vectors(10, 7))
    assert len(index) == N + 94
    index.close()


def test_closing_stops_a_build_without_leaving_a_file(db, monkeypatch):
    started, release = threading.Event(), threading.Event()
    fill = segment_build.SegmentWriter.fill

    def slow_fill(self, *args, **kwargs):
        started.set()
        assert release.wait(30)
        return fill(self, *args, **kwargs)

    monkeypatch.setattr(segment_build.SegmentWriter, "fill", slow_fill)
    monkeypatch.setattr(emb_store, "vec_bits", lambda *a: None)
    index = MatrixIndex(db, model="m", dimensions=DIMS, snapshot=index_snapshot.path_for(db.path), snapshot_min=100)
    index.sync()
    assert started.wait(30)
    index._closing.set()
    release.set()
    index.close()
    path = index_snapshot.path_for(db.path)
    assert not path.exists() and not list(path.parent.glob(f"{path.name}.tmp-*"))
