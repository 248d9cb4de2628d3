"""Session summaries (spec "summary worker", wire-contract session-end): a finished session's
transcript, read as turns and packed into windows, becomes `session_summary` memories through the
LLM (replies validated, secrets masked, every call before any write); extraction then treats them
like any memory. A transcript that only grew is summarized from where its last summary stopped.
The same job scores the session's continuity (stages/continuity.py).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from signet_pipeline.errors import ProviderError
from signet_pipeline.models import RememberRequest, Visibility
from signet_pipeline.providers.llm import AnswersTasks, Llm
from signet_pipeline.providers.llm.output import extract_json
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions.checkpoints import redact
from signet_pipeline.sessions.hooks import SUMMARY_TYPE
from signet_pipeline.stages.continuity import (
    MAX_CONVERSATION_CHARS,
    ContinuityScore,
    score_session,
)
from signet_pipeline.stages.drain.jobs import JobBatch, run_queue_jobs
from signet_pipeline.store import feedback as feedback_store
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.queue import SESSION_SUMMARY, JobQueue
from signet_pipeline.text.transcripts import Turn, digest, render, summarized, units, windows
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.hints import word_key
from signet_pipeline.write.remember import Actor, remember_many

SOURCE_TYPE = "session_end"
ACTOR = Actor(name="session-summary", type="daemon")
WINDOW_CHARS = 8000
MAX_WINDOWS = 40  # ≈ 320k characters of dialogue; longer sessions keep their latest part
MAX_STATEMENTS = 12
MIN_CHARS, MAX_CHARS = 12, 500
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_PROMPT_ECHO = re.compile(r"\b(return only|json|statements? worth|this (excerpt|conversation|window))\b", re.IGNORECASE)

PROMPT = """Below is part {part} of {parts} of a conversation between a user and an AI assistant{where}.

Write down what is worth remembering in later sessions: decisions made and why, preferences and facts
about the user, their projects, tools and environment, conclusions reached, problems solved and how,
and open tasks. One self-contained statement each (name the people and things; no "it" or "this"),
at most {max} statements. Skip small talk, the assistant's step-by-step process, and anything that
only mattered in the moment. If nothing is worth remembering, return an empty list.

Return ONLY a JSON object: {{"statements": ["...", ...]}}

Conversation:
{conversation}
"""


class SummaryPayload(BaseModel):
    """What session-end puts on the job (read back leniently: older or hand-made jobs lack fields)."""

    agent_id: str = "default"
    harness: str | None = Field(None, max_length=200)
    project: str | None = Field(None, max_length=500)
    visibility: Visibility = "global"


class SessionSummaryReport(BaseModel):
    session_key: str
    continuity_score: float | None = None  # how well the injected memories served the session
    turns: int = 0  # new turns read this time (the part summarized before is skipped)
    windows: int = 0
    windows_dropped: int = 0  # earliest windows beyond MAX_WINDOWS
    statements: int = 0
    memory_ids: list[str] = []
    deduped: int = 0
    warnings: list[str] = []
    skipped: str | None = None
    elapsed_ms: float = 0.0


def parse_statements(reply: str | dict[str, Any] | list[Any],
                     limit: int = MAX_STATEMENTS) -> tuple[list[str], list[str]]:
    """(accepted statements, warnings). Never raises."""
    data = extract_json(reply) if isinstance(reply, str) else reply
    if isinstance(data, dict):
        data = data.get("statements", data.get("summary", data.get("facts")))
    if isinstance(data, str):  # a summary as text: its lines
        data = [line for line in data.splitlines() if line.strip()]
    if not isinstance(data, list):
        return [], ["summary reply has no list of statements"]
    accepted: dict[str, str] = {}
    warnings: list[str] = []
    for item in data:
        if isinstance(item, dict):  # {"content": ...} as the extraction prompt shapes facts
            item = item.get("content", item.get("statement"))
        text = _BULLET.sub("", " ".join(item.split())) if isinstance(item, str) else ""
        key = word_key(text)
        if not text:
            warnings.append(f"not a string: {item!r}"[:120])
        elif not MIN_CHARS <= len(text) <= MAX_CHARS:
            warnings.append(f"length out of range: {text[:60]!r}")
        elif _PROMPT_ECHO.search(text):
            warnings.append(f"echoes the prompt: {text[:60]!r}")
        elif key not in accepted:
            accepted[key] = text
    statements = list(accepted.values())
    if len(statements) > limit:
        warnings.append(f"{len(statements) - limit} statement(s) over the limit dropped")
    return statements[:limit], warnings


def _statements(llm: Llm, window: str, *, part: int, parts: int, where: str,
                timeout: float | None) -> tuple[list[str], list[str]]:
    if isinstance(llm, AnswersTasks):
        reply: Any = llm.summarize(window, MAX_STATEMENTS)
    else:
        reply = llm.generate(PROMPT.format(part=part, parts=parts, where=where, max=MAX_STATEMENTS,
                                           conversation=window), json=True, timeout=timeout)
    return parse_statements(reply)


def _tail(conversation: list[Turn]) -> str:
    """The conversation's latest MAX_CONVERSATION_CHARS, rendered and redacted (only what is shown)."""
    parts, size = [], 0
    for turn in reversed(conversation):
        parts.append(render(turn))
        size += len(parts[-1]) + 2
        if size >= MAX_CONVERSATION_CHARS:
            break
    return redact("\n\n".join(reversed(parts))[-MAX_CONVERSATION_CHARS:])


def _continuity(llm: Llm, reader: Any, session_key: str, agent_id: str, conversation: list[Turn],
                report: SessionSummaryReport, timeout: float | None) -> ContinuityScore | None:
    """The session's continuity score; a provider failure here costs the score, not the summary."""
    try:
        judged = score_session(llm, feedback_store.injected(reader, session_key, agent_id), _tail(conversation),
                               timeout=timeout)
    except ProviderError as exc:
        report.warnings.append(f"continuity not scored: {exc}")
        return None
    report.warnings.extend(judged.warnings)
    report.continuity_score = judged.score
    return judged


def summarize_session(svc: MemoryService, llm: Llm, session_key: str, payload: SummaryPayload, *,
                      timeout: float | None = None,
                      heartbeat: Callable[[], None] | None = None) -> SessionSummaryReport:
    """Raises ProviderError when the provider fails (the job retries; nothing was written).
    `heartbeat` is called before each window and before writing: it extends the job's lease, or
    raises when the lease was lost (then nothing is written either)."""
    started = time.perf_counter()
    report = SessionSummaryReport(session_key=session_key)
    agent_id = payload.agent_id
    reader = svc.db.reader()
    transcript = sessions_store.transcripts(reader, [session_key], agent_id).get(session_key)
    if not transcript:
        report.skipped = "transcript no longer stored"
        return report
    conversation = units(transcript)
    done, done_digest = sessions_store.summary_progress(reader, session_key, agent_id)
    start = summarized(conversation, done, done_digest)
    report.turns = len(conversation) - start
    parts = windows(conversation[start:], WINDOW_CHARS)
    if not parts:
        report.skipped = "nothing new since the last summary"
        return report
    if len(parts) > MAX_WINDOWS:
        report.windows_dropped = len(parts) - MAX_WINDOWS
        report.warnings.append(f"long session: the first {report.windows_dropped} of {len(parts)} windows skipped")
        parts = parts[-MAX_WINDOWS:]
    report.windows = len(parts)
    where = "".join([f" in {payload.harness}" if payload.harness else "",
                     f" (project {payload.project})" if payload.project else ""])
    summaries: list[str] = []
    for index, window in enumerate(parts, start=1):
        if heartbeat:
            heartbeat()
        # Secrets pasted into a session reach neither the model nor a memory (checkpoint redaction).
        statements, warnings = _statements(llm, redact(window), part=index, parts=len(parts), where=where,
                                           timeout=timeout)
        report.warnings.extend(f"window {index}: {w}" for w in warnings)
        report.statements += len(statements)
        if statements:  # stored content is whitespace-normalized: sentences keep the statements apart
            summaries.append(redact(" ".join(t if t[-1] in ".!?" else t + "." for t in statements)))
    if heartbeat:
        heartbeat()
    judged = _continuity(llm, reader, session_key, agent_id, conversation, report, timeout)
    if heartbeat:
        heartbeat()
    if summaries:  # all provider calls are done: one batch of short writes
        results = remember_many(svc, [
            RememberRequest(content=text, type=SUMMARY_TYPE, who=payload.harness, project=payload.project,
                            agentId=agent_id, sourceType=SOURCE_TYPE, sourceId=session_key, sessionId=session_key,
                            visibility=payload.visibility)
            for text in summaries], ACTOR)
        report.memory_ids = [r.id for r in results if not r.deduped]
        report.deduped = sum(r.deduped for r in results)
    with svc.db.write() as conn:
        sessions_store.mark_summarized(conn, session_key, agent_id, len(conversation), digest(conversation))
        if judged is not None:
            feedback_store.save(conn, {
                "session_key": session_key, "agent_id": agent_id, "project": payload.project,
                "harness": payload.harness, "model": llm.model, "created_at": now_iso(),
                **judged.model_dump(include={"score", "confidence", "memories_recalled", "memories_used",
                                             "novel_context_count", "reasoning"})}, judged.relevance)
    report.elapsed_ms = round((time.perf_counter() - started) * 1000, 1)
    return report


def run_session_jobs(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int,
                     ids: list[int] | None = None) -> JobBatch[SessionSummaryReport]:
    cfg = svc.settings.pipeline
    return run_queue_jobs(
        svc.db, queue, (llm.name, llm.model), SESSION_SUMMARY, limit=limit, ids=ids, target="session_key",
        lease_each=True,
        work=lambda job, _completion: summarize_session(
            svc, llm, job["session_key"] or "", SummaryPayload.model_validate(json.loads(job["payload"] or "{}")),
            timeout=cfg.extraction.timeout / 1000, heartbeat=queue.keeper(job)),
        result=lambda report: report.model_dump(exclude={"session_key", "memory_ids", "warnings"})
        | {"memoriesSaved": len(report.memory_ids), "warnings": report.warnings[:20]})
