"""Bridges: the second memory a question needs is often found only through the first.

"Who went to Greece with Bartek, and what does that person do?" finds the turn about the trip,
which names Piotr; the turn saying what Piotr does shares no word with the question. A rare entity
that one of the best candidates (the anchors) mentions and the query does not name is such a
bridge: the memory mentioning it that scores best on its own joins the candidates at
`search.bridgeWeight` x its anchor's score (or keeps its own score when higher). Only anchors
that share the question's words start a bridge, and only a memory with some score of its own is
lifted (the two constants below). An entity
mentioned in more than `search.bridgeMaxMentions` memories is a hub (a speaker, the user) and
bridges nothing; the same bound caps the rows read, so a bridge costs a few indexed lookups.
When an entity reaches several memories, the one lifted is the one that best answers what the
anchor does not: "What does Marek's big brother do for a living?" finds "I was on the phone with my
big brother Wojtek"; of Wojtek's memories the one closest to the question is another about Marek and
his brother, the one closest to "what does do for a living" says Wojtek works as a court interpreter
(`residual`, search.bridgeResidual). Measured per category on three evaluation sets in docs/BENCHMARKS.md.
"""

from __future__ import annotations

from collections.abc import Callable

import apsw

from signet_pipeline.config import SearchConfig
from signet_pipeline.recall.context import best_families
from signet_pipeline.recall.dampening import Candidate
from signet_pipeline.store import graph as graph_store

# A bridge starts from a memory that has the question's own words (this share of their IDF weight):
# an anchor found by meaning alone, as for "would X like ...", leads anywhere (it cost open-domain
# recall on set C). The memory it reaches must score on its own at least MIN_OWN_SHARE of its anchor.
ANCHOR_MIN_COVERAGE = 0.3
MIN_OWN_SHARE = 0.4

# ids -> Candidate (own score, source `bridge`) for those the caller's filter admits.
JoinLate = Callable[[list[str]], dict[str, Candidate]]
# (anchor id, memory ids) -> each memory's score against what the question asks beyond that anchor
# (those it cannot score are left out).
Residual = Callable[[str, list[str]], dict[str, float]]


def add_bridges(conn: apsw.Connection, fused: dict[str, Candidate], named: set[str], join: JoinLate,
                cfg: SearchConfig, family: Callable[[str], str], residual: Residual | None = None) -> int:
    """Lift (or add) one memory per bridge entity; `named` holds the entities the query names.
    `family(id)` is the memory a derived fact came from (itself for the rest): anchors are the best
    candidates of distinct families, each with the names its family mentions, and a bridge leads out of
    its anchor's family. (On drained stores the best anchor was often a fact, linked to no entity, and
    the second its own source.) Of several memories an entity reaches, `residual` picks (when given).
    Returns how many memories were lifted."""
    anchors = list(best_families(fused, family, cfg.bridge_anchors).values())
    linked = graph_store.linked_entities(conn, list({m for mid, _ in anchors for m in (mid, family(mid))}))
    bridges: dict[str, tuple[float, str]] = {}  # entity id -> (its best anchor's score, that anchor)
    for mid, candidate in anchors:  # best anchor first
        if candidate.keyword < ANCHOR_MIN_COVERAGE:
            continue
        # A derived fact is seldom linked to entities itself: its source's names are its names.
        names = {*linked.get(mid, []), *linked.get(family(mid), [])}
        for entity_id, mentions in names:
            if entity_id not in named and 2 <= mentions <= cfg.bridge_max_mentions:
                bridges.setdefault(entity_id, (candidate.score, mid))
    if not bridges:
        return 0
    reached = graph_store.mentions_by_entity(conn, list(bridges), cfg.bridge_max_mentions)
    joined = join([mid for mids in reached.values() for mid in mids if mid not in fused])
    lifted = 0
    for entity_id, mids in reached.items():
        anchor_score, anchor = bridges[entity_id]
        own = {mid: c for mid in mids
               if family(mid) != family(anchor) and (c := fused.get(mid) or joined.get(mid)) is not None}
        if not own:
            continue
        choice = residual(anchor, list(own)) if residual is not None and len(own) > 1 else {}
        best = max(own, key=lambda mid: choice.get(mid, own[mid].score))
        root = fused.get(family(anchor))  # a fact's score runs above its source's: the guard was measured on turns
        if own[best].score < MIN_OWN_SHARE * (min(anchor_score, root.score) if root else anchor_score):
            continue  # reached only through the name: not about the question
        fused.setdefault(best, own[best])
        if fused[best].score < anchor_score * cfg.bridge_weight:
            fused[best].score = anchor_score * cfg.bridge_weight
            lifted += 1
    return lifted
