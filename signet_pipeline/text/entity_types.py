"""What kind of thing a name in a sentence is, from the words around it: the inline linker types
places, organisations and projects as it writes them. Offline and without a gazetteer, it reads
only cues English uses for each kind ("moved to", "works at", a last word like "Road" or "Games")
and otherwise leaves the name untyped: a wrong type is worse than none, as the structural stage
types the rest. Design and the cue list: docs/internals.md; why no gazetteer: docs/decisions.md.
"""

from __future__ import annotations

import re

PLACE, ORGANISATION, PROJECT = "place", "organization", "project"

_PLACE_TAIL = frozenset(
    "road street avenue ave lane boulevard square park gardens station airport beach bay lake river bridge "
    "hill hills mountain mountains valley island islands harbour harbor coast heights canal quay pier falls "
    "forest woods district village county province".split())
_PLACE_HEAD = frozenset("lake mount mt cape port fort isle".split())
_ORG_TAIL = frozenset(
    "inc ltd llc plc gmbh corp corporation company group games labs studio studios bank trust foundation "
    "university college school academy hospital clinic council institute agency society association club fc "
    "press records media systems technologies partners airlines airways charity ministry".split())

_GO = (r"(?:mov(?:e[sd]?|ing)|relocat(?:e[sd]?|ing)|fl(?:y|ew|ies|ying)|flights?|trip|travel(?:l?ed|l?ing|s)?|"
       r"went|go(?:ing|es)?|drove|driv(?:e|ing)|head(?:ed|ing|s)?|emigrat(?:e[sd]?|ing)|holiday|vacation)")
_PLACE_BEFORE = re.compile(
    r"\b(?:" + _GO + r"(?:\s+(?:back|home|over|out|away))?\s+(?:to|into|around|across|through)"
    r"|(?:flew|flying|drove|driving|travell?ed|got|came|arrived|mov(?:e[sd]?|ing)|returned|returning)"
    r"(?:\s+(?:back|home|away))?\s+(?:from|out\s+of)"
    r"|(?:live[sd]?|living|based|born|raised|grew\s+up|settled|stay(?:ed|ing|s)?|landed|arrived|"
    r"(?:we|they)['\u2019]re|i['\u2019]m|here|over|weekend|week|nights?|days|holiday|honeymoon|vacation|"
    r"place|flat|house|apartment|home)\s+in)"
    r"\s+(?:the\s+)?$",
    re.IGNORECASE)
_ORG_BEFORE = re.compile(
    r"\b(?:(?:work(?:s|ed|ing)?|jobs?|role|position|internship|career|shift|contract|employed|volunteer(?:s|ed|ing)?|"
    r"promoted|start(?:s|ed|ing)?)\s+(?:at|for)|interview(?:s|ed|ing)?\s+at|(?:hired|employed)\s+by)"
    r"\s+(?:the\s+)?$", re.IGNORECASE)
_PROJECT_BEFORE = re.compile(r"\b(?:project|codename|code\s+name|code-named|codenamed)\s*[:\"'\u201c]?\s*$",
                             re.IGNORECASE)
_PROJECT_AFTER = re.compile(r"^\s*(?:project|initiative)\b", re.IGNORECASE)
_POSSESSIVE_AFTER = re.compile(r"^['\u2019]s\b")  # "went to Ana's": a person's place, not a place


def context_type(name: str, sentence: str) -> str | None:
    """`place`, `organization` or `project` when the sentence says so of `name`, else None."""
    if any(c.isupper() or c.isdigit() for word in name.split() for c in word[1:]):
        return None  # GitHub, iOS, Qwen3: a tool's spelling, which the structural stage types
    words = name.lower().replace("\u2019", "'").split()
    if words and words[-1] in _ORG_TAIL:
        return ORGANISATION
    if words and (words[-1] in _PLACE_TAIL or (len(words) > 1 and words[0] in _PLACE_HEAD)):
        return PLACE
    at = sentence.find(name)
    if at < 0:
        return None
    before, after = sentence[max(0, at - 60):at], sentence[at + len(name):]
    if _PROJECT_BEFORE.search(before) or _PROJECT_AFTER.search(after):
        return PROJECT
    if _POSSESSIVE_AFTER.match(after):
        return None
    if _ORG_BEFORE.search(before):
        return ORGANISATION
    if _PLACE_BEFORE.search(before):
        return PLACE
    return None
