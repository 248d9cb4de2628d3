"""Names in text, without a model: sentence splitting, proper-noun spans and entity triples.

Shared by the inline entity linker (at write time) and the offline `rules` provider (extraction).
A proper noun is a capitalized word that is not a stop word, or a word with inner capitals or
mixed letters and digits (PostgreSQL, iOS, qwen3) wherever it stands; at the start of a sentence,
where everything is capitalized, common sentence starters ("Run", "Maybe") are not names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from signet_pipeline.text.fts_query import STOP_WORDS

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|\n+")
_BULLET = re.compile(r"^\s*(?:[-*\u2022>]+|\d+[.)])\s+")
WORD = re.compile(r"[A-Za-z0-9][\w'\u2019.+#-]*[\w+#]|[A-Za-z0-9]")
_WS = re.compile(r"\s+")

SENTENCE_STARTERS = frozenset("""
run use install call set add open restart deploy remember note please maybe also then now today yesterday
tomorrow currently recently finally however always never sometimes usually make check try keep avoid
everyone someone nobody yes sure
""".split())

MIN_ENTITY_NAME = 4  # spec: shorter canonical names are rejected (initials, "AI", "Bob": too ambiguous)
MAX_RELATION_WORDS = 5
_RELATION_EDGE_WORDS = frozenset({"the", "a", "an", "and", "but", "or", "so"})


def sentences(text: str) -> list[str]:
    out = []
    for part in _SENTENCE_END.split(text):
        part = _BULLET.sub("", part or "").strip()
        if part:
            out.append(part)
    return out


def canonical_name(name: str) -> str:
    """Lowercased, whitespace-normalized (the entity's dedup key)."""
    return _WS.sub(" ", name).strip().lower()


def is_proper(word: str, first: bool) -> bool:
    lower = word.lower()
    if lower in STOP_WORDS or word == "I":
        return False
    if any(c.isupper() for c in word[1:]) or (any(c.isdigit() for c in word) and any(c.isalpha() for c in word)):
        return True
    return word[0].isupper() and not (first and lower in SENTENCE_STARTERS)


@dataclass(frozen=True)
class Span:
    start: int  # token range [start, end)
    end: int
    text: str


def proper_spans(tokens: list[str]) -> list[Span]:
    """Runs of consecutive proper-noun tokens."""
    spans: list[Span] = []
    i = 0
    while i < len(tokens):
        if is_proper(tokens[i], i == 0):
            j = i + 1
            while j < len(tokens) and is_proper(tokens[j], False):
                j += 1
            spans.append(Span(i, j, " ".join(tokens[i:j])))
            i = j
        else:
            i += 1
    return spans


def names(sentence: str) -> list[str]:
    """Proper-noun names in a sentence long enough to be entities (first occurrence order)."""
    found = [s.text for s in proper_spans(WORD.findall(sentence)) if len(canonical_name(s.text)) >= MIN_ENTITY_NAME]
    return list(dict.fromkeys(found))


def triples(sentence: str) -> list[tuple[str, str, str]]:
    """(proper-noun span, short lowercase verb phrase, proper-noun span) within one sentence."""
    tokens = WORD.findall(sentence)
    spans = proper_spans(tokens)
    found = []
    for a, b in zip(spans, spans[1:]):
        gap = tokens[a.end:b.start]
        while gap and gap[0].lower() in _RELATION_EDGE_WORDS:
            gap.pop(0)
        while gap and gap[-1].lower() in _RELATION_EDGE_WORDS:
            gap.pop()
        if not 1 <= len(gap) <= MAX_RELATION_WORDS or not all(w.islower() for w in gap):
            continue
        if all(w in STOP_WORDS for w in gap):
            continue  # "for", "in": a preposition alone is not a relationship
        found.append((a.text, " ".join(gap), b.text))
    return found
