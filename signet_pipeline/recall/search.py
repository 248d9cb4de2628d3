"""Hybrid recall (spec "Search"), one function a stage: plan the query (limits, date window), gather
candidates (FTS5 BM25 on this thread while the vector leg runs on a worker, then the graph walk),
score them (alpha x cosine corrected for hubness + (1 - alpha) x IDF-weighted word coverage, then the
graph's and the conversation's steps: recall/context.py), rank, record the use (access counts, the
session ledger, the session's full-text confirmations) and answer. docs/architecture.md walks the
stages and their settings; docs/decisions.md says why each is as it is."""

from __future__ import annotations

import contextvars
import logging
import math
from concurrent.futures import Future
from dataclasses import dataclass

from signet_pipeline.errors import ProviderError
from signet_pipeline.graph.traversal import Traversal
from signet_pipeline.models import RecallHit, RecallRequest, RecallResult
from signet_pipeline.recall import context, temporal
from signet_pipeline.recall.answers import NO_HITS, Stopwatch, aggregate_unavailable, timeline, to_hit
from signet_pipeline.recall.hubness import dampen_hubs
from signet_pipeline.recall.joiners import add_replies, late_joiner
from signet_pipeline.recall.legs import VectorLeg, graph_leg, keyword_leg, vector_leg
from signet_pipeline.recall.scoring import Candidate, add_traversal, fuse, keyword_scorer, rank
from signet_pipeline.recall.session_context import Ledger, transcripts_for
from signet_pipeline.service import MemoryService
from signet_pipeline.store import hints as hints_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.text.fts_query import QueryTerms
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
    graph: bool = True  # the graph walk (memory.pipelineV2.graph/traversal)
    # Conversation context (recall/context.py): dated memories for "when" questions, replies to strong
    # hits, one result per fact family. Off for near-duplicate lookups, which want the rows themselves.
    context: bool = True
    record_session: bool = True  # False: the caller records in the session ledger what it really used
    # Date phrases and `time` (memory-api temporal recall) serve a caller's search; internal lookups
    # (decisions, forget by query, injection hooks) whose text merely holds a date must not be cut to that day.
    temporal: bool = False


SEARCH = RecallOptions(temporal=True)  # what the API's recall endpoints use


@dataclass
class Plan:
    """What one recall asks: the request (its date words out), the filter, and how many it wants."""

    req: RecallRequest
    flt: MemoryFilter
    when: temporal.Plan | None
    limit: int
    pool: int  # candidates per leg
    alpha: float
    min_score: float


@dataclass
class Gathered:
    """The candidates every leg found, and their rows."""

    terms: QueryTerms | None
    keyword_ids: list[str]
    hint_ids: list[str]
    leg: VectorLeg | None
    trav: Traversal
    visible: set[str]  # what the graph walk reached that the caller may read
    rows: dict[str, Row]


def recall_memories(svc: MemoryService, req: RecallRequest, options: RecallOptions = RecallOptions()) -> RecallResult:
    with svc.reads_first.reading():  # writes in this process pause for it, briefly (service/reads_first.py)
        return _recall(svc, req, options)


def _recall(svc: MemoryService, req: RecallRequest, options: RecallOptions) -> RecallResult:
    watch = Stopwatch()
    if req.aggregate:
        return aggregate_unavailable(req, watch)
    plan = _plan(svc, req, options)
    if plan.when is not None and plan.when.mode == "timeline":
        return timeline(svc, plan.req, plan.when, plan.flt, plan.limit, watch)
    found = _gather(svc, plan, options, watch)
    fused = _score(svc, plan, options, found, watch)
    ledger = Ledger.load(svc, req.session_key, plan.flt.agent_id) if options.track_access \
        else Ledger(None, plan.flt.agent_id)
    ranked, keyword_matched, suppressed = _rank(svc, plan, fused, ledger)
    hits = _hits(svc, plan, ranked, found.rows, ledger)
    watch.lap("final_rank")
    if options.track_access:
        _record(svc, plan, options, hits, ledger, keyword_matched)
    return _answer(plan, hits, found, ledger, suppressed, watch)


def _plan(svc: MemoryService, req: RecallRequest, options: RecallOptions) -> Plan:
    cfg = svc.settings.search
    limit = req.limit or cfg.default_limit
    when = temporal.plan(req.query, req.time) if options.temporal else None
    if when is not None:  # the date words leave the query; the window filters every leg
        req = req.model_copy(update={"query": when.content_query})
    flt = build_filter(svc, req)
    if when is not None:
        flt.window = when.window
    return Plan(req, flt, when, limit, pool=max(options.pool or cfg.candidate_pool, limit * 2),
                alpha=cfg.alpha if req.alpha is None else req.alpha,
                min_score=cfg.min_score if req.min_score is None else req.min_score)


def _gather(svc: MemoryService, plan: Plan, options: RecallOptions, watch: Stopwatch) -> Gathered:
    """Every leg's candidates: the vector leg on a worker thread while full-text search and the graph
    walk run here, then the rows of all they found."""
    req, flt, conn = plan.req, plan.flt, svc.db.reader()  # this thread's reader
    in_flight: Future | None = None
    if svc.embedder.enabled and req.query.strip():
        # In this request's context: its read-start watermark and its place among the reads.
        in_flight = svc.pool.submit(contextvars.copy_context().run, vector_leg, svc, req.query, flt, plan.pool)
    keywords = keyword_leg(svc, conn, req.keyword_query or req.query, flt, plan.pool, options.postings_budget)
    watch.lap("memory_fts")
    pipeline = svc.settings.pipeline
    use_graph = options.graph and pipeline.graph_on
    trav, visible = Traversal(), set[str]()
    if use_graph and pipeline.traversal.enabled:  # while the vector leg runs
        trav, visible = graph_leg(svc, conn, req.query, req.project, flt, keywords.content)
    watch.lap("graph_traversal")
    leg: VectorLeg | None = None
    if in_flight is not None:
        leg = _wait(svc, in_flight)
        if leg is not None:
            watch.add("query_embedding", leg.embed_ms)
            watch.add("vector_search", leg.search_ms)
        watch.lap("query_embedding_wait")
    ids = [*keywords.content, *keywords.hints, *(leg.found if leg else []), *visible]
    return Gathered(keywords.terms, keywords.content, keywords.hints, leg, trav, visible,
                    mem_store.fetch_many(conn, list(dict.fromkeys(ids))))


def _score(svc: MemoryService, plan: Plan, options: RecallOptions, found: Gathered,
           watch: Stopwatch) -> dict[str, Candidate]:
    """Every candidate scored on both signals (cosines corrected for hubness), then the graph's and the
    conversation's steps: what ranking reads."""
    cfg, conn, rows, leg = svc.settings.search, svc.db.reader(), found.rows, found.leg
    family = context.family_of(rows)  # reads rows as it grows (memories join late)
    cosines: dict[str, float] | None = None
    index = svc.vector_index(settle=False)  # the vector leg has settled, or scored what was unwritten
    if leg is not None and index is not None:
        # One lookup of every candidate's vector: cosines for the keyword and graph candidates the
        # vector leg did not return, and the pool the hubness correction compares (flat candidates;
        # graph-only ones are corrected against that pool without joining it).
        by_hash = index.vectors({row["content_hash"] for row in rows.values()})
        vectors = {mid: by_hash[row["content_hash"]] for mid, row in rows.items() if row["content_hash"] in by_hash}
        cosines = {**{mid: max(0.0, float(v @ leg.query_vec)) for mid, v in vectors.items()}, **leg.found}
        if cfg.hub_penalty > 0 and options.hub_correction:
            flat = {mid: c for mid, c in cosines.items() if mid not in found.visible or mid in leg.found}
            graph_only = {mid: c for mid, c in cosines.items() if mid not in flat}
            cosines = dampen_hubs(flat, vectors, penalty=cfg.hub_penalty, neighbours=cfg.hub_neighbours,
                                  extra=graph_only, family=family)
    # Hint coverage only for the hints search's own top matches (as the spec merges only hint
    # matches): reading and stemming every candidate's hints cost ~2 ms a recall at 10k.
    hints = hints_store.for_memories(conn, found.hint_ids) if found.hint_ids else {}
    keyword = keyword_scorer(conn, found.terms, rows, hints)
    fused = fuse(found.keyword_ids, found.hint_ids, set(leg.found) if leg else set(), keyword, cosines, rows,
                 plan.alpha)
    add_traversal(fused, found.trav, found.visible, cosines, keyword, rows, plan.alpha)
    watch.lap("fusion")
    if options.context:
        dated_weight = cfg.temporal_weight if context.asks_when(plan.req.query) else 0.0
        if dated_weight:
            context.prefer_dated(fused, rows, dated_weight)
        if cfg.reply_weight:
            join = late_joiner(conn, rows, plan.flt, leg, index, keyword, plan.alpha, dated_weight)
            add_replies(conn, fused, rows, join, cfg, family)
        if cfg.collapse_derived:
            context.weigh_derived(fused, rows, cfg.derived_weight, query_has_words=found.terms is not None)
            context.one_per_family(fused, rows, lambda ids: mem_store.visible_ids(conn, ids, plan.flt))
    watch.lap("context")
    return fused


def _rank(svc: MemoryService, plan: Plan, fused: dict[str, Candidate],
          ledger: Ledger) -> tuple[list[tuple[float, str, str]], list[str], list[str]]:
    """(the ranking, the memories full-text search matched in it, those the session was given already)."""
    pipeline = svc.settings.pipeline
    graph_slots = plan.limit - math.ceil(pipeline.traversal.flat_slot_share * plan.limit)
    ranked = rank(fused, limit=plan.limit, min_score=plan.min_score, graph_slots=graph_slots)
    # Full-text matches in the unsuppressed ranking confirm injected memories (aspect feedback),
    # also when the session ledger keeps them out of this answer.
    keyword_matched = [mid for _, src, mid in ranked if src in ("keyword", "hybrid")]
    suppressed = [mid for _, _, mid in ranked if mid in ledger.given]
    if suppressed and not plan.req.include_recalled:  # the session was given these already: rank without them
        ranked = rank({m: c for m, c in fused.items() if m not in ledger.given}, limit=plan.limit,
                      min_score=plan.min_score, graph_slots=graph_slots)
    return ranked, keyword_matched, suppressed


def _hits(svc: MemoryService, plan: Plan, ranked: list[tuple[float, str, str]], rows: dict[str, Row],
          ledger: Ledger) -> list[RecallHit]:
    hits = [to_hit(rows[mid], score, src) for score, src, mid in ranked if mid in rows]
    for hit in hits:
        hit.already_recalled = hit.id in ledger.given
    if plan.req.expand:
        expanded = transcripts_for(svc, [rows[h.id] for h in hits], plan.flt.agent_id)
        for hit in hits:
            hit.transcript = expanded.get(hit.id)
    if plan.when is not None:
        temporal.annotate(svc.db.reader(), hits, rows, plan.when.window)
    return hits


def _record(svc: MemoryService, plan: Plan, options: RecallOptions, hits: list[RecallHit], ledger: Ledger,
            keyword_matched: list[str]) -> None:
    """The recall as use of what it found: access counts, the session's ledger, and the full-text
    confirmations of what the session was given at its start (its owner's only)."""
    svc.access.record([h.id for h in hits])
    if options.record_session:
        ledger.record(svc, [h.id for h in hits])
    if plan.req.session_key:
        count_session_fts_hits(svc, plan.req.session_key, plan.req.agent_id, keyword_matched)


def _answer(plan: Plan, hits: list[RecallHit], found: Gathered, ledger: Ledger, suppressed: list[str],
            watch: Stopwatch) -> RecallResult:
    req, when, trav = plan.req, plan.when, found.trav
    return RecallResult(
        results=hits, query=when.original_query if when else req.query,
        method="hybrid" if found.leg is not None else "keyword", message=None if hits else NO_HITS,
        meta={
            "totalReturned": len(hits), "hasSupplementary": False, "noHits": not hits,
            "candidates": {"fts": len(found.keyword_ids), "hints": len(found.hint_ids),
                           "vector": len(found.leg.found) if found.leg else 0, "graph": len(found.visible)},
            "graph": {"focalEntities": len(trav.focal), "traversedEntities": trav.entities,
                      "constraints": len(trav.constraints), "hubsSkipped": len(trav.hubs),
                      "timedOut": trav.timed_out},
            "timings": {"totalMs": watch.total_ms, "stages": watch.stages},
            "dedupe": {"enabled": ledger.enabled, "contextEpoch": ledger.epoch,
                       "suppressed": 0 if req.include_recalled else len(suppressed),
                       "repeatedReturned": sum(h.already_recalled for h in hits)},
            **({"temporal": when.meta()} if when else {}),
        },
    )
