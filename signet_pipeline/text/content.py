"""Content handling shared by every write path: normalization + hash (spec "Content
Normalization"), the `critical:` / `[tags]:` prefixes, tag parsing and type inference."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field

_WS = re.compile(r"\s+")
_TRAILING_PUNCT = re.compile(r"[.,!?;:]+$")


@dataclass(frozen=True)
class NormalizedContent:
    storage: str  # what the content column holds
    normalized: str  # canonical form used for dedup
    content_hash: str


def normalize_content(raw: str) -> NormalizedContent:
    """storage = trim + collapse whitespace; normalized = lower + strip trailing [.,!?;:];
    hash = sha256(normalized or storage.lower())."""
    storage = _WS.sub(" ", raw).strip()
    normalized = _TRAILING_PUNCT.sub("", storage.lower())
    basis = normalized or storage.lower()
    return NormalizedContent(storage, normalized, hashlib.sha256(basis.encode("utf-8")).hexdigest())


_CRITICAL = re.compile(r"^\s*critical:\s*", re.IGNORECASE)
_TAGS = re.compile(r"^\s*\[([^\]\n]*)\]:\s*")


@dataclass
class ParsedPrefixes:
    content: str
    pinned: bool = False
    tags: list[str] = field(default_factory=list)


def parse_tags(value: str | list[str] | None) -> list[str]:
    """Tags from "a,b" or ["a", "b"]: trimmed, empty dropped, order kept, duplicates removed."""
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else value
    seen: dict[str, None] = {}
    for item in items:
        tag = str(item).strip()
        if tag:
            seen.setdefault(tag, None)
    return list(seen)


def tags_text(tags_json: str) -> str:
    """Stored JSON array -> the "a,b" form the API shows."""
    return ",".join(json.loads(tags_json or "[]"))


def parse_prefixes(content: str) -> ParsedPrefixes:
    """`critical: [project,auth]: never expose tokens` -> pinned, tags, content (either order)."""
    parsed = ParsedPrefixes(content)
    while True:
        if m := _CRITICAL.match(parsed.content):
            parsed.pinned = True
        elif m := _TAGS.match(parsed.content):
            parsed.tags = parse_tags(parsed.tags + parse_tags(m.group(1)))
        else:
            return parsed
        parsed.content = parsed.content[m.end():]


# Spec "Memory Types": keyword patterns for explicit saves, checked in this order.
_TYPE_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("preference", re.compile(r"\b(prefers|likes|wants)\b", re.IGNORECASE)),
    ("decision", re.compile(r"\b(decided|agreed|will use)\b", re.IGNORECASE)),
    ("rule", re.compile(r"\b(never|always|must)\b", re.IGNORECASE)),
    ("learning", re.compile(r"\b(learned|discovered)\b", re.IGNORECASE)),
    ("issue", re.compile(r"\b(bug|broken|problem)\b", re.IGNORECASE)),
]


# A note that opens with its kind ("Decision: Python for the CLI") says its type outright.
_TYPE_HEADING = re.compile(r"^\s*(decision|rule|preference|learning|lesson|issue|bug)s?\s*:", re.IGNORECASE)
_HEADING_TYPES = {"lesson": "learning", "bug": "issue"}


def infer_type(content: str) -> str:
    if m := _TYPE_HEADING.match(content):
        heading = m.group(1).lower()
        return _HEADING_TYPES.get(heading, heading)
    for memory_type, pattern in _TYPE_PATTERNS:
        if pattern.search(content):
            return memory_type
    return "fact"


def asks(text: str) -> bool:
    """The text ends on a question, also when an emoji or a bracket follows its question mark. A loop
    from the end, not a regex anchored there: that retried at every character of a long run of them."""
    end = len(text)
    while end and not (text[end - 1].isalnum() or text[end - 1] == "_"):
        end -= 1
    return "?" in text[end:]
