"""Retroactive supersession between sibling attributes (spec knowledge-graph "Retroactive
Supersession"): a new attribute on an entity aspect retires older active siblings it contradicts.

Four signals, all requiring the two statements to share a subject (>= 2 subject words):
negation polarity, antonym pairs (memory/contradiction.py), value conflict (same subject and
verb, different value: "Signet uses Postgres" -> "Signet uses SQLite") and temporal markers in
the newer one ("now", "no longer", "anymore", "switched to"...). Constraints are never
superseded automatically; a superseded attribute stays, linked through superseded_by.
"""

from __future__ import annotations

import re

import apsw

from signet_pipeline.memory.contradiction import (
    is_negated, lexical_overlap, subject_words, syntactic_contradiction, words,
)
from signet_pipeline.store import graph as graph_store

MIN_SHARED = 2
_TEMPORAL = re.compile(r"\b(now|no longer|anymore|any more|currently|these days|as of|switched|moved|changed|"
                       r"instead|nowadays|since)\b", re.IGNORECASE)
_CLAIM = re.compile(r"^(?P<subject>.+?)\s+(?P<verb>is|are|was|uses|use|prefers|prefer|likes|lives in|lives at|"
                    r"works at|works for|runs on|moved to|is based in)\s+(?P<value>.+?)[.!]?$", re.IGNORECASE)
_NOW = re.compile(r"\b(now|currently|these days|nowadays)\s+", re.IGNORECASE)


def _claim(text: str) -> tuple[str, str, str] | None:
    """(subject words, verb, head of the value): the value's first content word carries the claim
    ("Postgres for storage" -> postgres)."""
    m = _CLAIM.match(_NOW.sub("", text.strip()))
    if not m:
        return None
    head = next((w for w in words(m["value"]) if w in subject_words(m["value"])), "")
    return " ".join(sorted(subject_words(m["subject"]))), m["verb"].lower(), head


def value_conflict(older: str, newer: str) -> bool:
    a, b = _claim(older), _claim(newer)
    return bool(a and b and a[0] and a[0] == b[0] and a[1] == b[1] and a[2] and b[2] and a[2] != b[2]
                and not is_negated(older) and not is_negated(newer))


def supersedes(older: str, newer: str) -> str | None:
    """Why `newer` retires `older`, or None."""
    if syntactic_contradiction(older, newer, min_overlap=MIN_SHARED):
        return "contradiction"
    if value_conflict(older, newer):
        return "value_conflict"
    if _TEMPORAL.search(newer) and lexical_overlap(older, newer) >= MIN_SHARED + 1:
        return "temporal_update"
    return None


def supersede_siblings(conn: apsw.Connection, *, attribute_id: str, entity_id: str, aspect_id: str, content: str,
                       now: str) -> int:
    """Retire the active siblings the new attribute supersedes; returns how many."""
    retired = 0
    for sibling in graph_store.active_siblings(conn, entity_id=entity_id, aspect_id=aspect_id, exclude_id=attribute_id):
        if supersedes(sibling["content"], content):
            graph_store.supersede_attribute(conn, sibling["id"], by=attribute_id, now=now)
            retired += 1
    return retired
