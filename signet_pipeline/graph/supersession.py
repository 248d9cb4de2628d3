"""Retroactive supersession between sibling attributes (spec knowledge-graph "Retroactive
Supersession"): a new attribute on an entity aspect retires older active siblings it contradicts.

Four signals, all requiring the two statements to share a subject (>= 2 subject words):
negation polarity, antonym pairs (text/contradiction.py), value conflict (same subject and
verb, different value: "Signet uses Postgres" -> "Signet uses SQLite") and temporal markers in
the newer one ("now", "no longer", "anymore", "switched to"...). Constraints are never
superseded automatically; a superseded attribute stays, linked through superseded_by.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import apsw

from signet_pipeline.store import graph as graph_store
from signet_pipeline.text.contradiction import Statement, subject_words, words

MIN_SHARED = 2
# Siblings compared per new attribute (the newest that share a word with it): inside remember's
# write transaction, so bounded; an aspect with more active look-alikes is a hub, not a claim.
MAX_SIBLINGS = 50
# Active attributes of the aspect looked at, newest first: what a new attribute can supersede is
# what was said lately; an older claim further back stays active (bounded: this runs inside
# remember's write transaction; bench.remember_bench).
MAX_SCANNED = 250
_TEMPORAL = re.compile(r"\b(now|no longer|anymore|any more|currently|these days|as of|switched|moved|changed|"
                       r"instead|nowadays|since)\b", re.IGNORECASE)
_CLAIM = re.compile(r"^(?P<subject>.+?)\s+(?P<verb>is|are|was|uses|use|prefers|prefer|likes|lives in|lives at|"
                    r"works at|works for|runs on|moved to|is based in)\s+(?P<value>.+?)[.!]?$", re.IGNORECASE)
_NOW = re.compile(r"\b(now|currently|these days|nowadays)\s+", re.IGNORECASE)


# Parses of sibling texts, cached: every new attribute compares against the same recent siblings
# of its aspect, inside remember's write transaction.
PARSE_CACHE = 8192


@lru_cache(maxsize=PARSE_CACHE)
def _statement(text: str) -> Statement:
    return Statement.of(text)


@lru_cache(maxsize=PARSE_CACHE)
def _claim(text: str) -> tuple[str, str, str] | None:
    """(subject words, verb, head of the value): the value's first content word carries the claim
    ("Postgres for storage" -> postgres)."""
    m = _CLAIM.match(_NOW.sub("", text.strip()))
    if not m:
        return None
    head = next((w for w in words(m["value"]) if w in subject_words(m["value"])), "")
    return " ".join(sorted(subject_words(m["subject"]))), m["verb"].lower(), head


@dataclass(frozen=True)
class _Newer:
    """The new attribute, parsed once for comparison with each sibling."""

    statement: Statement
    claim: tuple[str, str, str] | None
    temporal: bool

    @classmethod
    def of(cls, text: str) -> _Newer:
        return cls(Statement.of(text), _claim(text), bool(_TEMPORAL.search(text)))


def _value_conflict(older_text: str, older: Statement, newer: _Newer) -> bool:
    if newer.claim is None or older.negated or newer.statement.negated:
        return False
    a, b = _claim(older_text), newer.claim  # parsed only when the newer one is a claim
    return bool(a and a[0] and a[0] == b[0] and a[1] == b[1] and a[2] and b[2] and a[2] != b[2])


def _why(older_text: str, newer: _Newer) -> str | None:
    older = _statement(older_text)
    if older.contradicts(newer.statement, min_overlap=MIN_SHARED):
        return "contradiction"
    if _value_conflict(older_text, older, newer):
        return "value_conflict"
    if newer.temporal and older.overlap(newer.statement) >= MIN_SHARED + 1:
        return "temporal_update"
    return None


def supersedes(older: str, newer: str) -> str | None:
    """Why `newer` retires `older`, or None."""
    return _why(older, _Newer.of(newer))


def sibling_prefilter(content: str, entity_name: str) -> list[str]:
    """Words one of which a sibling must contain for any signal to fire: every signal needs a
    shared subject word besides the entity's own name (all siblings share that), except a value
    conflict, which needs the same claim verb. Lets SQL skip most siblings of a busy aspect."""
    found = {w.split("'")[0] for w in subject_words(content) - set(words(entity_name))}
    claim = _CLAIM.match(_NOW.sub("", content.strip()))
    if claim:
        found.add(claim["verb"].lower())
    return sorted(w for w in found if w)


def supersede_siblings(conn: apsw.Connection, *, attribute_id: str, entity_id: str, entity_name: str, aspect_id: str,
                       content: str, now: str) -> int:
    """Retire the active siblings the new attribute supersedes; returns how many."""
    containing = sibling_prefilter(content, entity_name)
    if not containing:
        return 0
    retired, newer = 0, _Newer.of(content)
    for sibling_id, content in graph_store.active_siblings(conn, entity_id=entity_id, aspect_id=aspect_id,
                                                           exclude_id=attribute_id, containing=containing,
                                                           limit=MAX_SIBLINGS, scan=MAX_SCANNED):
        if _why(content, newer):
            graph_store.supersede_attribute(conn, sibling_id, by=attribute_id, now=now)
            retired += 1
    return retired
