"""The keyword and graph legs of hybrid recall (recall/search.py), each bounded in what it may
cost, as the vector leg is by its fixed candidate count:
- keyword: FTS5 BM25 over the content (and the prospective hints) of at most the postings budget's
  rows, none when the rarest query word alone has more (recall/keywords.py), under limits.query_time_ms;
- graph: the traversal from the entities the query names, rarest first, hubs (search.graphHubMentions)
  left out (graph/traversal.py), within its caps on memories and time.
Functions of their own so bench/recall_tail_bench.py can time each alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import apsw

from signet_pipeline.graph.traversal import Traversal, traverse
from signet_pipeline.recall.keywords import fts_deadline, keyword_query
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
        keywords = keyword_query(svc, conn, text, budget)
        if keywords is None:
            return KeywordLeg()
        if keywords.over_budget:  # BM25 would score more rows than the budget allows (recall/keywords.py)
            return KeywordLeg(keywords.terms)
        content = [mid for mid, _ in mem_store.fts_search(conn, keywords.match, flt, pool)]
        # Half a pool of hint candidates: as good as a full one on the LoCoMo-format eval (a fifth
        # lost R@10). On this thread: a worker thread beside the content FTS measured no faster.
        hints = [mid for mid, _ in hints_store.search(conn, keywords.match, flt, max(1, pool // 2))] \
            if svc.settings.pipeline.hints.enabled else []
    return KeywordLeg(keywords.terms, content, hints)


def graph_leg(svc: MemoryService, conn: apsw.Connection, query: str, project: str | None, flt: MemoryFilter,
              found: list[str]) -> tuple[Traversal, set[str]]:
    """The walk, and the memories it reached beyond `found` (the keyword leg's) that the filter admits."""
    trav = traverse(conn, flt.agent_id, query, project, svc.settings.pipeline.traversal,
                    hub_mentions=svc.settings.search.graph_hub_mentions)
    extra = list(trav.memory_ids.difference(found))
    return trav, mem_store.visible_ids(conn, extra, flt) if extra else set()
