"""The three legs of hybrid recall (recall/search.py), each bounded in what it may cost:
- keyword: FTS5 BM25 over the content (and the prospective hints) of at most the postings budget's
  rows, none when the rarest query word alone has more (recall/keywords.py), under limits.query_time_ms;
- graph: the traversal from the entities the query names, rarest first, hubs (search.graphHubMentions)
  left out (graph/traversal.py), within its caps on memories and time;
- vector: the query embedded (with the caller's own unwritten memories, service/embed_behind.py), then
  the index's nearest `pool` memories the filter admits, widened a bounded number of times.
Functions of their own so bench/recall_tail_bench.py can time each alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import apsw
import numpy as np

from signet_pipeline.graph.traversal import Traversal, traverse
from signet_pipeline.recall.keywords import fts_deadline, hints_match, keyword_query
from signet_pipeline.service import MemoryService
from signet_pipeline.store import hints as hints_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.text.fts_query import QueryTerms


@dataclass
class KeywordLeg:
    terms: QueryTerms | None = None  # every content word of the query (coverage scoring); None: no word
    content: list[str] = field(default_factory=list)  # memory ids, best BM25 first
    hints: list[str] = field(default_factory=list)  # memories whose prospective hints match the words


def keyword_leg(svc: MemoryService, conn: apsw.Connection, text: str, flt: MemoryFilter, pool: int,
                budget: int | None = None) -> KeywordLeg:
    with fts_deadline(svc, conn):
        keywords = keyword_query(svc, conn, text, budget, flt.agent_id)
        if keywords is None:
            return KeywordLeg()
        if keywords.over_budget:  # BM25 would score more rows than the budget allows (recall/keywords.py)
            return KeywordLeg(keywords.terms)
        content = [mid for mid, _ in mem_store.fts_search(conn, keywords.match, flt, pool, weights=keywords.weights)]
        # Half a pool of hint candidates: as good as a full one on the LoCoMo-format eval (a fifth
        # lost R@10). On this thread: a worker thread beside the content FTS measured no faster.
        hint_match = hints_match(svc, conn, keywords) if svc.settings.pipeline.hints.enabled else None
        hints = [mid for mid, _ in hints_store.search(conn, hint_match, flt, max(1, pool // 2))] if hint_match else []
    return KeywordLeg(keywords.terms, content, hints)


def graph_leg(svc: MemoryService, conn: apsw.Connection, query: str, project: str | None, flt: MemoryFilter,
              found: list[str]) -> tuple[Traversal, set[str]]:
    """The walk, and the memories it reached beyond `found` (the keyword leg's) that the filter admits."""
    trav = traverse(conn, flt.agent_id, query, project, svc.settings.pipeline.traversal,
                    hub_mentions=svc.settings.search.graph_hub_mentions)
    extra = list(trav.memory_ids.difference(found))
    return trav, mem_store.visible_ids(conn, extra, flt) if extra else set()


# With a selective filter, score only the matching rows when there are at most this many.
RESTRICTED_SCAN_MAX = 50_000
# The vector leg widens its fetch up to this many neighbours before restricting the scan.
WIDEN_MAX = 4096


def vector_candidates(svc: MemoryService, query_vec: np.ndarray, flt: MemoryFilter, pool: int,
                      unwritten: dict[str, float] | None = None) -> dict[str, float]:
    """memory id -> cosine for the best `pool` memories the filter admits; `unwritten` (content
    hash -> cosine) adds memories whose vectors the write-behind embedder has not written yet."""
    index = svc.vector_index(settle=unwritten is None)
    if index is None:
        return {}
    conn = svc.db.reader()
    want = pool * 4 if flt.selective else pool + 10
    while True:  # widen while the filter (or other agents' private rows) eats the neighbours
        hits = index.search(query_vec, want)
        by_hash = {**(unwritten or {}), **dict(hits)}
        found = mem_store.live_ids_by_hashes(conn, list(by_hash), flt)
        if len(found) >= pool or len(hits) < want or want >= WIDEN_MAX:
            break
        want *= 4
    if len(found) < pool and len(hits) == want:
        # Still short: search only among the rows the filter admits.
        allowed = mem_store.visible_hashes(conn, flt, RESTRICTED_SCAN_MAX + 1)
        if len(allowed) <= RESTRICTED_SCAN_MAX:
            by_hash = dict(index.search(query_vec, pool, allowed_hashes=allowed))
            found = mem_store.live_ids_by_hashes(conn, list(by_hash), flt)
    scored = {memory_id: max(0.0, by_hash[h]) for h, memory_id in found}
    return dict(sorted(scored.items(), key=lambda kv: -kv[1])[:pool])


@dataclass
class VectorLeg:
    query_vec: np.ndarray
    found: dict[str, float]  # memory id -> cosine, best `pool`
    embed_ms: float
    search_ms: float


def vector_leg(svc: MemoryService, query: str, flt: MemoryFilter, pool: int) -> VectorLeg:
    started = time.perf_counter()
    # Read your writes without waiting for the write-behind embedder: the agent's own unwritten
    # memories are embedded with the query in one call (recall under write load, docs/BENCHMARKS.md).
    writer = svc.embed_behind
    own = writer.unwritten(flt.agent_id) if writer is not None else None
    if own and svc.embedder.asymmetric:  # a query is read unlike stored texts: two calls
        query_vec, vectors = svc.embed_query(query), svc.embedder.embed(list(own.values()))
        unwritten = {h: float(v @ query_vec) for h, v in zip(own, vectors)}
    elif own:
        query_vec, *own_vectors = svc.embedder.embed([query, *own.values()])
        unwritten = {h: float(v @ query_vec) for h, v in zip(own, own_vectors)}
    elif own is None and writer is not None:  # many (one agent for many writers): see embed_behind
        query_vec, by_hash = writer.embed_with_unwritten(query, svc.embed_query)
        unwritten = {h: float(v @ query_vec) for h, v in by_hash.items()}
    else:
        query_vec, unwritten = svc.embed_query(query), {}
    embedded = time.perf_counter()
    found = vector_candidates(svc, query_vec, flt, pool, unwritten)
    return VectorLeg(query_vec, found, (embedded - started) * 1000, (time.perf_counter() - embedded) * 1000)
