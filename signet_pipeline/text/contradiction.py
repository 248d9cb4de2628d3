"""Syntactic contradiction detection (spec "Semantic Contradiction Detection", fast path).

Two statements contradict when they talk about the same thing (at least two shared content
words) and either exactly one of them is negated or they hold the two sides of an antonym pair
("enabled" vs "disabled"). Deterministic and cheap: it runs on every UPDATE/DELETE proposal, and
the rules provider reuses it to propose supersession.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from signet_pipeline.text.fts_query import STOP_WORDS

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


@dataclass(frozen=True)
class Statement:
    """A text tokenized once for the checks below (comparing one statement with many)."""

    tokens: frozenset[str]
    subject: frozenset[str]  # content words: no stop words, negations or antonym words
    negated: bool

    @classmethod
    def of(cls, text: str) -> Statement:
        found = words(text)
        return cls(frozenset(found), frozenset(w for w in found if w not in _NOT_SUBJECT and len(w) > 1),
                   any(w in NEGATIONS or w.endswith("n't") for w in found))

    def overlap(self, other: Statement) -> int:
        return len(self.subject & other.subject)

    def antonyms(self, other: Statement) -> bool:
        wa, wb = self.tokens, other.tokens
        return any(_ANTONYM.get(w) in wb and _ANTONYM[w] not in wa for w in wa - wb if w in _ANTONYM)

    def contradicts(self, other: Statement, *, min_overlap: int = 2) -> bool:
        if self.overlap(other) < min_overlap:
            return False
        return self.negated != other.negated or self.antonyms(other)


def subject_words(text: str) -> set[str]:
    return set(Statement.of(text).subject)


def lexical_overlap(a: str, b: str) -> int:
    return Statement.of(a).overlap(Statement.of(b))


def syntactic_contradiction(a: str, b: str, *, min_overlap: int = 2) -> bool:
    return Statement.of(a).contradicts(Statement.of(b), min_overlap=min_overlap)
