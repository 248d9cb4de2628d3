"""Decision candidates (spec memory-pipeline "Decision Stage": each fact's top-5 hybrid-search
candidates) for a batch of facts at once.

Recall tuned for near-duplicates, which share a fact's rare words and nearly all its meaning: POOL
candidates a leg, a small BM25 postings budget (the rarest words carry a near-duplicate), raw cosines
(hubness correction is for answers to questions), alpha x cosine + (1 - alpha) x coverage, no graph
paths, no conversation context, and a lookup is no memory access (why and the figures: decisions.md).

What one recall per fact repeated is done once per batch:
- the vector leg, per agent: one matrix product over the vectors the agent may read for all its facts
  (exact; an agent that may read more than BATCH_SCAN_MAX memories gets recall's per-query leg);
- a fact whose text already has a vector is searched with it;
- the candidates' rows, vectors and hints: one read each.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from signet_pipeline.errors import ProviderError
from signet_pipeline.models import ExtractedFact, RecallHit, RecallRequest
from signet_pipeline.recall.answers import to_hit
from signet_pipeline.recall.legs import keyword_leg, vector_candidates
from signet_pipeline.recall.scoring import fuse, keyword_scorer, rank
from signet_pipeline.recall.search import build_filter
from signet_pipeline.service import MemoryService
from signet_pipeline.store import hints as hints_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.text.content import normalize_content

CANDIDATES = 5
POOL = 15
POSTINGS_BUDGET = 1000
# Past this many readable memories an agent's vectors are not copied out for a batch (50k x 384
# float32 is 77 MB): its facts take recall's per-query leg, which the index bounds (prefilter).
BATCH_SCAN_MAX = 50_000


@dataclass(frozen=True)
class Lookup:
    """A fact to find candidates for: its agent, and the memories never to propose (the source:
    a fact is layered on the memory it came from, never judged against it)."""

    fact: ExtractedFact
    agent_id: str
    exclude: frozenset[str] = frozenset()


def _filter(svc: MemoryService, lookup: Lookup) -> MemoryFilter:
    return build_filter(svc, RecallRequest(query=lookup.fact.content, agentId=lookup.agent_id))


def _query_vectors(svc: MemoryService, index, texts: list[str],
                   known: dict[str, np.ndarray]) -> list[np.ndarray | None]:
    """Each text's vector: embedded with the batch (`known`, by content hash), else stored for the
    same text, else embedded now; None when the provider fails (that fact is searched by its words
    alone, as recall answers from keywords when its vector leg fails)."""
    hashes = [normalize_content(t).content_hash for t in texts]
    stored = index.vectors([h for h in hashes if h not in known])
    out: list[np.ndarray | None] = []
    for text, content_hash in zip(texts, hashes):
        vector = known.get(content_hash, stored.get(content_hash))
        if vector is None:
            try:
                vector = svc.embed_query(text)
            except ProviderError:
                vector = None
        out.append(vector)
    return out


def _nearest(svc: MemoryService, index, flt: MemoryFilter, queries: np.ndarray) -> list[dict[str, float]] | None:
    """Per query row, memory id -> cosine of the POOL nearest memories the filter admits; None when
    the agent reads more than BATCH_SCAN_MAX memories."""
    conn = svc.db.reader()
    readable = list(dict.fromkeys(mem_store.visible_hashes(conn, flt, BATCH_SCAN_MAX + 1)))
    if len(readable) > BATCH_SCAN_MAX:
        return None
    stored = index.vectors(readable)
    if not stored:
        return [{} for _ in queries]
    hashes = list(stored)
    scores = queries @ np.stack([stored[h] for h in hashes]).T
    k = min(POOL, len(hashes))
    top = np.argpartition(-scores, k - 1, axis=1)[:, :k]
    ids: dict[str, list[str]] = defaultdict(list)  # one text may be several memories the agent reads
    for content_hash, memory_id in mem_store.live_ids_by_hashes(conn, [hashes[j] for j in set(top.flat)], flt):
        ids[content_hash].append(memory_id)
    out = []
    for row, cols in zip(scores, top):
        found = {mid: max(0.0, float(row[j])) for j in cols for mid in ids[hashes[j]]}
        out.append(dict(sorted(found.items(), key=lambda kv: -kv[1])[:POOL]))
    return out


def _vector_legs(svc: MemoryService, index, filters: list[MemoryFilter],
                 queries: list[np.ndarray | None]) -> list[dict[str, float] | None]:
    """Per lookup, memory id -> cosine of its POOL nearest readable memories (None: no vector)."""
    by_agent: dict[str, list[tuple[int, np.ndarray]]] = defaultdict(list)  # (position, query) by agent
    for i, (flt, query) in enumerate(zip(filters, queries)):
        if query is not None:
            by_agent[flt.agent_id].append((i, query))
    out: list[dict[str, float] | None] = [None] * len(queries)
    for agent_queries in by_agent.values():
        found = _nearest(svc, index, filters[agent_queries[0][0]], np.stack([query for _, query in agent_queries]))
        for n, (i, query) in enumerate(agent_queries):
            out[i] = found[n] if found is not None else vector_candidates(svc, query, filters[i], POOL)
    return out


def find_candidates(svc: MemoryService, lookups: list[Lookup],
                    vectors: dict[str, np.ndarray] | None = None) -> list[list[RecallHit]]:
    """Each lookup's top CANDIDATES, best first. `vectors`: the facts' vectors by content hash
    (embedded with the batch; others are read from the index or embedded here)."""
    if not lookups:
        return []
    cfg, pipeline = svc.settings.search, svc.settings.pipeline
    conn = svc.db.reader()
    filters = [_filter(svc, lookup) for lookup in lookups]
    texts = [lookup.fact.content for lookup in lookups]
    index = svc.vector_index() if svc.embedder.enabled else None
    queries: list[np.ndarray | None] = (_query_vectors(svc, index, texts, vectors or {}) if index is not None
                                        else [None] * len(texts))
    nearest = _vector_legs(svc, index, filters, queries) if index is not None else [None] * len(texts)
    words = [keyword_leg(svc, conn, text, flt, POOL, POSTINGS_BUDGET) for text, flt in zip(texts, filters)]
    rows = mem_store.fetch_many(conn, list({mid for leg in words for mid in (*leg.content, *leg.hints)}
                                           | {mid for found in nearest if found for mid in found}))
    stored = index.vectors({row["content_hash"] for row in rows.values()}) if index is not None else {}
    hints = hints_store.for_memories(conn, list({mid for leg in words for mid in leg.hints}))
    out = []
    for i, (lookup, leg) in enumerate(zip(lookups, words)):
        limit = CANDIDATES + len(lookup.exclude)
        found, cosines = nearest[i] or {}, None
        if nearest[i] is not None:  # every candidate's cosine: the keyword ones' from their stored vectors
            cosines = {**{mid: max(0.0, float(stored[rows[mid]["content_hash"]] @ queries[i]))
                          for mid in {*leg.content, *leg.hints} if mid in rows and rows[mid]["content_hash"] in stored},
                       **found}
        scorer = keyword_scorer(conn, leg.terms, rows, {mid: hints[mid] for mid in leg.hints if mid in hints})
        fused = fuse(leg.content, leg.hints, set(found), scorer, cosines, rows, cfg.alpha)
        ranked = rank(fused, limit=limit, min_score=cfg.min_score,
                      graph_slots=limit - math.ceil(pipeline.traversal.flat_slot_share * limit))
        out.append([to_hit(rows[mid], score, source) for score, source, mid in ranked
                    if mid in rows and mid not in lookup.exclude][:CANDIDATES])
    return out
