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
    """The first JSON object or array in the text, tolerating prose around it; None if none parses."""
    cleaned = strip_reasoning(text)
    try:
        return json.loads(cleaned)
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    for i, ch in enumerate(cleaned):
        if ch in "{[":
            try:
                value, _ = decoder.raw_decode(cleaned, i)
                return value
            except ValueError:
                continue
    return None
