"""Prospective hints (spec "Prospective Indexing"): questions a memory would help answer, asked of
the LLM after the memory is written and searched beside its content at recall time.

Replies are validated like every model reply: only strings in question form, 8-200 characters and
three words or more, that neither repeat the memory nor echo the prompt, deduplicated, at most
`hints.max`. The write replaces the memory's hints in one short transaction after the call.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from signet_pipeline.memory.service import MemoryService
from signet_pipeline.providers.llm import AnswersTasks, Llm
from signet_pipeline.providers.llm.output import extract_json
from signet_pipeline.store import hints as hints_store
from signet_pipeline.store.db import Commit
from signet_pipeline.store import memories as mem_store
from signet_pipeline.timeutil import now_iso

MIN_CHARS = 8
MAX_CHARS = 200
MIN_WORDS = 3
_QUESTION_START = re.compile(
    r"^(what|when|where|who|whom|whose|which|why|how|is|are|was|were|do|does|did|can|could|should|would|will|"
    r"has|have|had)\b", re.IGNORECASE)
_PROMPT_ECHO = re.compile(r"\b(memory:|return only|json|hints?\b|questions? a user)", re.IGNORECASE)
_NON_WORD = re.compile(r"[^\w]+")

PROMPT = """A memory was saved for an AI agent:

{content}

Imagine {max} different questions a user might ask later that this memory would help answer. Use the
words such a user would use (synonyms, categories, the reason they would ask), not only the memory's words.
Return ONLY a JSON object: {{"hints": ["question?", ...]}}
"""


class HintsReport(BaseModel):
    memory_id: str
    hints: list[str] = []
    written: int = 0
    warnings: list[str] = []
    skipped: str | None = None


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


def generate_hints(svc: MemoryService, llm: Llm, memory_id: str, *, limit: int, timeout: float | None = None,
                   commit: Commit | None = None) -> HintsReport:
    """Raises ProviderError when the provider fails (the job then retries). `commit` runs last in
    the write transaction (the queue completes the job there)."""
    report = HintsReport(memory_id=memory_id)
    row = mem_store.get(svc.db.reader(), memory_id)
    if row is None:
        report.skipped = "memory no longer exists"
        return report
    if isinstance(llm, AnswersTasks):
        reply: Any = llm.hints(row["content"], limit)
    else:
        reply = llm.generate(PROMPT.format(content=row["content"], max=limit), json=True, timeout=timeout)
    report.hints, report.warnings = parse_hints(reply, row["content"], limit)
    with svc.db.write() as conn:
        report.written = hints_store.replace(conn, memory_id=memory_id, content_hash=row["content_hash"],
                                             hints=report.hints, model=llm.model, now=now_iso())
        if commit is not None:
            commit(conn, report)
    if report.hints and not report.written:
        report.skipped = "memory deleted or changed while its hints were generated"
    return report
