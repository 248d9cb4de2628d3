"""What a sentence is about, from its verbs: the aspect of an entity it speaks to ("prefers" ->
preferences, "uses" -> stack, ...) and whether it is decision language (a constraint). Pure
patterns: the inline linker (graph/linker.py) and the rules provider both read sentences this way."""

from __future__ import annotations

import re

# (aspect, pattern): the first match names the aspect of a sentence; none -> "general".
ASPECT_PATTERNS: list[tuple[str, re.Pattern[str]]] = [(aspect, re.compile(p, re.IGNORECASE)) for aspect, p in (
    ("decisions", r"\b(decided|agreed|chose|chosen|settled on|opted|going with|will use)\b"),
    ("preferences", r"\b(prefers?|preferred|likes?|loves?|hates?|dislikes?|enjoys?|favou?rite)\b"),
    ("stack", r"\b(uses?|using|used|runs? on|built (with|on)|depends? on|relies on|deployed (to|on))\b"),
    ("work", r"\b(works?|worked|working) (at|for|on)\b|\b(employed|hired|joined|manages?|leads?)\b"),
    ("location", r"\b(lives?|lived|living|moved|based|located|relocated) (in|to|at)\b"),
    ("relationships", r"\b(married|friend|sister|brother|mother|father|partner|wife|husband|colleague)\b"),
    ("schedule", r"\b(every|each) (day|week|month|monday|tuesday|wednesday|thursday|friday)\b|\b(deadline|due)\b"),
)]
DEFAULT_ASPECT = "general"

# Decision language: an attribute matching any of these is a constraint.
DECISION_PATTERNS: list[re.Pattern[str]] = [re.compile(p, re.IGNORECASE) for p in (
    r"\bdecided\b", r"\bagreed\b", r"\bwill use\b", r"\b(chose|chosen)\b", r"\bgoing with\b",
    r"\bsettled on\b", r"\bopted (for|to)\b", r"\bswitch(ed)? (to|from)\b", r"\binstead of\b",
    r"\b(use|prefer|pick|picked)\s+[\w.+#-]+\s+over\b", r"\bmust( not|n't)?\b", r"\bnever\b",
    r"\balways\b", r"\b(policy|rule) is\b",
)]
def aspect_of(sentence: str) -> str:
    return next((aspect for aspect, pattern in ASPECT_PATTERNS if pattern.search(sentence)), DEFAULT_ASPECT)


def is_decision(sentence: str) -> bool:
    return any(p.search(sentence) for p in DECISION_PATTERNS)
