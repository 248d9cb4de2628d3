"""Syntactic contradiction detection (spec "Semantic Contradiction Detection", fast path).

Two statements contradict when they talk about the same thing (at least two shared content
words) and either exactly one of them is negated or they hold the two sides of an antonym pair
("enabled" vs "disabled"). Deterministic and cheap: it runs on every UPDATE/DELETE proposal, and
the rules provider reuses it to propose supersession.
"""

from __future__ import annotations

import re

from signet_pipeline.memory.fts_query import STOP_WORDS

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

NEGATIONS = frozenset("""
not no never none nobody nothing nor neither without cannot can't don't doesn't didn't isn't aren't wasn't
weren't won't wouldn't shouldn't couldn't hasn't haven't hadn't mustn't
""".split())

ANTONYM_PAIRS = (
    ("enabled", "disabled"), ("enable", "disable"), ("allow", "deny"), ("allowed", "denied"),
    ("allows", "denies"), ("true", "false"), ("on", "off"), ("yes", "no"), ("accept", "reject"),
    ("accepted", "rejected"), ("include", "exclude"), ("included", "excluded"), ("start", "stop"),
    ("started", "stopped"), ("open", "closed"), ("like", "dislike"), ("likes", "dislikes"),
    ("love", "hate"), ("loves", "hates"), ("always", "never"), ("increase", "decrease"),
    ("add", "remove"), ("added", "removed"), ("valid", "invalid"), ("public", "private"),
    ("online", "offline"), ("active", "inactive"), ("success", "failure"), ("pass", "fail"),
    ("passed", "failed"), ("up", "down"), ("before", "after"), ("more", "less"), ("best", "worst"),
    ("safe", "unsafe"), ("supported", "unsupported"), ("required", "optional"), ("sync", "async"),
)
_ANTONYM = {a: b for a, b in ANTONYM_PAIRS} | {b: a for a, b in ANTONYM_PAIRS}
# Words that carry polarity or antonymy are not evidence that two statements share a subject.
_NOT_SUBJECT = STOP_WORDS | NEGATIONS | frozenset(_ANTONYM)


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def subject_words(text: str) -> set[str]:
    return {w for w in words(text) if w not in _NOT_SUBJECT and len(w) > 1}


def lexical_overlap(a: str, b: str) -> int:
    return len(subject_words(a) & subject_words(b))


def is_negated(text: str) -> bool:
    return any(w in NEGATIONS or w.endswith("n't") for w in words(text))


def antonym_conflict(a: str, b: str) -> bool:
    wa, wb = set(words(a)), set(words(b))
    return any(_ANTONYM.get(w) in wb and _ANTONYM[w] not in wa for w in wa - wb if w in _ANTONYM)


def syntactic_contradiction(a: str, b: str, *, min_overlap: int = 2) -> bool:
    if lexical_overlap(a, b) < min_overlap:
        return False
    return is_negated(a) != is_negated(b) or antonym_conflict(a, b)
