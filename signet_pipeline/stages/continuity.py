"""Continuity scoring (spec memory-pipeline "Continuity Scoring"): at session end, how well the
memories injected at the session's start served it, judged from the session's transcript.

The LLM gets the injected memories (each under the first 8 characters of its id) and the
conversation (its latest MAX_CONVERSATION_CHARS) and answers with an overall score, a confidence,
how many memories were used, how much context the user had to supply that memory should have
held, a reason, and a relevance per memory. Replies are validated like every model reply: fences
and reasoning blocks stripped (output.extract_json), numbers clamped to [0, 1], missing optional
fields zero, per-memory prefixes resolved to ids only when unambiguous. The rules provider judges
by word overlap between each memory and the conversation. A session with no injected memory gets
a score row without a model call. At most MAX_MEMORIES (by rank) of MAX_MEMORY_CHARS each are shown.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from signet_pipeline.providers.llm import AnswersTasks, Llm
from signet_pipeline.providers.llm.output import extract_json
from signet_pipeline.store.db import Row

MAX_CONVERSATION_CHARS = 12_000
MAX_REASONING_CHARS = 1000
MAX_MEMORIES = 50  # judged per session, by injection rank (long sessions inject at every prompt)
MAX_MEMORY_CHARS = 500  # of each memory shown to the model
MAX_COUNT = 10_000  # counts a reply may claim
PREFIX = 8

PROMPT = """A session between a user and an AI assistant began with these memories injected as context:

{memories}

Below is the conversation (its latest part when long). Judge how useful the injected memories were.
Return ONLY a JSON object: {{"score": overall usefulness 0-1, "confidence": 0-1, "memories_used": how many
memories the conversation relied on, "novel_context_count": how many facts the user had to supply that a
memory should have provided, "reasoning": one sentence, "per_memory": [{{"id": the 8-character id, "relevance":
0-1}}, ...]}}

Conversation:
{conversation}
"""


class ContinuityScore(BaseModel):
    score: float = 0.0
    confidence: float = 0.0
    memories_recalled: int = 0
    memories_used: int = 0
    novel_context_count: int = 0
    reasoning: str = ""
    relevance: dict[str, float] = {}
    warnings: list[str] = []


def _unit(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return 0.0
    return min(1.0, max(0.0, number)) if number == number else 0.0  # NaN is not a score


def _count(value: Any) -> int:
    try:
        return min(MAX_COUNT, max(0, int(value)))
    except (TypeError, ValueError, OverflowError):  # OverflowError: a reply of 1e999
        return 0


def parse_score(reply: str | dict[str, Any], memory_ids: list[str], recalled: int | None = None) -> ContinuityScore:
    """Never raises: a reply without a usable object scores 0 with a warning. `recalled`: how many
    memories were injected (some may be gone since), default the ids judged."""
    data = extract_json(reply) if isinstance(reply, str) else reply
    result = ContinuityScore(memories_recalled=len(memory_ids) if recalled is None else recalled)
    if not isinstance(data, dict):
        result.warnings.append("continuity reply has no JSON object")
        return result
    by_prefix: dict[str, list[str]] = {}
    for memory_id in memory_ids:
        by_prefix.setdefault(memory_id[:PREFIX], []).append(memory_id)
    per_memory = data.get("per_memory")
    if not isinstance(per_memory, list):
        per_memory = []
        result.warnings.append("continuity reply has no per_memory list")
    for item in per_memory:
        matches = by_prefix.get(str(item.get("id", ""))[:PREFIX], []) if isinstance(item, dict) else []
        if len(matches) == 1:
            result.relevance[matches[0]] = _unit(item.get("relevance"))
        else:
            result.warnings.append(f"per_memory entry names no single injected memory: {item!r}"[:160])
    result.score, result.confidence = _unit(data.get("score")), _unit(data.get("confidence"))
    result.memories_used = min(_count(data.get("memories_used")), len(memory_ids))
    result.novel_context_count = _count(data.get("novel_context_count"))
    result.reasoning = str(data.get("reasoning") or "")[:MAX_REASONING_CHARS]
    return result


def score_session(llm: Llm, injected: list[Row], conversation: str, *, timeout: float | None = None) -> ContinuityScore:
    """`injected`: (id, content, is_deleted) by rank; `conversation`: the session's latest text.
    Raises ProviderError when the provider fails."""
    live = [row for row in injected if not row["is_deleted"]][:MAX_MEMORIES]
    if not live:
        return ContinuityScore(memories_recalled=len(injected), reasoning="no injected memory left to judge")
    shown = [(row["id"][:PREFIX], row["content"][:MAX_MEMORY_CHARS]) for row in live]
    if isinstance(llm, AnswersTasks):
        reply: Any = llm.continuity(shown, conversation)
    else:
        listing = "\n".join(f"[{prefix}] {content}" for prefix, content in shown)
        reply = llm.generate(PROMPT.format(memories=listing, conversation=conversation), json=True, timeout=timeout)
    return parse_score(reply, [row["id"] for row in live], recalled=len(injected))
