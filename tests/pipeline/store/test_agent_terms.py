"""Per-agent term statistics (issue 44): BM25 ranks an agent's rows by that agent's document
frequencies, and the counts the triggers keep equal a recount from the rows after edits, deletes,
restores, imports (row by row and bulk) and concurrent writers."""

import json
import math
import random
import threading
from collections import Counter

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.config import load_settings
from signet_pipeline.models import RememberRequest
from signet_pipeline.recall.keywords import keyword_query
from signet_pipeline.recall.legs import keyword_leg
from signet_pipeline.service import MemoryService
from signet_pipeline.snapshots.export import export_snapshot
from signet_pipeline.snapshots.restore import import_snapshot
from signet_pipeline.stages.repair import check_fts
from signet_pipeline.store.db import Database
from signet_pipeline.store.fulltext import agent_terms
from signet_pipeline.store.fulltext.functions import stem_words, text_stemmer
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.store.migrate import migrate
from signet_pipeline.write.remember import Actor, remember, remember_many
from tests.conftest import settle
from tests.pipeline.embedding_identity import embedding_identity

OPERATOR = Actor(name="test", type="operator")


def _recount(db: Database) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    """Live rows and (agent, term) -> rows holding it, counted from the memories table in Python."""
    conn = db.reader()
    stems = text_stemmer(conn)
    docs: Counter = Counter()
    terms: Counter = Counter()
    for agent, content in conn.execute("SELECT agent_id, content FROM memories WHERE is_deleted = 0"):
        docs[agent] += 1
        terms.update((agent, term) for term in stems(content))
    return dict(docs), dict(terms)


def _kept(db: Database) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    conn = db.reader()
    docs = dict(conn.execute("SELECT agent_id, docs FROM agent_term_totals WHERE docs > 0"))
    terms = {(a, t): n for a, t, n in conn.execute("SELECT agent_id, term, docs FROM agent_terms WHERE docs > 0")}
    return docs, terms


def _assert_counts_right(db: Database) -> None:
    assert _kept(db) == _recount(db)
    assert db.reader().execute("SELECT count(*) FROM agent_terms WHERE docs < 0").fetchone()[0] == 0


def _zed_store(svc) -> dict[str, str]:
    """Agent `zed`: twenty turns naming Zed and one about a kayak without the name; agent `crowd`:
    a hundred private turns about kayaks. Store-wide "zed" is rare (20 rows) and "kayak" common (101); in
    zed's own rows it is the other way round."""
    topics = ["bread", "trains", "tea", "rain", "chess", "music", "maps", "bees", "snow", "paint"]
    remember_many(svc, [RememberRequest(content=f"Zed: thinking about {topics[i % 10]} again, day {i}",
                                        agentId="zed") for i in range(20)])
    kayak = remember(svc, RememberRequest(content="Mira: the kayak trip is booked for June", agentId="zed")).id
    remember_many(svc, [RememberRequest(content=f"Kayak rental number {i} opens at {i % 12 + 1}",
                                        agentId="crowd", visibility="private") for i in range(100)])
    settle(svc)
    return {"kayak": kayak}


def test_a_name_common_to_one_agent_no_longer_outranks_its_content_words(make_service):
    own = make_service()
    ids = _zed_store(own)
    store_wide = make_service(search={"agentTermStats": False})  # the same file, the whole store's statistics
    query, flt = "What did Zed say about the kayak?", MemoryFilter(agent_id="zed")

    ranked = keyword_leg(own, own.db.reader(), query, flt, 5).content
    assert ranked[0] == ids["kayak"]
    before = keyword_leg(store_wide, store_wide.db.reader(), query, flt, 5).content
    assert ids["kayak"] not in before[:5]  # the name's store-wide rarity ranked every Zed turn first

    with TestClient(create_app(service=own)) as client:  # the legacy keyword search ranks the same way
        found = client.get("/memory/search", params={"q": "zed kayak"}, headers={"x-signet-agent-id": "zed"})
        assert found.status_code == 200, found.text
        assert found.json()["results"][0]["id"] == ids["kayak"]


def test_agent_bm25_given_the_index_idf_scores_as_fts5_bm25(svc):
    """The function is BM25 itself: with FTS5's own IDF per phrase it reproduces bm25() row by row."""
    remember_many(svc, [RememberRequest(content=f"The {w} heron {'waits ' * (i % 4)}by the {w} pond number {i}")
                        for i, w in enumerate(["grey", "blue", "grey", "white", "old", "grey", "tall"] * 3)])
    conn = svc.db.reader()
    rows = conn.execute("SELECT count(*) FROM memories_fts").fetchone()[0]
    idf = []
    for term in stem_words(conn, ["grey", "waits", "pond"]).values():
        n = conn.execute("SELECT doc FROM memories_fts_vocab WHERE term = ?", (term,)).fetchone()[0]
        idf.append(max(math.log((rows - n + 0.5) / (n + 0.5)), 1e-6))  # FTS5's, clamped as it clamps
    match = '"grey" OR "waits" OR "pond"'
    ours = conn.execute("SELECT rowid, agent_bm25(memories_fts, ?) FROM memories_fts WHERE memories_fts MATCH ? "
                        "ORDER BY rowid", (json.dumps(idf), match)).fetchall()
    theirs = conn.execute("SELECT rowid, bm25(memories_fts) FROM memories_fts WHERE memories_fts MATCH ? "
                          "ORDER BY rowid", (match,)).fetchall()
    assert len(ours) == len(theirs) == 21
    for (rid, mine), (rid2, fts5) in zip(ours, theirs):
        assert rid == rid2 and mine == pytest.approx(fts5, rel=1e-9)


def test_a_query_near_the_postings_budget_is_ranked_by_the_index_statistics(make_service):
    """The agent's BM25 costs ~3x FTS5's a row: past a third of the budget the query keeps FTS5's."""
    svc = make_service()
    _zed_store(svc)
    conn = svc.db.reader()  # "zed" and "kayak" are in 121 rows store-wide
    assert keyword_query(svc, conn, "zed kayak", budget=400, agent_id="zed").weights is not None
    assert keyword_query(svc, conn, "zed kayak", budget=300, agent_id="zed").weights is None
    assert keyword_query(svc, conn, "zed kayak", budget=0, agent_id="zed").weights is not None  # no budget


def test_a_lone_agent_keeps_the_index_statistics(svc):
    """One agent holding every row: its statistics are the store's, and FTS5's own bm25() ranks."""
    remember_many(svc, [RememberRequest(content=f"Ana repaired bicycle number {i}") for i in range(5)])
    leg = keyword_leg(svc, svc.db.reader(), "bicycle", MemoryFilter(), 5)
    assert len(leg.content) == 5
    assert keyword_query(svc, svc.db.reader(), "bicycle", agent_id="default").weights is None


def test_counts_follow_edits_deletes_restores_moves_and_purges(client, svc):
    ids = [client.post("/api/memory/remember", json={"content": f"Note {i}: the heron nests by the mill pond {i}",
                                                      "agentId": "birds"}).json()["id"] for i in range(6)]
    _assert_counts_right(svc.db)
    edited = client.patch(f"/api/memory/{ids[0]}", json={"reason": "t", "content": "The otter swims at dusk"},
                          headers={"x-signet-agent-id": "birds"})
    assert edited.status_code == 200, edited.text
    assert client.delete(f"/api/memory/{ids[1]}", params={"reason": "t"},
                         headers={"x-signet-agent-id": "birds"}).status_code == 200
    _assert_counts_right(svc.db)
    assert _kept(svc.db)[1][("birds", "otter")] == 1
    assert _kept(svc.db)[0]["birds"] == 5
    recovered = client.post(f"/api/memory/{ids[1]}/recover", json={"reason": "t"},
                            headers={"x-signet-agent-id": "birds"})
    assert recovered.status_code == 200, recovered.text
    with svc.db.write() as conn:  # a row moved to another agent, and a tombstone purged for good
        conn.execute("UPDATE memories SET agent_id = 'fish' WHERE id = ?", (ids[2],))
        conn.execute("UPDATE memories SET is_deleted = 1 WHERE id = ?", (ids[3],))
        conn.execute("DELETE FROM memories WHERE id IN (?, ?)", (ids[3], ids[4]))
    _assert_counts_right(svc.db)
    assert _kept(svc.db)[0] == {"birds": 3, "fish": 1}


def test_counts_stay_right_under_concurrent_writers_deletes_and_imports(make_service, embedder, tmp_path):
    """Four writer threads (two agents), one thread forgetting, and snapshot imports row by row
    and in bulk over connections of their own, at once; then the counts equal a recount."""
    for name in ("rows", "bulk"):  # two snapshots, so both import paths write
        source = MemoryService(load_settings(tmp_path / f"source-{name}"), embedder=embedder)
        remember_many(source, [RememberRequest(content=f"Imported line {i} about lanterns and {i % 7} moths",
                                               agentId=f"{name}{i % 3}") for i in range(60)])
        settle(source)
        export_snapshot(source.db, tmp_path / name)
        identity = embedding_identity(source)
        source.close()

    svc = make_service()
    written: list[str] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def guarded(work):
        def run():
            try:
                work()
            except BaseException as exc:  # surfaced by the assertion below
                errors.append(exc)
        return run

    def writer(n: int):
        rng = random.Random(n)
        for i in range(40):
            words = " ".join(rng.choice(["owl", "fern", "stone", "river", "moss", "crow"]) for _ in range(5))
            result = remember(svc, RememberRequest(content=f"Writer {n} entry {i}: {words}", agentId=f"a{n % 2}"))
            with lock:
                written.append(result.id)

    def forgetter():
        rng = random.Random(9)
        for _ in range(30):
            with lock:
                target = rng.choice(written) if written else None
            if target:
                with svc.db.write() as conn:
                    conn.execute("UPDATE memories SET is_deleted = 1, deleted_at = datetime('now') WHERE id = ?",
                                  (target,))

    def importer(bulk: bool):
        db = Database(svc.db.path)
        try:
            migrate(db)
            report = import_snapshot(db, tmp_path / ("bulk" if bulk else "rows"), embedding=identity, bulk=bulk)
            assert report.bulk == bulk and report.written > 60
        finally:
            db.close()

    threads = [threading.Thread(target=guarded(lambda n=n: writer(n))) for n in range(4)]
    threads += [threading.Thread(target=guarded(forgetter)),
                threading.Thread(target=guarded(lambda: importer(True))),
                threading.Thread(target=guarded(lambda: importer(False)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert _kept(svc.db)[0]["rows0"] == _kept(svc.db)[0]["bulk0"] == 20  # both imports landed
    _assert_counts_right(svc.db)


def test_check_fts_rebuilds_drifted_statistics(svc):
    remember_many(svc, [RememberRequest(content=f"Gull {i} circles the harbour", agentId=f"g{i % 2}")
                        for i in range(8)])
    with svc.db.write() as conn:  # damage: counts no trigger would write
        conn.execute("UPDATE agent_term_totals SET docs = docs + 3 WHERE agent_id = 'g0'")
        conn.execute("DELETE FROM agent_terms WHERE agent_id = 'g1' AND term = 'harbour'")
    report = check_fts(svc, {}, OPERATOR)
    assert report["termStatsDrift"] == 1 and not report["termStatsRebuilt"]
    report = check_fts(svc, {"repair": True}, OPERATOR)
    assert report["termStatsRebuilt"]
    _assert_counts_right(svc.db)
    assert agent_terms.drifted_agents(svc.db.reader()) == 0
