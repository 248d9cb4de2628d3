"""Selective filters must not lose matches that rank below the first cut of either leg."""

from signet_pipeline.models import RecallRequest, RememberRequest
from signet_pipeline.recall.search import recall_memories
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.write.remember import remember_many


def test_filtered_matches_below_the_first_cut_are_still_found(svc):
    common = [RememberRequest(content=f"alpha report number {i} " + "alpha " * 5, who="alice") for i in range(300)]
    rare = [RememberRequest(content=f"an alpha footnote {i} buried in a very long text about other things entirely",
                            who="bob") for i in range(2)]
    remember_many(svc, common + rare)
    conn = svc.db.reader()
    # keyword leg: bob's rows rank far below the 40 best "alpha" rows
    hits = mem_store.fts_search(conn, '"alpha"', MemoryFilter(who="bob"), 10)
    assert len(hits) == 2
    assert len(mem_store.fts_search(conn, '"alpha"', MemoryFilter(), 10)) == 10
    # both legs through recall
    out = recall_memories(svc, RecallRequest(query="alpha", who="bob", limit=10))
    assert len(out.results) == 2 and all(r.who == "bob" for r in out.results)
    out = recall_memories(svc, RecallRequest(query="a buried footnote", who="alice", limit=5, alpha=1.0))
    assert len(out.results) == 5 and all(r.who == "alice" for r in out.results)
