"""Turn free user text into an FTS5 MATCH expression that can never be a syntax error.

Every token is quoted (FTS5 operators, `*`, `-`, `NEAR`, parentheses and column filters lose
their meaning) and tokens are OR-ed so BM25 ranks by how many and how rare the matched words are.
Stop words are dropped: they match most rows, cost the most to score and add nothing to ranking.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
MAX_TOKENS = 32

STOP_WORDS = frozenset("""
a about above after again against all am an and any are aren't as at be because been before being below
between both but by can could did do does doing don't down during each few for from further had has have
having he her here hers herself him himself his how i i'm if in into is isn't it it's its itself just let's
me more most my myself no nor not of off on once only or other ought our ours ourselves out over own same
she should so some such than that that's the their theirs them themselves then there these they this those
through to too under until up very was we were what when where which while who whom why will with would
you your yours yourself yourselves s t d ll m re ve
""".split())


def query_tokens(text: str) -> list[str]:
    """Lowercased word tokens without stop words (all of them if the text is only stop words)."""
    words = [w.lower() for w in _TOKEN.findall(text)]
    seen = list(dict.fromkeys(words))
    content = [w for w in seen if w not in STOP_WORDS]
    return (content or seen)[:MAX_TOKENS]


def build_match(text: str) -> str | None:
    """An FTS5 expression for text, or None when it holds no searchable word."""
    return match_for(query_tokens(text))


def match_for(tokens: list[str]) -> str | None:
    return " OR ".join(f'"{t}"' for t in tokens) if tokens else None


def within_budget(tokens: list[str], doc_freq: dict[str, int], budget: int) -> list[str]:
    """Leave out the most frequent words while BM25 would score more than `budget` rows.

    BM25 scores every row matching any OR-ed word, so one common word can cost more than all the
    others together, while its low IDF adds little to the ranking (and the vector leg still
    reads the whole query). The rarest word always stays. budget <= 0 keeps every word.
    """
    if budget <= 0 or len(tokens) < 2:
        return tokens
    kept = sorted(tokens, key=lambda t: doc_freq.get(t, 0))
    while len(kept) > 1 and sum(doc_freq.get(t, 0) for t in kept) > budget:
        kept.pop()
    return [t for t in tokens if t in kept]


def idf(doc_freq: int, rows: int) -> float:
    """BM25's IDF in the form that stays positive (a word in most rows still weighs a little)."""
    n = max(rows, 1)
    return math.log(1 + (n - doc_freq + 0.5) / (doc_freq + 0.5))


@dataclass(frozen=True)
class QueryTerms:
    """The query's content words with their indexed form and IDF, for an absolute keyword score.

    `coverage` is the IDF-weighted share of the query's words a memory contains: 1.0 when it holds
    every word, and small when it shares only a common one (a name that appears in half the store)
    while the distinctive words of the query are missing. Unlike raw BM25 it does not depend on the
    size of the store, and a store too small for BM25's IDF (FTS5 clamps it) still gets a signal.
    """

    words: list[str]
    stems: dict[str, str]
    idf: dict[str, float]  # by stem

    @classmethod
    def build(cls, words: list[str], stems: dict[str, str], doc_counts: dict[str, int], rows: int) -> QueryTerms:
        return cls(words, stems, {stem: idf(df, rows) for stem, df in doc_counts.items()})

    def doc_freq_by_word(self, doc_counts: dict[str, int]) -> dict[str, int]:
        return {w: doc_counts.get(self.stems[w], 0) for w in self.words}

    def coverage(self, doc_stems: set[str]) -> float:
        """The IDF-weighted share of the query's words that the document holds."""
        wanted = set(self.stems.values())
        total = sum(self.idf[s] for s in wanted)
        return sum(self.idf[s] for s in wanted if s in doc_stems) / total if total else 0.0
