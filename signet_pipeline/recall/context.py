"""Conversation-aware ranking: signals a bag-of-words-and-vectors score cannot see. Each was kept
for gaining on two independently generated evaluation sets and costing on neither
(docs/BENCHMARKS.md); a speaker prior and a second keyword round on names the best hits mention
were measured and dropped (no gain on either).

- When: a question about when something happened is answered by a memory that says when
  ("yesterday", "last May", "2023-05-08"); such memories get `temporal_weight` for those queries.
- Replies: an answer often sits in the turn after a question ("how did the interview go?" ->
  "they said yes!!! I start monday"), which shares nothing with the question asked of the store.
  The memory written right after a strong hit that asks something (same session, or the same agent
  within `CONTEXT_WINDOW`) joins the candidates at `reply_weight` x that hit's score.
- Families: a memory and the facts the pipeline derived from it compete as one result.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import apsw

from signet_pipeline.recall.scoring import Candidate
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Row
from signet_pipeline.timeutil import parse_iso, to_iso

CONTEXT_WINDOW = timedelta(minutes=30)  # turns of one conversation without a session id
_WHEN_QUESTION = re.compile(
    r"^\s*(when|what (year|month|day|date|time)|how long ago|since when|which (year|month|day))\b", re.IGNORECASE)
_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_SAYS_WHEN = re.compile(
    r"\b(yesterday|today|tonight|tomorrow|last (night|week|weekend|month|year|summer|winter|spring|fall|autumn|"
    rf"{_DAYS})|next (week|weekend|month|year|{_DAYS})|this (morning|week|weekend|month|year)|ago|recently|"
    rf"in (19|20)\d\d|(19|20)\d\d|{_MONTHS}|{_DAYS}|\d{{1,2}}/\d{{1,2}}|\d{{4}}-\d{{2}}-\d{{2}})\b",
    re.IGNORECASE)


def asks_when(query: str) -> bool:
    return bool(_WHEN_QUESTION.search(query))


def says_when(content: str) -> bool:
    return bool(_SAYS_WHEN.search(content))


def prefer_dated(fused: dict[str, Candidate], rows: dict[str, Row], weight: float) -> None:
    """For a when-question: memories that say when get `weight`."""
    for mid, cand in fused.items():
        if mid in rows and says_when(rows[mid]["content"]):
            cand.score += weight


def replies(conn: apsw.Connection, anchors: list[Row]) -> dict[str, str]:
    """reply memory id -> the anchor it answers: the memory written right after each anchor that
    asks something, in its conversation (the same session when it has one, else the same agent
    within CONTEXT_WINDOW)."""
    out: dict[str, str] = {}
    for anchor in anchors:
        if "?" not in anchor["content"]:
            continue
        at = parse_iso(anchor["created_at"])
        after = mem_store.written_around(conn, agent_id=anchor["agent_id"], session_id=anchor["session_id"],
                                         start=anchor["created_at"], end=to_iso(at + CONTEXT_WINDOW))
        ids = [r["id"] for r in after]
        if anchor["id"] in ids and ids.index(anchor["id"]) + 1 < len(ids):
            out.setdefault(ids[ids.index(anchor["id"]) + 1], anchor["id"])
    return out


def family_of(rows: dict[str, Row]) -> Callable[[str], str]:
    """id -> its family: a derived fact's is the memory it came from, any other memory's is itself
    (and so is that of an id not in `rows`)."""
    return lambda mid: (rows[mid]["source_memory_id"] or mid) if mid in rows else mid


def best_families(fused: dict[str, Candidate], family: Callable[[str], str],
                  n: int) -> dict[str, tuple[str, Candidate]]:
    """family -> (its best-scoring member, that member's candidate) for the n best families, best first:
    the anchors of the steps that follow a strong candidate (replies), so that a fact and its
    source do not take two anchor places."""
    best: dict[str, tuple[str, Candidate]] = {}
    for mid, candidate in sorted(fused.items(), key=lambda kv: -kv[1].score):
        if len(best) == n:
            break
        best.setdefault(family(mid), (mid, candidate))
    return best


def weigh_derived(fused: dict[str, Candidate], rows: dict[str, Row], derived_weight: float = 1.0, *,
                  query_has_words: bool = False) -> None:
    """Derived facts count at `derived_weight` of their score (one_per_family then keeps a family's best
    member). When the query has words, a fact that shares none of them leaves the candidates: found by
    meaning alone it is its source restated, shorter, and short texts sit close to short questions,
    so such facts took the places of evidence turns (drained sets A and C, docs/BENCHMARKS.md)."""
    if query_has_words:
        for mid in [mid for mid, c in fused.items() if mid in rows and rows[mid]["source_memory_id"] and not c.keyword]:
            del fused[mid]
    family = family_of(rows)
    for mid in fused:
        if mid in rows and family(mid) != mid:
            fused[mid].score *= derived_weight


def one_per_family(fused: dict[str, Candidate], rows: dict[str, Row], visible) -> None:
    """A memory and the facts the pipeline derived from it compete as one result: the family's
    best-scoring member stands for it (with `source_memory_id` a fact still points at what was
    said) and the others leave the candidates, so one piece of evidence does not take several
    places. Facts of a source the reader cannot see, or that is gone, form a family of their own.
    `visible(ids)` is the subset the reader's filter admits. Run last, once every candidate joined."""
    family = family_of(rows)
    roots = {mid: family(mid) for mid in fused if mid in rows}
    missing = [root for root in set(roots.values()) if root not in rows]
    alive = set(visible(missing)) if missing else set()
    families: dict[str, list[str]] = {}
    for mid, root in roots.items():
        families.setdefault(root if root in rows or root in alive else mid, []).append(mid)
    for members in families.values():
        if len(members) > 1:
            best = max(members, key=lambda m: fused[m].score)
            for mid in members:
                if mid != best:
                    del fused[mid]
