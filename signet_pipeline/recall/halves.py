"""A question about two or three named people, places or things at once ("Which country did both
Bartek and Lian visit?", "Which trip did Priya take first, Cusco or Quito?") is also asked of each
name alone: its halves ("Which country did Bartek visit?"). What was said of each name sits in a
different memory, often in sessions weeks apart, and the whole question, its words shared among the
names, ranks them below memories that name both or below the most-mentioned name's. recall/search.py
scores each half's candidates as it scores the question's (but for the full-text search and the graph
walk, which the question's already ran over all its words and names) and keeps a memory's best score.

Names are what the entity extractor calls proper nouns (text/entities.py `is_proper`), one or more
words each, joined by "and" or "or" (a list may run "A, B and C"; "A, or B" joins clauses); "&" joins the words of one name
("Harbor & Finch"). Words that only say the names go together ("both", "each", "either") leave the
halves."""

from __future__ import annotations

import re

from signet_pipeline.text.entities import is_proper

MAX_HALVES = 3  # each half is a recall of its own: a longer list is not split
_TOKEN = re.compile(r"[^\W_][\w'’-]*|,")
_POSSESSIVE = re.compile(r"['’]s?$")
_JOINERS = frozenset({"and", "or"})
_TOGETHER = re.compile(r"\b(?:both|each|either)\s+", re.IGNORECASE)


def halves(query: str) -> list[str]:
    """The query asked of each name of its first list of two or three names; [] when it has none."""
    tokens = list(_TOKEN.finditer(query))

    def name_at(i: int) -> int:
        """The index after the name starting at token i (i itself when no name starts there)."""
        j = i
        while j < len(tokens) and tokens[j][0] != "," and is_proper(_POSSESSIVE.sub("", tokens[j][0]), j == 0):
            j += 1
        return j

    i = 0
    while i < len(tokens):
        names, j = [], i
        while (end := name_at(j)) > j:
            names.append((tokens[j].start(), tokens[end - 1].end()))
            j = end
            comma = j < len(tokens) and tokens[j][0] == ","
            j += comma
            if j < len(tokens) and tokens[j][0].lower() in _JOINERS:
                joined = name_at(j + 1)
                # "A, or B" joins clauses ("Which came first: Ada adopting Tofu, or Ada moving?"), not names.
                if joined > j + 1 and not (comma and len(names) == 1):
                    names.append((tokens[j + 1].start(), tokens[joined - 1].end()))
                    return _split(query, names) if len(names) <= MAX_HALVES else []
                break
        i = max(i + 1, j)
    return []


def _split(query: str, names: list[tuple[int, int]]) -> list[str]:
    start, end = names[0][0], names[-1][1]
    before, after = _TOGETHER.sub("", query[:start]), _TOGETHER.sub("", query[end:])
    return [" ".join(f"{before}{query[a:b]}{after}".split()) for a, b in names]
