"""Checks on generated data: word counts, and how much of a question a single turn already says
(multi-hop and open-domain questions must not be answerable by matching one turn's words)."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
STOPWORDS = set("""
a an the and or but if of to in on at by for with from about into over after before during as is are was were
be been being am do does did doing have has had having will would could should can may might must shall i me my
mine you your yours he him his she her hers it its we our they them their this that these those what which who
whom whose when where why how than then so too very just not no nor only own same such both each few more most
other some any all there here up down out off again further once also s t ll d re ve m don didn isn wasn
likely probably kind sort type way one two thing things get got
""".split())


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _stem(word: str) -> str:
    word = word.split("'")[0]
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > 4 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def content_words(text: str, ignore: AbstractSet[str] = frozenset()) -> set[str]:
    """Lower-cased, crudely stemmed words that carry meaning; `ignore` drops e.g. speaker names."""
    skip = {w.lower() for w in ignore}
    return {_stem(w) for w in words(text) if w not in STOPWORDS and w.split("'")[0] not in skip}


def single_turn_coverage(question: str, turn_texts: list[str], ignore: AbstractSet[str] = frozenset()) -> float:
    """The largest share of the question's content words found in any one of the turns."""
    asked = content_words(question, ignore)
    if not asked:
        return 0.0
    return max((len(asked & content_words(t, ignore)) / len(asked) for t in turn_texts), default=0.0)


def copy_answerable(question: str, answer: str, turn_texts: list[str], ignore: AbstractSet[str] = frozenset()) -> bool:
    """True when one turn both echoes most of the question and holds most of what the answer adds
    to it: the question could then be answered by matching that single turn."""
    asked = content_words(question, ignore)
    told = content_words(answer, ignore) - asked
    for text in turn_texts:
        said = content_words(text, ignore)
        if asked and told and len(asked & said) / len(asked) > 0.5 and len(told & said) / len(told) > 0.5:
            return True
    return False
