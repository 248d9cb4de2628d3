"""How one query scores its candidates: query-word coverage (keyword_scorer) and cosine, alpha-blended
(blend); every leg's candidates fused (fuse), the graph's added (add_traversal), and ranked (rank).
The decisions stage reuses them to find a new fact's neighbours (stages/extraction/candidates.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from signet_pipeline.graph.traversal import Traversal
from signet_pipeline.store.db import Row
from signet_pipeline.store.fulltext.functions import text_stemmer
from signet_pipeline.text.fts_query import QueryTerms


@dataclass
class Candidate:
    score: float
    source: str
    cosine: float | None
    keyword: float  # query-word coverage


def keyword_scorer(conn, terms: QueryTerms | None, rows: dict[str, Row],
                   hints: dict[str, list[str]]) -> Callable[[str], float]:
    """Keyword score of a candidate: the query-term coverage of its content, or of its best
    prospective hint when that is higher (spec: hint and content scores merge by max, never add)."""
    if terms is None:
        return lambda mid: 0.0
    stems_of = text_stemmer(conn)

    def score(mid: str) -> float:
        return max([terms.coverage(stems_of(rows[mid]["content"])),
                    *(terms.coverage(stems_of(h)) for h in hints.get(mid, ()))])

    return score


def blend(keyword: float, cosine: float | None, alpha: float) -> float:
    return keyword if cosine is None else alpha * cosine + (1 - alpha) * keyword  # no vector: keyword alone


def fuse(keyword_ids: list[str], hint_ids: list[str], found_ids: set[str], keyword: Callable[[str], float],
         cosines: dict[str, float] | None, rows: dict[str, Row], alpha: float) -> dict[str, Candidate]:
    """memory id -> Candidate for every candidate of any leg (content FTS, hints FTS, vector).

    `keyword` gives the query-term coverage (keyword_scorer); `cosines` holds every candidate's
    (hub-corrected) cosine, or is None when the query has no vector.
    """
    in_fts, in_hints = set(keyword_ids), set(hint_ids)
    fused: dict[str, Candidate] = {}
    for mid in dict.fromkeys([*keyword_ids, *hint_ids, *found_ids]):
        if mid not in rows:
            continue
        by_words = mid in in_fts or mid in in_hints
        source = ("hybrid" if by_words else "vector") if mid in found_ids else ("keyword" if mid in in_fts else "hint")
        cosine = cosines.get(mid) if cosines is not None else None
        score = keyword(mid)
        fused[mid] = Candidate(blend(score, cosine, alpha), source, cosine, score)
    return fused


def add_traversal(fused: dict[str, Candidate], trav: Traversal, visible: set[str], cosines: dict[str, float] | None,
                  keyword: Callable[[str], float], rows: dict[str, Row], alpha: float) -> None:
    """Memories only the graph found join as candidates with source `graph`, scored like every
    other candidate: alpha * cosine + (1 - alpha) * query-word coverage, not the spec's structural
    blend, which let every memory of a named entity outrank the answer (docs/decisions.md)."""
    for mid in trav.memory_ids:
        if mid in fused or mid not in visible or mid not in rows:
            continue
        cosine = cosines.get(mid) if cosines is not None else None
        score = keyword(mid)
        fused[mid] = Candidate(blend(score, cosine, alpha), "graph", cosine, score)


def rank(fused: dict[str, Candidate], *, limit: int, min_score: float,
         graph_slots: int) -> list[tuple[float, str, str]]:
    """Best first; candidates only the graph found take at most `graph_slots` places, the rest stay
    for flat FTS/vector candidates. (The walk collects every constraint of a focal entity; forcing
    them into the results regardless of score was measured to crowd out the answer.)"""
    out: list[tuple[float, str, str]] = []
    graph_used = 0
    for score, source, mid in sorted(((c.score, c.source, mid) for mid, c in fused.items()), key=lambda t: -t[0]):
        if len(out) >= limit or score < min_score:
            break
        if source == "graph":
            if graph_used >= graph_slots:
                continue
            graph_used += 1
        out.append((score, source, mid))
    return out
