"""Every full-text search builds its MATCH expression through one bounded path (words deduplicated
and capped, the most frequent left out above search.ftsPostingsBudget), and a search running past
limits.query_time_ms is interrupted with a 408 `query_timeout` instead of holding a core.

The MATCH expressions are read where SQLite receives them: an exec tracer on this thread's reader
connection sees every statement and its bindings."""

import itertools

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_api.routes.memory import MAX_GET_QUERY_CHARS
from signet_pipeline.config import load_settings
from signet_pipeline.errors import SignetError
from signet_pipeline.models import RecallRequest, RememberRequest
from signet_pipeline.recall.reads import legacy_search
from signet_pipeline.recall.search import recall_memories
from signet_pipeline.service import MemoryService
from signet_pipeline.store import db as db_module
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.text.fts_query import MAX_TOKENS
from signet_pipeline.write.remember import remember_many

ROWS = 3000
WORDS = "amber birch cedar delta ember fjord grove harbor iris juniper kelp lantern meadow".split()
REPEATED = " ".join(["fox"] * 2500)  # 9,999 characters: just under a recall query's 10,000
ROUTE_REPEATED = " ".join(["fox"] * (MAX_GET_QUERY_CHARS // 4))  # just under a GET search's q limit


def _seed(svc) -> None:
    remember_many(svc, [RememberRequest(content=f"The brown fox number {i} runs by the {WORDS[i % 13]} "
                                                f"{WORDS[(i * 7) % 13]} trail") for i in range(ROWS)]
                  + [RememberRequest(content="A lone quokka waved at the fox")], pipeline_jobs=False)


@pytest.fixture
def store(workspace):
    """A service over a seeded store, keyword search only (no embedder: seeding takes half a second)."""
    made: list[MemoryService] = []

    def make(**overrides):
        svc = MemoryService(load_settings(workspace, embedding={"provider": "none"},
                                          auth={"allowed_hosts": ["testserver"]}, **overrides))
        made.append(svc)
        _seed(svc)
        return svc

    yield make
    for svc in made:
        svc.close()


@pytest.fixture
def matches():
    """The MATCH bindings SQLite receives on this thread's reader connection of a service."""
    seen: list[str] = []

    def tracer(cursor, sql, bindings):
        if "_fts MATCH" in sql:
            seen.append(bindings["match"] if isinstance(bindings, dict) else bindings[0])
        return True

    def traced(svc):
        svc.db.reader().exec_trace = tracer
        return seen

    return traced


def _bounded(match: str) -> bool:
    """Quoted words OR-ed, none twice, at most MAX_TOKENS of them (no raw FTS5 syntax)."""
    terms = match.split(" OR ")
    return (len(terms) <= MAX_TOKENS and len(set(terms)) == len(terms)
            and all(t.startswith('"') and t.endswith('"') and '"' not in t[1:-1] for t in terms))


def test_repeated_words_make_one_term_on_every_fts_path(store, matches):
    svc = store()
    seen = matches(svc)
    hits = legacy_search(svc, REPEATED, MemoryFilter(), 20)
    assert len(hits) == 20 and all("fox" in h["content"] for h in hits)
    found = recall_memories(svc, RecallRequest(query=REPEATED, limit=5))
    assert len(found.results) == 5 and all("fox" in r.content for r in found.results)
    assert seen and set(seen) == {'"fox"'}  # legacy search, recall (content and hints)


def test_many_distinct_words_are_capped(store, matches):
    svc = store()
    seen = matches(svc)
    legacy_search(svc, " ".join(f"word{i}" for i in range(500)) + " quokka", MemoryFilter(), 10)
    assert seen and all(_bounded(m) for m in seen)


def test_legacy_search_leaves_out_frequent_words_above_the_postings_budget(store, matches):
    svc = store(search={"ftsPostingsBudget": 1000})
    seen = matches(svc)
    hits = legacy_search(svc, "fox quokka", MemoryFilter(), 10)
    assert seen == ['"quokka"']  # "fox" is in every row: over the budget, so BM25 never scores it
    assert [h["content"] for h in hits] == ["A lone quokka waved at the fox"]


def test_recall_ranks_nothing_by_bm25_when_even_the_rarest_word_is_over_the_budget(store, matches):
    svc = store(search={"ftsPostingsBudget": 1000})
    seen = matches(svc)
    # each word in ~3,000 rows: BM25 would score them all
    found = recall_memories(svc, RecallRequest(query="fox trail"))
    assert seen == [] and found.meta["candidates"]["fts"] == 0
    found = recall_memories(svc, RecallRequest(query="fox quokka"))
    assert set(seen) == {'"quokka"'} and [r.content for r in found.results] == ["A lone quokka waved at the fox"]
    seen.clear()
    assert len(legacy_search(svc, "fox trail", MemoryFilter(), 10)) == 10  # keyword-only search still ranks
    assert seen == ['"trail"']  # the rarer of the two


def test_the_legacy_route_answers_the_repeated_word_query(store):
    svc = store()
    with TestClient(create_app(service=svc)) as client:
        response = client.get("/memory/search", params={"q": ROUTE_REPEATED, "limit": 50})
    assert response.status_code == 200
    results = response.json()["results"]
    assert len(results) == 50 and all("fox" in r["content"] for r in results)


def test_a_statement_past_its_deadline_is_interrupted(tmp_path):
    from signet_pipeline.errors import QueryTimeout
    from signet_pipeline.store.db import Database, deadline

    database = Database(tmp_path / "m.db")
    conn = database.reader()
    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
    with pytest.raises(QueryTimeout) as stopped:  # a scan that would run for hours
        with deadline(conn, 0.05):
            list(conn.execute(endless))
    assert stopped.value.code == "query_timeout" and stopped.value.status == 408
    with deadline(conn, 0.05):
        with pytest.raises(QueryTimeout):
            with deadline(conn, 60):  # an inner, longer deadline does not lift the outer one
                list(conn.execute(endless))
    assert list(conn.execute("SELECT count(*) FROM (SELECT 1 UNION ALL SELECT 2)")) == [(2,)]  # handler gone
    database.close()


@pytest.fixture
def slow_clock(monkeypatch):
    """While on, each reading of the deadline clock is a second later: any statement long enough
    to reach the progress handler is past a 100 ms limit, whatever the machine's speed."""
    ticks = itertools.count()
    state = {"on": True}
    real = db_module._clock
    monkeypatch.setattr(db_module, "_clock", lambda: float(next(ticks)) if state["on"] else real())
    return state


def test_a_search_past_the_time_limit_is_a_408(store, slow_clock):
    svc = store(limits={"query_time_ms": 100})
    with TestClient(create_app(service=svc)) as client:
        for path in ("/memory/search", "/api/memory/search"):
            response = client.get(path, params={"q": "fox trail"})
            assert response.status_code == 408, (path, response.text)
            assert response.json()["error"]["code"] == "query_timeout"


def test_the_reader_works_after_a_timeout(store, slow_clock):
    svc = store(limits={"query_time_ms": 100})
    with pytest.raises(SignetError) as stopped:
        legacy_search(svc, "fox trail", MemoryFilter(), 10)
    assert stopped.value.code == "query_timeout"
    slow_clock["on"] = False
    assert len(legacy_search(svc, "fox trail", MemoryFilter(), 10)) == 10
    assert not svc.db.reader().in_transaction
