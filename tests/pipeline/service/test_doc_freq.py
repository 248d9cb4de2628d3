"""The per-process document-count cache recall uses for IDF and the BM25 budget."""

from signet_pipeline.models import RememberRequest
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.fulltext.functions import stem_words
from signet_pipeline.write.remember import remember_many


def test_counts_are_reused_until_the_store_grows_then_reread(svc):
    remember_many(svc, [RememberRequest(content=f"zebra crossing number {i}") for i in range(3)])
    conn = svc.db.reader()
    stem = stem_words(conn, ["zebra"])["zebra"]
    cache = svc.doc_freqs
    assert cache.counts(conn, {stem}, mem_store.indexed_rows(conn)) == {stem: 3}
    remember_many(svc, [RememberRequest(content=f"another zebra sighting {i}") for i in range(5)])
    # 5 new rows is less than the 100-row refresh threshold: the cached count stands.
    assert cache.counts(conn, {stem}, mem_store.indexed_rows(conn)) == {stem: 3}
    remember_many(svc, [RememberRequest(content=f"unrelated note {i}") for i in range(100)])
    assert cache.counts(conn, {stem}, mem_store.indexed_rows(conn)) == {stem: 8}


def test_counts_are_read_again_when_the_store_shrinks(svc):
    remember_many(svc, [RememberRequest(content=f"zebra crossing number {i}") for i in range(3)])
    conn = svc.db.reader()
    stem = stem_words(conn, ["zebra"])["zebra"]
    rows = mem_store.indexed_rows(conn)
    assert svc.doc_freqs.counts(conn, {stem}, rows) == {stem: 3}
    with svc.db.write() as write:
        newest = write.execute("SELECT id FROM memories ORDER BY rid DESC LIMIT 1").fetchone()[0]
        write.execute("UPDATE memories SET is_deleted = 1 WHERE id = ?", (newest,))
        mem_store.hard_delete(write, [newest])
    assert mem_store.indexed_rows(conn) == rows - 1
    assert svc.doc_freqs.counts(conn, {stem}, rows - 1) == {stem: 2}
