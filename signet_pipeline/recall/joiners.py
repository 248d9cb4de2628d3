"""Memories that join the candidates after fusion, scored like the rest (late_joiner): the replies
to strong candidates that ask something (add_replies)."""

from __future__ import annotations

from collections.abc import Callable

from signet_pipeline.recall import context
from signet_pipeline.recall.legs import VectorLeg
from signet_pipeline.recall.scoring import Candidate, blend
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.memories import MemoryFilter


def late_joiner(conn, rows: dict[str, Row], flt: MemoryFilter, leg: VectorLeg | None, index,
                 keyword: Callable[[str], float], alpha: float,
                 dated_weight: float) -> Callable[[list[str], str], dict[str, Candidate]]:
    """Candidates for memories that join after fusion (replies): those the filter admits,
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


def cosines_of(ids: list[str], rows: dict[str, Row], leg: VectorLeg | None, index) -> dict[str, float]:
    """Query cosines of candidates that joined late (their vectors from the index)."""
    if leg is None or index is None or not ids:
        return {}
    by_hash = index.vectors({rows[mid]["content_hash"] for mid in ids})
    return {mid: max(0.0, float(by_hash[rows[mid]["content_hash"]] @ leg.query_vec)) for mid in ids
            if rows[mid]["content_hash"] in by_hash}
