"""The one way from user text to the MATCH expression of a full-text search, with its cost bounded:
words deduplicated, capped, quoted and OR-ed; the most frequent left out above the postings budget;
BM25 by the asking agent's own term frequencies where it is affordable; statements stopped at the
query time limit. Every recall, search endpoint and hook goes through `keyword_query` and
`fts_deadline`. Design: docs/internals.md; figures: docs/decisions.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import apsw

from signet_pipeline.service import MemoryService
from signet_pipeline.store import hints as hints_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import deadline
from signet_pipeline.store.fulltext import agent_terms
from signet_pipeline.store.fulltext.functions import stem_words
from signet_pipeline.text.fts_query import QueryTerms, idf, match_for, query_tokens, within_budget

# agent_bm25 (Python, per scored row) costs about this many times FTS5's own bm25(): a query that would
# have it score more than budget / AGENT_BM25_COST rows is ranked by FTS5's, within the same time.
AGENT_BM25_COST = 3

# Below this many hint documents the hints search keeps every word: scanning them is cheap, and in a
# handful of documents "more than half" says nothing about a word.
HINT_DOCS_MIN = 1_000


@dataclass(frozen=True)
class KeywordQuery:
    terms: QueryTerms  # every content word with its IDF in the store, for coverage scoring
    match: str  # what FTS5 ranks: the words within the postings budget (at least the rarest)
    over_budget: bool  # the rarest word alone has more rows than the budget
    kept: list[str]  # the words of `match`
    weights: str | None = None  # each word of `match`'s IDF among the agent's rows (JSON), for its BM25


def keyword_query(svc: MemoryService, conn: apsw.Connection, text: str, budget: int | None = None,
                  agent_id: str | None = None) -> KeywordQuery | None:
    """None when the text holds no searchable word. `budget`: search.fts_postings_budget unless given.
    With `agent_id`, BM25 weighs the words by that agent's document frequencies (`agent_terms`); coverage
    keeps the store's (the agent's measured lower on our sets: docs/decisions.md)."""
    tokens = query_tokens(text)
    if not tokens:
        return None
    stems = stem_words(conn, tokens)
    rows_now = mem_store.indexed_rows(conn)
    counts = svc.doc_freqs.counts(conn, set(stems.values()), rows_now)  # the store's: what BM25 would read
    terms = QueryTerms.build(tokens, stems, counts, rows_now)
    budget = svc.settings.search.fts_postings_budget if budget is None else budget
    doc_freq = terms.doc_freq_by_word(counts)
    kept = within_budget(tokens, doc_freq, budget)
    match = match_for(kept)
    assert match is not None  # within_budget keeps at least one word
    scored = sum(doc_freq[w] for w in kept)
    own = _own_statistics(svc, conn, agent_id, {stems[w] for w in kept}) \
        if budget <= 0 or scored * AGENT_BM25_COST <= budget else None
    weights = json.dumps([idf(own.counts[stems[w]], own.docs) for w in kept]) if own else None
    return KeywordQuery(terms, match, over_budget=0 < budget < scored, kept=kept, weights=weights)


def _own_statistics(svc: MemoryService, conn: apsw.Connection, agent_id: str | None,
                    stems: set[str]) -> agent_terms.AgentTerms | None:
    """The agent's statistics when they differ from the store's: it has rows, and others have too."""
    if agent_id is None or not svc.settings.search.agent_term_stats:
        return None
    own = agent_terms.for_agent(conn, agent_id, stems)
    return own if 0 < own.docs < own.store_docs else None


def hints_match(svc: MemoryService, conn: apsw.Connection, query: KeywordQuery) -> str | None:
    """The MATCH for the hints index: the query's words but those more than half of the hint
    documents hold; every word while it holds fewer than HINT_DOCS_MIN documents. None: no word left.

    Counts and documents are cached together, as fresh as the hints table's growth (not the store's:
    hints arrive from the pipeline after their memories), so a count is never compared with a total
    read before most of the hints it counts were written."""
    hint_rows = hints_store.rows_now(conn)
    documents = svc.hint_doc_freqs.documents(conn, hint_rows)
    if documents < HINT_DOCS_MIN:
        return query.match
    stems = {w: query.terms.stems[w] for w in query.kept}
    counts = svc.hint_doc_freqs.counts(conn, set(stems.values()), hint_rows)
    return match_for([w for w in query.kept if counts[stems[w]] <= documents / 2])


def fts_deadline(svc: MemoryService, conn: apsw.Connection):
    """limits.query_time_ms for the full-text statements run on `conn` inside the block."""
    return deadline(conn, svc.settings.limits.query_time_ms / 1000)
