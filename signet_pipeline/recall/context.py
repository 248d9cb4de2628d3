"""Conversation-aware ranking: signals a bag-of-words-and-vectors score cannot see.

- Speakers: a query that names a person who speaks in the agent's memories (their `who`) is about
  what that person said or did; the memories they wrote get `speaker_weight`.
- When: a question about when something happened is answered by a memory that says when
  ("yesterday", "last May", "2023-05-08"); such memories get `temporal_weight` for those queries.
- Bridges: a question that joins two facts ("what does the sister who lives in Lyon do?") is
  answered by a memory that shares nothing with it but a name the first hits mention ("my sister
  Amélie lives in Lyon" -> "Amélie got a job as a nurse"). A second keyword round searches those
  names; what it finds joins at `bridge_weight` x the best first-round score.
- Context: the answer to a question is often the turn next to the strongest hit (the reply to a
  question, the sentence after a mention). The memories written just before and after the best
  hits in the same conversation (same session, or within `CONTEXT_WINDOW` of each other) join the
  candidates with `context_weight` x the anchor's score, decaying with distance.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import timedelta

import apsw

from signet_pipeline.recall.dampening import Candidate
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Row
from signet_pipeline.text.entities import names, sentences, split_label
from signet_pipeline.timeutil import parse_iso, to_iso

CONTEXT_WINDOW = timedelta(minutes=30)  # turns of one conversation without a session id
_WHEN_QUESTION = re.compile(r"^\s*(when|what (year|month|day|date|time)|how long ago|since when|which (year|month|day))\b",
                            re.IGNORECASE)
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


def named_speakers(speakers: Iterable[str], tokens: Iterable[str]) -> set[str]:
    """The speakers (`who` values) the query names: every word of a speaker's name, or its first
    name, among the query's words (case-insensitive)."""
    words = {t.lower() for t in tokens}
    named = set()
    for who in speakers:
        parts = [p for p in re.findall(r"[\w']+", who.lower()) if len(p) > 1]
        if parts and (all(p in words for p in parts) or parts[0] in words):
            named.add(who)
    return named


def apply_priors(fused: dict[str, Candidate], rows: dict[str, Row], *, speakers: set[str], speaker_weight: float,
                 when: bool, temporal_weight: float) -> None:
    for mid, cand in fused.items():
        row = rows.get(mid)
        if row is None:
            continue
        if speakers and row["who"] in speakers:
            cand.score += speaker_weight
        if when and says_when(row["content"]):
            cand.score += temporal_weight


def neighbours(conn: apsw.Connection, anchors: list[Row], span: int) -> dict[str, tuple[str, int]]:
    """memory id -> (anchor id, distance 1..span) for the memories written just before and after
    each anchor in its conversation: the same session when it has one, else the same agent within
    CONTEXT_WINDOW of it."""
    out: dict[str, tuple[str, int]] = {}
    for anchor in anchors:
        at = parse_iso(anchor["created_at"])
        around = mem_store.written_around(conn, agent_id=anchor["agent_id"], session_id=anchor["session_id"],
                                          start=to_iso(at - CONTEXT_WINDOW), end=to_iso(at + CONTEXT_WINDOW))
        ids = [r["id"] for r in around]
        if anchor["id"] not in ids:
            continue
        i = ids.index(anchor["id"])
        for j in range(max(0, i - span), min(len(ids), i + span + 1)):
            if j != i:
                distance = abs(j - i)
                if ids[j] not in out or out[ids[j]][1] > distance:
                    out[ids[j]] = (anchor["id"], distance)
    return out


def collapse_derived(conn: apsw.Connection, fused: dict[str, Candidate], rows: dict[str, Row], visible) -> None:
    """A memory and the facts the pipeline derived from it compete as one result: the family's
    best-scoring member stands for it (with `source_memory_id` a fact still points at what was
    said) and the others leave the candidates, so one piece of evidence does not take several
    places. Facts of a source the reader cannot see, or that is gone, form a family of their own.
    `visible(ids)` is the subset the reader's filter admits."""
    roots = {mid: rows[mid]["source_memory_id"] or mid for mid in fused if mid in rows}
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


def bridge_names(anchors: list[Row], query: str, limit: int = 3) -> list[str]:
    """Names the best hits mention that the query does not (not their speakers): what a second
    round searches for, so that "the sister who lives in Lyon" reaches what Amélie, named in the
    Lyon memory, did next."""
    asked = {w.lower() for w in re.findall(r"[\w']+", query)}
    found: list[str] = []
    for row in anchors:
        speaker, body = split_label(row["content"])
        for sentence in sentences(body):
            for name in names(sentence):
                words = {w.lower() for w in name.split()}
                if words <= asked or name in (speaker, row["who"]) or name in found:
                    continue
                found.append(name)
    return found[:limit]
