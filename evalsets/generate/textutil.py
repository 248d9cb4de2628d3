"""Small text helpers: content words for the overlap check, capitalisation, articles.

`content_words` lowercases, drops a plain English stopword list and reduces each word with a
crude suffix stripper that conflates at least as much as the Porter stemmer the store's FTS5
index uses (adopted/adoption/adopt, lives/living/live, bakery/baker/bake). Being cruder than
Porter only makes the zero-overlap claim stricter.
"""

from __future__ import annotations

import re

_STOP_TEXT = """
a about above after again against all also am an and any are aren as at be because been before
being below between both but by can cannot could couldn did didn do does doesn doing don done
down during each either else even ever every few for from further get gets getting got gotten
had hadn has hasn have haven having he her here hers herself him himself his how i if in into
is isn it its itself just let lets me might mine more most much must my myself no nor not now
of off oh ok okay on once one only or other ought our ours ourselves out over own per quite
rather really same shall she should shouldn so some such than that the their theirs them
themselves then there these they this those though through thus to too under until up upon us
very was wasn we well were weren what whatever when where whether which while who whom whose
why will with won would wouldn yeah yes yet you your yours yourself yourselves s t d ll m re ve
im ive id ill youre thats whats lol haha
"""
STOPWORDS = frozenset(re.findall(r"[a-z]+", _STOP_TEXT))

_TOKEN = re.compile(r"[a-z0-9]+")
_DOUBLE = re.compile(r"([b-df-hj-np-tv-z])\1$")


def stem(word: str) -> str:
    """Strip common English suffixes (deliberately over-eager)."""
    w = word
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    for suffix in ("ation", "ition", "ion", "ings", "ing", "ied", "ed", "ly", "ery", "er", "y"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and _DOUBLE.search(w):
        w = w[:-1]
    return w


def content_words(text: str) -> set[str]:
    text = text.lower().replace("\u2019", "'").replace("'s ", " ").replace("'", "")
    return {stem(t) for t in _TOKEN.findall(text) if t not in STOPWORDS and len(t) > 1}


def overlap(question: str, evidence_texts: list[str]) -> set[str]:
    ev: set[str] = set()
    for text in evidence_texts:
        ev |= content_words(text)
    return content_words(question) & ev


def cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun
