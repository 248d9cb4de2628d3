"""Hybrid recall: FTS5 BM25 + vector cosine, alpha-blended (spec "Search").

The vector leg (query embedding, then the vector search) runs on a worker thread while FTS5 runs
on the caller's thread; embedding, BLAS and SQLite all release the GIL, so recall costs about
max(keyword leg, vector leg) rather than their sum. Stage timings: `memory_fts`, `graph_traversal`,
`query_embedding` and `vector_search` (measured on the worker), `query_embedding_wait` (how long
the caller waited for the vector leg after its own work), `fusion` (rows, cosines, hubness,
scores), `context` (dampening and the conversation-context steps) and `final_rank`. Scores:
- FTS5's BM25 picks the keyword candidates (the most frequent words left out above a cost
  budget, none when even the rarest word is over it: recall/legs.py), over the content and, with
  `hints.enabled`, over the prospective hints (a memory found only through a hint has
  `source: "hint"`); the vector leg picks the nearest memories;
- every candidate is scored on both signals: alpha * cosine + (1 - alpha) * coverage, where
  coverage is the IDF-weighted share of the query's words the memory contains (QueryTerms), or
  that its best hint contains when higher (max-merged, never added). A
  keyword candidate the vector leg did not return gets its cosine from the index (one dot
  product); docs/decisions.md says why not the spec's per-leg scores;
- cosines are corrected for hubness (recall/hubness.py): a memory as similar to every other
  candidate as to the query is a generic hub and loses some of its cosine (its own derived facts,
  which restate it, not counted);
- a memory with no vector (embedding failed) keeps its keyword score as is;
- graph paths (graph/traversal.py), while the vector leg runs: the traversal from entities the
  query names (rarest first, hubs left out) adds the memories it reaches as candidates
  (`source: "graph"`, scored like the rest, at most 60% of the slots); the legacy graph boost,
  post-fusion dampening (recall/dampening.py)
  and the embedding reranker (recall/rerank.py) exist behind flags, off by default (measured);
- bridges (recall/bridges.py): a rare entity one of the best candidates mentions, and the query does
  not name, lifts the memory mentioning it that best answers what that candidate does not (the query
  without the candidate's words: a question needing two memories);
- a question naming two or three people or things at once is also asked of each alone (recall/halves.py):
  each half's candidates are scored as the question's are (no full-text search or graph walk of their
  own: the question's covered the half's words and names), and a memory keeps its best score;
- a yes/no question about one named person is also asked as that person's own statement
  (recall/statements.py), scored as a half is; only a memory that speaks in the first person and does
  not ask takes the statement's score;
- results under min_score are dropped. `source` says which leg(s) found the memory.
Temporal recall (a `time` object or date phrases in the query, recall/temporal.py) limits every leg
to a time window, or answers a date-only query with a timeline.
"""

from __future__ import annotations

import contextvars
import logging
import math
from concurrent.futures import Future
from dataclasses import dataclass, replace

from signet_pipeline.errors import ProviderError
from signet_pipeline.graph.traversal import Traversal, boost_ids
from signet_pipeline.models import RecallRequest, RecallResult
from signet_pipeline.recall import context, temporal
from signet_pipeline.recall.bridges import add_bridges
from signet_pipeline.recall.answers import NO_HITS, Stopwatch, aggregate_unavailable, timeline, to_hit
from signet_pipeline.recall.dampening import Candidate, dampen
from signet_pipeline.recall.halves import halves
from signet_pipeline.recall.hubness import dampen_hubs
from signet_pipeline.recall.legs import VectorLeg, graph_leg, keyword_leg, vector_leg
from signet_pipeline.recall.joiners import add_replies, late_joiner, residual_scorer
from signet_pipeline.recall.rerank import rerank
from signet_pipeline.recall.scoring import add_traversal, fuse, keyword_scorer, rank
from signet_pipeline.recall.session_context import Ledger, transcripts_for
from signet_pipeline.recall.statements import as_statement, says_of_oneself
from signet_pipeline.service import MemoryService
from signet_pipeline.store import hints as hints_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.timeutil import now_iso

log = logging.getLogger("signet.recall")


def build_filter(svc: MemoryService, req: RecallRequest) -> MemoryFilter:
    return MemoryFilter(
        agent_id=req.agent_id, types=req.types, tags=req.tags or [], who=req.who, pinned=req.pinned,
        importance_min=req.importance_min, since=req.since, until=req.until, project=req.project,
        decay_rate=svc.settings.memory.decay_rate,
    )


def _wait(svc: MemoryService, future: Future) -> VectorLeg | None:
    """The vector leg's result, or None (keyword-only recall) if it failed or took too long."""
    try:
        return future.result(timeout=svc.settings.embedding.timeout_ms / 1000)
    except ProviderError:
        return None  # provider down: already logged by the write path and shown in status
    except TimeoutError:
        future.cancel()
        log.warning("vector leg timed out; recall answered from keywords only")
    except Exception:
        log.exception("vector leg failed; recall answered from keywords only")
    return None


def count_session_fts_hits(svc: MemoryService, session_key: str, agent_id: str, memory_ids: list[str]) -> None:
    """Full-text hits on memories the session was given at start: the aspect feedback's signal.
    Bookkeeping only, so a failure is logged and the recall still answers."""
    try:
        if memory_ids and sessions_store.tracked(svc.db.reader(), session_key):
            with svc.db.write() as conn:
                sessions_store.count_fts_hits(conn, session_key=session_key, agent_id=agent_id, memory_ids=memory_ids,
                                              now=now_iso())
    except Exception:
        log.exception("could not record session FTS hits for %s", session_key)


@dataclass(frozen=True)
class RecallOptions:
    """How a caller tunes recall; the API's search endpoints use SEARCH (the settings, plus temporal)."""

    track_access: bool = True  # False: the lookup does not count as the memories being used
    pool: int | None = None  # candidates per leg (search.candidate_pool)
    postings_budget: int | None = None  # search.fts_postings_budget
    hub_correction: bool = True  # search.hub_penalty applies
    graph: bool = True  # traversal, graph boost and dampening (memory.pipelineV2.graph/traversal/dampening)
    # Conversation context (recall/context.py): dated memories for "when" questions, replies to strong
    # hits, one result per fact family. Off for near-duplicate lookups, which want the rows themselves.
    context: bool = True
    record_session: bool = True  # False: the caller records in the session ledger what it really used
    # Date phrases and `time` (memory-api temporal recall) serve a caller's search; internal lookups
    # (decisions, forget by query, injection hooks) whose text merely holds a date must not be cut to that day.
    temporal: bool = False


SEARCH = RecallOptions(temporal=True)  # what the API's recall endpoints use


@dataclass
class Scored:
    """One query's candidates, scored (fusion, graph and context steps done): what ranking reads."""

    fused: dict[str, Candidate]
    rows: dict[str, Row]
    raw_cosines: dict[str, float]  # before the hubness correction (the reranker's)
    keyword_ids: list[str]
    hint_ids: list[str]
    found: int  # the vector leg's candidates
    vector: bool  # the query had a vector (hybrid, not keyword-only)
    trav: Traversal
    visible: set[str]
    boosted: set[str]
    dampened: dict
    bridged: int

    def absorb(self, other: Scored, statement: bool = False) -> None:
        """Another query's candidates (a half of this one, or its statement form): a memory keeps its best
        score. From a statement, only what someone says of themselves (recall/statements.py)."""
        for mid, candidate in other.fused.items():
            # The content is read only for a memory the statement would lift (most score higher as asked).
            if (mid not in self.fused or candidate.score > self.fused[mid].score) \
                    and (not statement or says_of_oneself(other.rows[mid]["content"])):
                self.fused[mid] = candidate
        self.rows.update(other.rows)
        self.raw_cosines = {**other.raw_cosines, **self.raw_cosines}


def _score(svc: MemoryService, req: RecallRequest, flt: MemoryFilter, options: RecallOptions, pool: int,
           alpha: float, watch: Stopwatch, half: bool = False) -> Scored:
    """One query's candidates from every leg, scored, with the graph and conversation-context steps:
    all that comes before ranking. A `half` (recall/halves.py) runs no full-text search: the question's
    own matched its words, and a half's candidates by meaning are what it adds."""
    cfg = svc.settings.search
    conn = svc.db.reader()  # this thread's
    in_flight: Future | None = None
    if svc.embedder.enabled and req.query.strip():
        # In this request's context: its read-start watermark and its place among the reads.
        in_flight = svc.pool.submit(contextvars.copy_context().run, vector_leg, svc, req.query, flt, pool)

    keywords = keyword_leg(svc, conn, req.keyword_query or req.query, flt, pool, options.postings_budget,
                           search=not half)
    terms, keyword_ids, hint_ids = keywords.terms, keywords.content, keywords.hints
    tokens = terms.words if terms is not None else []
    watch.lap("memory_fts")

    pipeline = svc.settings.pipeline
    use_graph = options.graph and pipeline.graph_on
    trav, visible = Traversal(), set()
    if use_graph and pipeline.traversal.enabled:  # while the vector leg runs
        trav, visible = graph_leg(svc, conn, req.query, req.project, flt, keyword_ids)
    boosted = boost_ids(conn, flt.agent_id, tokens, pipeline.graph) \
        if use_graph and not trav.focal and pipeline.graph.boost_weight else set()
    watch.lap("graph_traversal")

    leg: VectorLeg | None = None
    if in_flight is not None:
        leg = _wait(svc, in_flight)
        if leg is not None:
            watch.add("query_embedding", leg.embed_ms)
            watch.add("vector_search", leg.search_ms)
        watch.lap("query_embedding_wait")

    rows = mem_store.fetch_many(conn, list(dict.fromkeys([*keyword_ids, *hint_ids, *(leg.found if leg else []),
                                                          *visible])))
    family = context.family_of(rows)  # reads rows as it grows (memories join late)
    cosines: dict[str, float] | None = None
    raw_cosines: dict[str, float] = {}
    index = svc.vector_index(settle=False)  # the vector leg has settled, or scored what was unwritten
    if leg is not None and index is not None:
        # One lookup of every candidate's vector: cosines for the keyword and graph candidates the
        # vector leg did not return, and the pool the hubness correction compares (flat candidates;
        # graph-only ones are corrected against that pool without joining it).
        by_hash = index.vectors({row["content_hash"] for row in rows.values()})
        vectors = {mid: by_hash[row["content_hash"]] for mid, row in rows.items() if row["content_hash"] in by_hash}
        cosines = {**{mid: max(0.0, float(v @ leg.query_vec)) for mid, v in vectors.items()}, **leg.found}
        raw_cosines = cosines
        if cfg.hub_penalty > 0 and options.hub_correction:
            flat = {mid: c for mid, c in cosines.items() if mid not in visible or mid in leg.found}
            graph_only = {mid: c for mid, c in cosines.items() if mid not in flat}
            cosines = dampen_hubs(flat, vectors, penalty=cfg.hub_penalty, neighbours=cfg.hub_neighbours,
                                  extra=graph_only, family=family)
    # Hint coverage only for the hints search's own top matches (as the spec merges only hint
    # matches): reading and stemming every candidate's hints cost ~2 ms a recall at 10k.
    hints = hints_store.for_memories(conn, hint_ids) if hint_ids else {}
    keyword = keyword_scorer(conn, terms, rows, hints)
    fused = fuse(keyword_ids, hint_ids, set(leg.found) if leg else set(), keyword, cosines, rows, alpha)
    add_traversal(fused, trav, visible, cosines, keyword, rows, alpha)
    for mid in boosted & fused.keys():
        fused[mid].score += pipeline.graph.boost_weight
    watch.lap("fusion")
    dampened = dampen(conn, flt.agent_id, fused, rows, pipeline.dampening, set(trav.focal)) if use_graph else {}
    dated_weight = cfg.temporal_weight if options.context and context.asks_when(req.query) else 0.0
    if dated_weight:
        context.prefer_dated(fused, rows, dated_weight)
    join = late_joiner(conn, rows, flt, leg, index, keyword, alpha, dated_weight)
    if options.context and cfg.reply_weight:
        add_replies(conn, fused, rows, join, cfg, family)
    bridged = 0
    if use_graph and options.context and cfg.bridge_weight:
        residual = residual_scorer(svc, conn, rows, terms, req.query, index, alpha, dated_weight, family) \
            if cfg.bridge_residual and leg is not None else None
        bridged = add_bridges(conn, fused, {*trav.focal, *trav.hubs}, lambda ids: join(ids, "bridge"), cfg, family,
                              residual)
    if options.context and cfg.collapse_derived:  # one_per_family follows once every half has joined
        context.weigh_derived(fused, rows, cfg.derived_weight, query_has_words=terms is not None)
    watch.lap("context")
    return Scored(fused, rows, raw_cosines, keyword_ids, hint_ids, len(leg.found) if leg else 0, leg is not None,
                  trav, visible, boosted, dampened, bridged)


def recall(svc: MemoryService, req: RecallRequest, options: RecallOptions = RecallOptions()) -> RecallResult:
    with svc.reads_first.reading():  # writes in this process pause for it, briefly (service/reads_first.py)
        return _recall(svc, req, options)


def _recall(svc: MemoryService, req: RecallRequest, options: RecallOptions) -> RecallResult:
    cfg = svc.settings.search
    watch = Stopwatch()
    limit = req.limit or cfg.default_limit
    pool = max(options.pool or cfg.candidate_pool, limit * 2)
    alpha = cfg.alpha if req.alpha is None else req.alpha
    min_score = cfg.min_score if req.min_score is None else req.min_score
    if req.aggregate:
        return aggregate_unavailable(req, watch)
    when = temporal.plan(req.query, req.time) if options.temporal else None
    if when is not None:  # the date words leave the query; the window filters every leg
        req = req.model_copy(update={"query": when.content_query})
    flt = build_filter(svc, req)
    if when is not None:
        flt.window = when.window
        if when.mode == "timeline":
            return timeline(svc, req, when, flt, limit, watch)
    split = halves(req.query) if cfg.question_halves and options.context and not req.keyword_query else []
    statement = as_statement(req.query) \
        if cfg.statement_form and options.context and not split and not req.keyword_query else None
    # On threads of their own (each with its reader; SQLite, BLAS and the embedder release the GIL), in
    # this request's context, while the question is scored here.
    # No graph walk either: a half's names are among the question's, whose walk (and bridges) started from
    # them all; walking again cost ~7 ms over HTTP and measured within a question of it (docs/BENCHMARKS.md).
    asked = [svc.halves_pool.submit(contextvars.copy_context().run, _score, svc, req.model_copy(update={"query": other}),
                                    flt, replace(options, graph=False), pool, alpha, Stopwatch(), True)
             for other in split or ([statement] if statement else [])]
    scored = _score(svc, req, flt, options, pool, alpha, watch)
    for other in asked:  # the halves, or else the statement (never both)
        scored.absorb(other.result(), statement=statement is not None)
    if asked:
        watch.lap("halves" if split else "statement")
    conn = svc.db.reader()
    if options.context and cfg.collapse_derived:
        context.one_per_family(scored.fused, scored.rows, lambda ids: mem_store.visible_ids(conn, ids, flt))
    fused, rows, raw_cosines, trav = scored.fused, scored.rows, scored.raw_cosines, scored.trav
    pipeline = svc.settings.pipeline
    graph_slots = limit - math.ceil(pipeline.traversal.flat_slot_share * limit)
    ranked = rank(fused, limit=limit, min_score=min_score, graph_slots=graph_slots)
    ledger = Ledger.load(svc, req.session_key, flt.agent_id) if options.track_access else Ledger(None, flt.agent_id)
    # Full-text matches in the unsuppressed ranking confirm injected memories (aspect feedback),
    # also when the session ledger keeps them out of this answer.
    keyword_matched = [mid for _, src, mid in ranked if src in ("keyword", "hybrid")]
    suppressed = [mid for _, _, mid in ranked if mid in ledger.given]
    if suppressed and not req.include_recalled:  # the session was given these already: rank without them
        ranked = rank({m: c for m, c in fused.items() if m not in ledger.given}, limit=limit, min_score=min_score,
                      graph_slots=graph_slots)
    if pipeline.reranker.enabled and raw_cosines:
        ranked = rerank(ranked, raw_cosines, pipeline.reranker)
    hits = [to_hit(rows[mid], score, src) for score, src, mid in ranked if mid in rows]
    for hit in hits:
        hit.already_recalled = hit.id in ledger.given
    if req.expand:
        expanded = transcripts_for(svc, [rows[h.id] for h in hits], flt.agent_id)
        for hit in hits:
            hit.transcript = expanded.get(hit.id)
    if when is not None:
        temporal.annotate(conn, hits, rows, when.window)
    watch.lap("final_rank")

    if options.track_access:
        svc.access.record([h.id for h in hits])
        if options.record_session:
            ledger.record(svc, [h.id for h in hits])
        if req.session_key:
            count_session_fts_hits(svc, req.session_key, req.agent_id, keyword_matched)
    return RecallResult(
        results=hits, query=when.original_query if when else req.query, method="hybrid" if scored.vector else "keyword",
        message=None if hits else NO_HITS,
        meta={
            "totalReturned": len(hits), "hasSupplementary": False, "noHits": not hits,
            "candidates": {"fts": len(scored.keyword_ids), "hints": len(scored.hint_ids), "vector": scored.found,
                           "graph": len(scored.visible)},
            "graph": {"focalEntities": len(trav.focal), "traversedEntities": trav.entities,
                      "constraints": len(trav.constraints), "hubsSkipped": len(trav.hubs),
                      "timedOut": trav.timed_out, "boosted": len(scored.boosted & fused.keys()),
                      "dampening": scored.dampened, "bridged": scored.bridged},
            "timings": {"totalMs": watch.total_ms, "stages": watch.stages},
            "dedupe": {"enabled": ledger.enabled, "contextEpoch": ledger.epoch,
                       "suppressed": 0 if req.include_recalled else len(suppressed),
                       "repeatedReturned": sum(h.already_recalled for h in hits)},
            **({"temporal": when.meta()} if when else {}),
            **({"halves": split} if split else {}),
            **({"statement": statement} if statement else {}),
        },
    )
