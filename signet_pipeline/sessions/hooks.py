"""Harness session hooks (wire-contract.md "Hook endpoints"): what session-start injects and what
session-end settles.

session-start builds the context a harness prints into a new session (sessions/inject.py composes
the text within one character budget): a guide to memory, the date, the identity files, the
working memory, and the memories of a candidate pool assembled from the session's project (hybrid
search, its newest memories, the graph walk from its entities) ranked pinned first, then by
importance x recency, with the constraints of the entities in scope. The memories injected are
recorded in session_memories with their rank (continuity scoring and aspect feedback at session
end) and in the session's ledger, so that user-prompt-submit does not give them again.
"""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from signet_pipeline import limits
from signet_pipeline.config import Settings
from signet_pipeline.errors import FileRefused, InvalidRequest, QueryTimeout, SessionTaken
from signet_pipeline.graph.traversal import Traversal, traverse
from signet_pipeline.limits import TranscriptText
from signet_pipeline.models import MAX_PROJECT_CHARS, RecallHit, RecallRequest, Visibility
from signet_pipeline.providers.local_files import LocalFiles
from signet_pipeline.recall.search import RecallOptions, recall_memories
from signet_pipeline.recall.session_context import Ledger
from signet_pipeline.request_rules import NOT_BLANK, STRICT, required_in_schema
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import checkpoints, identity, synthesis
from signet_pipeline.sessions import inject as inject_text
from signet_pipeline.sessions.aspect_feedback import apply_session_feedback
from signet_pipeline.sessions.inject import Candidate, rank
from signet_pipeline.sessions.synthesis import SUMMARY_TYPE
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.store.queue import SESSION_SUMMARY
from signet_pipeline.text.content import tags_text
from signet_pipeline.text.transcripts import conversation
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import ensure_writable

PINNED_MAX = 20
log = logging.getLogger("signet.hooks")
TRANSCRIPT_SUFFIXES = frozenset({".jsonl", ".json", ".md", ".txt", ".log"})
HEADER = "[signet memory]"
RECENT_CONTEXT_CHARS = 1000
RECENT_CONTEXT_SCAN = 20  # newest readable summaries looked through for the agent's own
ELLIPSIS = "…"


def _alias(*names: str) -> Any:
    return Field(None, validation_alias=AliasChoices(*names))


# The contract: every hook names its harness; a missing (or blank) one is a 400 missing_harness.
HARNESS = {"minLength": 1, "pattern": NOT_BLANK, "description": "the harness calling (claude-code, codex, ...)"}


class _HookRequest(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, **STRICT,
                              json_schema_extra=required_in_schema(harness=HARNESS))

    # Optional here so that a missing harness gets the contract's code (missing_harness), not a validation error.
    harness: str | None = Field(None, max_length=200)
    agent_id: str = Field("default", min_length=1, max_length=200, validation_alias=AliasChoices("agentId", "agent_id"))
    session_key: str | None = Field(None, max_length=500, validation_alias=AliasChoices("sessionKey", "session_key"))
    runtime_path: str | None = _alias("runtimePath", "runtime_path")

    def require_harness(self) -> str:
        return require_harness(self.harness)


def require_harness(harness: str | None) -> str:
    """The contract: a hook call without a harness is a 400 with a message."""
    harness = (harness or "").strip()
    if not harness:
        raise InvalidRequest("harness is required", code="missing_harness")
    return harness


class SessionStartRequest(_HookRequest):
    project: str | None = Field(None, max_length=MAX_PROJECT_CHARS)
    context: str | None = Field(None, max_length=10_000)  # what recall searches for: a recall query's limit
    harness_agent_id: str | None = _alias("harnessAgentId", "harness_agent_id")
    parent_session_key: str | None = _alias("parentSessionKey", "parent_session_key")
    source: str | None = None
    # What the harness shows the model whole (Claude Code and Codex keep 10,000 characters of a hook's
    # context and put the rest in a file): the inject is composed to fit, within the setting.
    budget_chars: int | None = Field(None, ge=200, le=200_000,
                                     validation_alias=AliasChoices("budgetChars", "budget_chars"))


class SessionEndRequest(_HookRequest):
    project: str | None = Field(None, max_length=MAX_PROJECT_CHARS)
    visibility: Visibility = "global"  # of the session's summary memories
    session_id: str | None = Field(None, max_length=500, validation_alias=AliasChoices("sessionId", "session_id"))
    reason: str | None = Field(None, max_length=500)
    cwd: str | None = None
    transcript_path: str | None = _alias("transcriptPath", "transcript_path")
    transcript: TranscriptText | None = None

    @property
    def key(self) -> str | None:
        return self.session_key or self.session_id


class InjectedMemory(BaseModel):
    id: str
    content: str
    source: str  # pinned | constraint | recall | project | graph | recent: what found it


class StartMemory(InjectedMemory):
    """A memory session-start gave, with the reference's fields besides ours."""

    type: str
    importance: float
    created_at: str


class SessionStartResult(BaseModel):
    inject: str
    recentContext: str | None = None
    sessionKey: str | None = None
    memories: list[StartMemory]  # in the order the inject shows them


class SessionEndResult(BaseModel):
    memoriesSaved: int  # written by this call: none, the session's summary is a queued job
    sessionKey: str | None = None
    transcriptSaved: bool = False
    queued: bool = False  # a session_summary job will turn the transcript into memories
    jobId: int | None = None  # GET /api/memory/jobs/{jobId}: its result counts memoriesSaved
    feedback: dict[str, int | bool] | None = None


def session_query(req: SessionStartRequest) -> str:
    """What recall searches for at session start: the given context, else the project's name."""
    if req.context and req.context.strip():
        return req.context.strip()
    if req.project:
        parts = [p for p in re.split(r"[\\/]", req.project) if p.strip()]
        return parts[-1] if parts else ""
    return ""


def _pool(svc: MemoryService, req: SessionStartRequest, given: set[str],
          record: bool) -> tuple[list[Candidate], list[Candidate]]:
    """(memories ranked, constraints): the pinned memories, the constraints of the entities in
    scope, what hybrid search finds for the session's context or project, the project's newest
    memories, what the graph walk from its entities reaches and the newest standing memories; each
    once, none the session was given already (its ledger; compaction starts a new epoch).
    `record`: the search counts as the use of what it found."""
    conn, hooks, pipeline = svc.db.reader(), svc.settings.hooks, svc.settings.pipeline
    query = session_query(req)
    found: dict[str, str] = {}  # memory id -> the first source that found it

    def add(ids: list[str], source: str) -> None:
        for memory_id in ids:
            found.setdefault(memory_id, source)

    add([r["id"] for r in mem_store.list_page(conn, MemoryFilter(agent_id=req.agent_id, pinned=True), PINNED_MAX, 0)],
        "pinned")
    walk = Traversal()
    if pipeline.graph_on and pipeline.traversal.enabled:
        walk = traverse(conn, req.agent_id, query, req.project, pipeline.traversal)
        add(sorted(walk.constraints), "constraint")
    if query:  # the walk above is the graph leg: recall's own would repeat it
        add([hit.id for hit in context_recall(svc, RecallRequest(query=query, limit=hooks.session_start_limit,
                                                                 agent_id=req.agent_id),
                                              RecallOptions(track_access=record, graph=False))], "recall")
    if req.project:
        flt = MemoryFilter(agent_id=req.agent_id, project=req.project)
        add([r["id"] for r in mem_store.list_page(conn, flt, hooks.session_start_limit, 0)], "project")
    add(sorted(walk.memory_ids), "graph")
    # Standing knowledge (preferences, people, the user): the newest memories of no project, or of
    # any when the session names none. Another project's memories come only through search or walk.
    newest = mem_store.list_page(conn, MemoryFilter(agent_id=req.agent_id), 3 * hooks.session_start_limit, 0)
    add([r["id"] for r in newest if not req.project or r["project"] is None], "recent")
    visible = mem_store.visible_ids(conn, [m for m in found if m not in given], MemoryFilter(agent_id=req.agent_id))
    rows = mem_store.fetch_many(conn, sorted(visible))
    candidates = [Candidate(id=r["id"], content=r["content"], source=found[r["id"]], type=r["type"],
                            importance=r["importance"], created_at=r["created_at"], pinned=bool(r["pinned"]),
                            tags=[t for t in tags_text(r["tags"]).split(",") if t]) for r in rows.values()]
    # A summary is where a session left off: the working-memory section shows the latest one.
    memories = [c for c in candidates if c.source != "constraint" and (c.pinned or c.type != SUMMARY_TYPE)]
    constraints = sorted((c for c in candidates if c.source == "constraint"), key=lambda c: -c.importance)
    _label(conn, constraints, walk.focal)
    return rank(memories, datetime.now(UTC), svc.settings.memory.decay_rate), constraints


def _label(conn, constraints: list[Candidate], focal: list[str]) -> None:
    """Name each constraint's entity: a focal one it mentions, else its most mentioned."""
    linked = graph_store.linked_entities(conn, [c.id for c in constraints])
    names: dict[str, str | None] = {}
    for c in constraints:
        entities = sorted(linked.get(c.id, []), key=lambda e: (e[0] not in focal, -e[1]))
        if entities:
            entity_id = entities[0][0]
            if entity_id not in names:
                row = graph_store.entity_row(conn, entity_id)
                names[entity_id] = row["name"] if row else None
            c.label = names[entity_id]


def context_recall(svc: MemoryService, req: RecallRequest, options: RecallOptions) -> list[RecallHit]:
    """What recall finds for a hook's context, or nothing when the search ran past its time limit:
    a harness is better served by a smaller injection now than by an error in its session."""
    try:
        return recall_memories(svc, req, options).results
    except QueryTimeout as exc:
        log.warning("hook context recall skipped: %s", exc.message)
        return []


def compose(candidates: list[InjectedMemory], budget: int) -> tuple[str, list[InjectedMemory]]:
    """The inject text within `budget` characters; a memory that does not fit whole is cut once,
    then composition stops (an injection never exceeds the budget)."""
    lines, used, injected = [HEADER], len(HEADER), []
    for memory in candidates:
        line = "- " + " ".join(memory.content.split())
        room = budget - used - 1  # newline
        if room <= len(ELLIPSIS) + 2:
            break
        if len(line) > room:
            line = line[:room - len(ELLIPSIS)].rstrip() + ELLIPSIS
        lines.append(line)
        used += len(line) + 1
        injected.append(memory)
    return ("\n".join(lines) if injected else ""), injected


def working_memory(svc: MemoryService, req: SessionStartRequest) -> tuple[str, str] | None:
    """(heading, text): the agent's MEMORY.md (synthesis.py) when there is one; else where the last
    session left off: the newest session summary (compaction or session-end) the agent can see, of
    this project when one is named."""
    text = synthesis.read(svc, req.agent_id)
    if text:
        return "Working Memory", text
    flt = MemoryFilter(agent_id=req.agent_id, types=[SUMMARY_TYPE], project=req.project)
    # The agent's own sessions: another agent's shared summary is not where this one left off.
    latest = next((r for r in mem_store.list_page(svc.db.reader(), flt, RECENT_CONTEXT_SCAN, 0)
                   if r["agent_id"] == req.agent_id), None)
    if latest is None:
        return None
    return "Where The Last Session Left Off", " ".join(latest["content"].split())


def _cut(text: str) -> str:
    return text if len(text) <= RECENT_CONTEXT_CHARS else text[:RECENT_CONTEXT_CHARS - 1].rstrip() + ELLIPSIS


def session_start(svc: MemoryService, req: SessionStartRequest, *, record: bool = True) -> SessionStartResult:
    """The context for a new session (inject.py composes it). `record` off (a readonly token,
    mutations frozen): the context is answered, and neither the session nor what it was given is kept."""
    harness = req.require_harness()
    hooks = svc.settings.hooks
    memories, constraints = _pool(svc, req, Ledger.load(svc, req.session_key, req.agent_id).given, record)
    files = identity.injected_files(svc, req.agent_id) if hooks.session_start_identity else []
    working = working_memory(svc, req)
    if working:
        files.append((*working, identity.WORKING_MEMORY_CHARS))
    budget = min(hooks.session_start_budget_chars, req.budget_chars or hooks.session_start_budget_chars)
    inject, injected = inject_text.compose(budget, now=datetime.now().astimezone(),
                                           files=files, memories=memories, constraints=constraints)
    if req.session_key and record:
        now = now_iso()
        with svc.db.write() as conn:
            sessions_store.start(conn, session_key=req.session_key, agent_id=req.agent_id, harness=harness,
                                 project=req.project, now=now, runtime_path=req.runtime_path)
            sessions_store.record_injected(conn, session_key=req.session_key, agent_id=req.agent_id,
                                           memory_ids=[m.id for m in injected], now=now)
            epoch = sessions_store.context_epoch(conn, req.session_key, req.agent_id)
            sessions_store.record_given(conn, req.session_key, req.agent_id, epoch, [m.id for m in injected], now)
    return SessionStartResult(inject=inject, recentContext=_cut(working[1]) if working else None,
                              sessionKey=req.session_key,
                              memories=[StartMemory(id=m.id, content=m.content, source=m.source, type=m.type,
                                                    importance=m.importance, created_at=m.created_at)
                                        for m in injected])


def read_transcript(req: SessionEndRequest, settings: Settings, *, read_files: bool) -> str | None:
    """The conversation (a harness's JSON lines as its turns: text/transcripts.py) of the transcript
    sent inline, else of the file at transcriptPath: read only for a trusted local caller (a remote
    one could name any file on this machine), only under hooks.transcriptRoots, with a transcript's
    suffix, through the connectors' safe reader (a regular file, no link followed) and up to
    limits.maxTranscriptChars bytes. A refused path keeps no transcript."""
    if req.transcript and req.transcript.strip():
        return conversation(req.transcript)
    if not req.transcript_path or not read_files:
        return None
    path = Path(req.transcript_path).expanduser()
    files = LocalFiles.of(settings.hooks.transcript_roots, never=(settings.workspace, settings.auth_secret_path),
                          setting="hooks.transcriptRoots")
    try:
        if path.suffix.lower() not in TRANSCRIPT_SUFFIXES:
            raise FileRefused(f"not a transcript ({', '.join(sorted(TRANSCRIPT_SUFFIXES))})", code="path_not_allowed")
        data = files.read(path, max_bytes=limits.active().max_transcript_chars, limit_name="limits.maxTranscriptChars")
    except (FileRefused, OSError) as exc:
        log.warning("session-end: transcriptPath %s not read: %s", path, exc)
        return None
    text = data.decode("utf-8", errors="replace")
    return conversation(text) if text.strip() else None


def refuse_taken(svc: MemoryService, session_key: str, agent_id: str) -> None:
    """A write to a session another agent holds is refused: it would change that agent's session.
    (The store's writes check it again, inside their transaction.)"""
    if sessions_store.owned_by_another(svc.db.reader(), session_key, agent_id):
        raise SessionTaken(f"session {session_key!r} belongs to another agent: use a session key of your own")


def session_end(svc: MemoryService, req: SessionEndRequest, *, read_files: bool = False) -> SessionEndResult:
    """End the session once: aspect feedback runs on the call that ends it, never again for a
    repeated session-end. The transcript is kept losslessly (recall `expand` attaches it to the
    session's memories) and a `session_summary` job is queued to turn it into memories (the
    pipeline must be on; a repeat while that job is pending does not queue another). A write:
    refused while mutations are frozen."""
    ensure_writable(svc)
    harness = req.require_harness()
    key = req.key
    if not key:
        return SessionEndResult(memoriesSaved=0)
    refuse_taken(svc, key, req.agent_id)
    transcript = read_transcript(req, svc.settings, read_files=read_files)  # before the write transaction
    now = now_iso()
    feedback, job_id = None, None
    pipeline = svc.settings.pipeline
    kept = False
    with svc.db.write() as conn:  # ending and feedback commit together: feedback runs exactly once
        if transcript:
            # The session's project: as sent, as named at session-start, else its working directory.
            project = next((p for p in (req.project, sessions_store.project_of(conn, key), req.cwd)
                            if p and len(p) <= MAX_PROJECT_CHARS), None)
            saved = sessions_store.save_transcript(conn, session_key=key, content=transcript, harness=harness,
                                                   project=project, agent_id=req.agent_id, now=now)
            kept = saved or sessions_store.has_transcript(conn, key, req.agent_id)
            if saved and pipeline.enabled:
                job_id, _ = job_store.enqueue(conn, job_type=SESSION_SUMMARY, session_key=key, now=now,
                                              max_attempts=pipeline.worker.max_retries,
                                              payload={"agent_id": req.agent_id, "harness": harness,
                                                       "project": project, "visibility": req.visibility})
        if sessions_store.end(conn, session_key=key, agent_id=req.agent_id, harness=harness, reason=req.reason,
                              now=now):
            feedback = apply_session_feedback(svc.db, session_key=key, agent_id=req.agent_id,
                                              cfg=pipeline.feedback, now=now).as_dict()
    checkpoints.checkpoint(svc, session_key=key, agent_id=req.agent_id, trigger="session_end", harness=harness)
    return SessionEndResult(memoriesSaved=0, sessionKey=key, transcriptSaved=kept,
                            queued=job_id is not None, jobId=job_id, feedback=feedback)
