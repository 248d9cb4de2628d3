"""Memories that join the candidates after fusion, scored like the rest: the replies to strong
candidates that ask something (add_replies), and what bridges reach (late_joiner, with the residual
score that picks a bridge's memory: residual_scorer). recall/search.py runs them in order."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from signet_pipeline.errors import ProviderError
from signet_pipeline.recall import context
from signet_pipeline.recall.dampening import Candidate
from signet_pipeline.recall.legs import VectorLeg
from signet_pipeline.recall.scoring import blend
from signet_pipeline.service import MemoryService
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.text.fts_query import QueryTerms


def late_joiner(conn, rows: dict[str, Row], flt: MemoryFilter, leg: VectorLeg | None, index,
                 keyword: Callable[[str], float], alpha: float,
                 dated_weight: float) -> Callable[[list[str], str], dict[str, Candidate]]:
    """Candidates for memories that join after fusion (replies, bridges): those the filter admits,
    scored like the rest (their cosines from the index, and `dated_weight` when they say when, as
    prefer_dated gave the others), with the given source."""
    def join(ids: list[str], source: str) -> dict[str, Candidate]:
        visible = mem_store.visible_ids(conn, ids, flt) if ids else set()
        rows.update(mem_store.fetch_many(conn, list(visible)))
        cosines = cosines_of(list(visible), rows, leg, index)
        joined = {mid: Candidate(blend(keyword(mid), cosines.get(mid) if leg is not None else None, alpha), source,
                                 cosines.get(mid), keyword(mid)) for mid in visible}
        if dated_weight:
            context.prefer_dated(joined, rows, dated_weight)
        return joined

    return join


def add_replies(conn, fused: dict[str, Candidate], rows: dict[str, Row], join, cfg,
                 family: Callable[[str], str]) -> None:
    """The replies to the best candidates that ask something join (or are lifted among) the
    candidates at reply_weight x the question's score (recall/context.py). A derived fact stands for
    the turn it came from: that turn asked, and its place in the conversation is the turn's."""
    best = context.best_families(fused, family, cfg.reply_anchors)
    rows.update(mem_store.fetch_many(conn, [root for root in best if root not in rows]))
    found = context.replies(conn, [rows[root] for root in best if root in rows])
    joined = join([mid for mid in found if mid not in fused], "reply")
    for mid, anchor in found.items():
        lifted = best[anchor][1].score * cfg.reply_weight
        if mid in fused:
            fused[mid].score = max(fused[mid].score, lifted)
        elif mid in joined:
            fused[mid] = joined[mid]
            fused[mid].score = max(fused[mid].score, lifted)


def residual_scorer(svc: MemoryService, conn, rows: dict[str, Row], terms: QueryTerms | None, query: str, index,
                     alpha: float, dated_weight: float, family: Callable[[str], str]):
    """For bridges (recall/bridges.py): memories scored as the rest are (the dated weight included),
    but against what the query asks beyond their anchor: the cosine to the query without the words the
    anchor's family holds, and the share of the words left that they hold. No score when the anchor
    holds none of the words or all of them, or the embedder fails (the bridge keeps its own choice).
    Worked out once per anchor, and only when an entity reaches several memories."""
    if terms is None or index is None:
        return None
    wanted = set(terms.stems.values())
    stemmer = None  # made on first use: most recalls never get here
    beyond: dict[str, tuple[set[str], np.ndarray] | None] = {}  # anchor -> (words left, their vector)

    def stems_of(text: str) -> set[str]:
        nonlocal stemmer
        stemmer = stemmer or mem_store.text_stemmer(conn)
        return stemmer(text)

    def left_by(anchor: str) -> tuple[set[str], np.ndarray] | None:
        covered = set().union(*(stems_of(rows[mid]["content"]) for mid in {anchor, family(anchor)} if mid in rows))
        left = wanted - covered
        if not left or left == wanted:
            return None
        try:
            return left, svc.embed_query(terms.residual(query, covered))
        except ProviderError:
            return None

    def score(anchor: str, ids: list[str]) -> dict[str, float]:
        if anchor not in beyond:
            beyond[anchor] = left_by(anchor)
        if beyond[anchor] is None:
            return {}
        left, vec = beyond[anchor]
        by_hash = index.vectors({rows[mid]["content_hash"] for mid in ids})
        scored = {}
        for mid in ids:
            if (v := by_hash.get(rows[mid]["content_hash"])) is not None:
                kw, cos = terms.coverage(stems_of(rows[mid]["content"]), left), max(0.0, float(v @ vec))
                scored[mid] = Candidate(blend(kw, cos, alpha), "bridge", cos, kw)
        if dated_weight:
            context.prefer_dated(scored, rows, dated_weight)
        return {mid: c.score for mid, c in scored.items()}

    return score


def cosines_of(ids: list[str], rows: dict[str, Row], leg: VectorLeg | None, index) -> dict[str, float]:
    """Query cosines of candidates that joined late (their vectors from the index)."""
    if leg is None or index is None or not ids:
        return {}
    by_hash = index.vectors({rows[mid]["content_hash"] for mid in ids})
    return {mid: max(0.0, float(by_hash[rows[mid]["content_hash"]] @ leg.query_vec)) for mid in ids
            if rows[mid]["content_hash"] in by_hash}
