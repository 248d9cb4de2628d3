"""Which questions a memory may keep as its prospective hints (spec "Prospective Indexing"): only
strings in question form, 8-200 characters and three words or more, that neither repeat the memory
nor echo the prompt, deduplicated, at most `hints.max`. Generated hints (stages/hints.py) and
hints a caller authors with a structured remember pass the same rules."""

from __future__ import annotations

import re
from typing import Any

from signet_pipeline.providers.llm.output import extract_json

MIN_CHARS = 8
MAX_CHARS = 200
MIN_WORDS = 3
_QUESTION_START = re.compile(
    r"^(what|when|where|who|whom|whose|which|why|how|is|are|was|were|do|does|did|can|could|should|would|will|"
    r"has|have|had)\b", re.IGNORECASE)
_PROMPT_ECHO = re.compile(r"\b(memory:|return only|json|hints?\b|questions? a user)", re.IGNORECASE)
_NON_WORD = re.compile(r"[^\w]+")


def word_key(text: str) -> str:
    return _NON_WORD.sub(" ", text.lower()).strip()


def parse_hints(reply: str | dict[str, Any] | list[Any], content: str, limit: int) -> tuple[list[str], list[str]]:
    """(accepted hints, warnings). Never raises."""
    data = extract_json(reply) if isinstance(reply, str) else reply
    if isinstance(data, dict):
        data = data.get("hints", data.get("questions"))
    if not isinstance(data, list):
        return [], ["hints reply has no list of questions"]
    accepted: dict[str, str] = {}
    warnings: list[str] = []
    memory = word_key(content)
    for item in data:
        hint = " ".join(str(item).split()) if isinstance(item, str) else ""
        key = word_key(hint)
        if not hint:
            warnings.append(f"not a string: {item!r}"[:120])
        elif not MIN_CHARS <= len(hint) <= MAX_CHARS or len(key.split()) < MIN_WORDS:
            warnings.append(f"length out of range: {hint[:60]!r}")
        elif not (hint.endswith("?") or _QUESTION_START.match(hint)):
            warnings.append(f"not a question: {hint[:60]!r}")
        elif key == memory or (len(memory) > 20 and memory in key):
            warnings.append(f"repeats the memory: {hint[:60]!r}")
        elif _PROMPT_ECHO.search(hint):
            warnings.append(f"echoes the prompt: {hint[:60]!r}")
        elif key not in accepted:
            accepted[key] = hint
    hints = list(accepted.values())
    if len(hints) > limit:
        warnings.append(f"{len(hints) - limit} hint(s) over hints.max dropped")
    return hints[:limit], warnings
