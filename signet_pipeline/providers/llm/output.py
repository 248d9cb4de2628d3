"""Cleaning model output before it is parsed: chain-of-thought blocks, code fences, and JSON
that arrives wrapped in prose. Never raises on bad output; callers get None instead."""

from __future__ import annotations

import json
import re
from typing import Any

_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def strip_reasoning(text: str) -> str:
    """Remove <think>...</think> blocks (an unclosed one runs to the end) and surrounding fences."""
    text = _THINK.sub("", text).strip()
    fenced = _FENCE.match(text)
    return fenced.group(1).strip() if fenced else text


def extract_json(text: str) -> Any | None:
    """The first JSON object or array in the text, tolerating prose around it and the trailing
    commas small local models leave before a closing bracket; None if none parses."""
    cleaned = strip_reasoning(text)
    relaxed = without_trailing_commas(cleaned)
    for candidate in dict.fromkeys((cleaned, relaxed)):
        try:
            return json.loads(candidate)
        except ValueError:
            pass
    decoder = json.JSONDecoder()
    # As written first: a stray quote in the prose around the JSON misleads the comma removal.
    for candidate in dict.fromkeys((cleaned, relaxed)):
        for i, ch in enumerate(candidate):
            if ch in "{[":
                try:
                    value, _ = decoder.raw_decode(candidate, i)
                    return value
                except ValueError:
                    continue
    return None


def without_trailing_commas(text: str) -> str:
    """`text` without the commas that only a closing } or ] follows, outside JSON strings (one pass)."""
    out: list[str] = []
    in_string = escaped = False
    comma: int | None = None  # where the last comma outside a string is, while only whitespace follows it
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string, comma = True, None
        elif ch == ",":
            comma = len(out)
        elif ch in "}]":
            if comma is not None:
                out[comma] = ""
            comma = None
        elif not ch.isspace():
            comma = None
        out.append(ch)
    return "".join(out)
