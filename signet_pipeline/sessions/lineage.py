"""Session history as agents drill into it (the knowledge_expand_session and lcm_expand tools).

A session leaves `session_summary` memories (source_id = the session key: session-end's summary
job, compaction-complete), and the pipeline extracts facts from them (source_memory_id = the
summary). So:
- the sessions about an entity (POST /api/knowledge/expand/session) are the summaries that
  mention it, those whose extracted facts mention it, and those that name it in their text;
- a memory's lineage (POST /api/sessions/summaries/expand) is what it was derived from (parents),
  what was derived from it (children), its session's summaries and, for the session's own agent,
  the session row and the stored transcript.
Every memory comes through the reader's policy (MemoryFilter): another agent's private summary,
its facts and its transcript never appear; a transcript only ever goes back to its own agent."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

import apsw
from pydantic import AliasChoices, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from signet_pipeline.errors import NotFound
from signet_pipeline.graph.navigation import find_entity
from signet_pipeline.recall.keywords import fts_deadline
from signet_pipeline.request_rules import ISO_SCHEMA, NOT_BLANK, NOT_GIVEN, STRICT, Integer, iso_or_none
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions.synthesis import SUMMARY_TYPE
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.graph import lineage as lineage_store
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.timeutil import to_iso

MAX_LINKED = 25  # children, and a session's summaries (the newest)
Results = Annotated[int, Integer(ge=1, le=50)]
CharLimit = Annotated[int, Integer(ge=200, le=12_000)]
MAX_PARENTS = 10
EXCERPT_CHARS = 420
_WORD = re.compile(r"[^\W_]+")  # the FTS tokenizer's words (text/fts_query.py)
RANGES = {"last_week": 7, "last_month": 30}


def _since(value: Any) -> str | None:
    """timeRange: last_week, last_month or an ISO timestamp -> the earliest creation time."""
    if isinstance(value, str) and value in RANGES:
        return to_iso(datetime.now(UTC) - timedelta(days=RANGES[value]))
    return iso_or_none(value)


TimeRange = Annotated[str | None, BeforeValidator(_since), WithJsonSchema({
    "anyOf": [{"enum": list(RANGES)}, ISO_SCHEMA, NOT_GIVEN],
    "description": "only summaries written since: last_week, last_month or an ISO 8601 date or date-time"})]


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True, **STRICT)

    agent_id: str | None = Field(None, min_length=1, max_length=200,
                                 validation_alias=AliasChoices("agentId", "agent_id"),
                                 description="whose memories (a token's agent wins)")


class EntitySessionsRequest(_Body):
    entity_name: str = Field(..., min_length=1, max_length=200, pattern=NOT_BLANK,
                             validation_alias=AliasChoices("entityName", "entity_name", "entity"))
    session_id: str | None = Field(None, min_length=1, max_length=500,
                                   validation_alias=AliasChoices("sessionId", "session_id", "sessionKey"),
                                   description="only this session's summaries")
    time_range: TimeRange = Field(None, validation_alias=AliasChoices("timeRange", "time_range"))
    max_results: Results = Field(10, validation_alias=AliasChoices("maxResults", "max_results"))


class LineageRequest(_Body):
    id: str = Field(..., min_length=1, max_length=500, pattern=NOT_BLANK,
                    description="a memory id (a session summary, or a fact extracted from one), or a session key "
                                "(its latest summary)")
    include_transcript: bool = Field(True, validation_alias=AliasChoices("includeTranscript", "include_transcript"))
    transcript_char_limit: CharLimit = Field(
        2000, validation_alias=AliasChoices("transcriptCharLimit", "transcript_char_limit"))


class SessionSummary(BaseModel):
    id: str
    sessionKey: str | None
    harness: str | None
    project: str | None
    earliestAt: str
    latestAt: str
    content: str


class EntitySessions(BaseModel):
    entityName: str
    summaries: list[SessionSummary]  # newest first
    total: int


class Node(BaseModel):
    id: str
    type: str
    content: str
    sessionKey: str | None
    project: str | None
    harness: str | None  # who wrote it
    agentId: str
    sourceType: str | None
    sourceId: str | None
    createdAt: str


class LineageSession(BaseModel):
    sessionKey: str
    harness: str | None
    project: str | None
    startedAt: str | None  # from the session row, when the reader's agent registered the session
    endedAt: str | None
    summaries: list[Node]  # oldest first (the newest MAX_LINKED)


class Transcript(BaseModel):
    sessionKey: str
    harness: str | None
    project: str | None
    updatedAt: str
    excerpt: str  # around the node's first word found in it
    content: str  # the start, up to transcriptCharLimit


class Lineage(BaseModel):
    node: Node
    parents: list[Node]  # what the node was derived from, nearest first
    children: list[Node]  # derived from the node, newest first
    session: LineageSession | None
    transcript: Transcript | None


def entity_sessions(svc: MemoryService, agent_id: str, req: EntitySessionsRequest) -> EntitySessions:
    flt = MemoryFilter(agent_id=agent_id, types=[SUMMARY_TYPE], since=req.time_range)
    with svc.db.read() as conn:
        found = find_entity(conn, agent_id, req.entity_name)
        linked = lineage_store.about_entity(conn, found["id"], flt, source_id=req.session_id, limit=req.max_results)
        words = _WORD.findall(found["canonical_name"])
        with fts_deadline(svc, conn):  # a name in many memories: the phrase's postings are bounded in time
            named = [mid for mid, _ in mem_store.fts_search(conn, f'"{" ".join(words)}"', flt, req.max_results)] \
                if words else []
        texts = [r for r in mem_store.fetch_many(conn, named).values() if req.session_id in (None, r["source_id"])]
    merged = sorted({r["id"]: r for r in [*linked, *texts]}.values(), key=lambda r: r["created_at"], reverse=True)
    summaries = [SessionSummary(id=r["id"], sessionKey=r["source_id"], harness=r["who"], project=r["project"],
                                earliestAt=r["created_at"], latestAt=r["created_at"], content=r["content"])
                 for r in merged[:req.max_results]]
    return EntitySessions(entityName=found["name"], summaries=summaries, total=len(summaries))


def _node(row: Row) -> Node:
    return Node(id=row["id"], type=row["type"], content=row["content"], sessionKey=row["session_id"],
                project=row["project"], harness=row["who"], agentId=row["agent_id"], sourceType=row["source_type"],
                sourceId=row["source_id"], createdAt=row["created_at"])


def _visible(conn: apsw.Connection, memory_id: str, flt: MemoryFilter) -> Row | None:
    return mem_store.fetch_many(conn, sorted(mem_store.visible_ids(conn, [memory_id], flt))).get(memory_id)


def _excerpt(text: str, anchor: str) -> str:
    lower = text.lower()
    at = next((i for w in _WORD.findall(anchor.lower()) if len(w) >= 4 and (i := lower.find(w)) >= 0), 0)
    start = max(0, at - EXCERPT_CHARS * 2 // 5)
    return text[start:start + EXCERPT_CHARS]


def expand_node(svc: MemoryService, agent_id: str, req: LineageRequest) -> Lineage:
    readable = MemoryFilter(agent_id=agent_id, include_superseded=True)  # superseded: still readable by id
    summaries = MemoryFilter(agent_id=agent_id, types=[SUMMARY_TYPE])
    with svc.db.read() as conn:
        node = _visible(conn, req.id, readable) or next(
            iter(lineage_store.by_source(conn, req.id, summaries, 1)), None)
        if node is None:
            raise NotFound(f"no memory or session {req.id!r}")
        parents: list[Row] = []
        while (source := (parents or [node])[-1]["source_memory_id"]) and len(parents) < MAX_PARENTS:
            if (parent := _visible(conn, source, readable)) is None or parent["id"] == node["id"]:
                break
            parents.append(parent)
        children = lineage_store.derived_from(conn, node["id"], MemoryFilter(agent_id=agent_id), MAX_LINKED)
        key = node["session_id"] or (node["source_id"] if node["type"] == SUMMARY_TYPE else None)
        # A session's rows are its own agent's: its key, when the node is that agent's.
        own_key = key if key is not None and node["agent_id"] == agent_id else None
        siblings = lineage_store.by_source(conn, key, summaries, MAX_LINKED) if key else []
        row = lineage_store.session(conn, own_key, agent_id) if own_key is not None else None
        text = (lineage_store.transcript(conn, own_key, agent_id)
                if own_key is not None and req.include_transcript else None)
    session = None if key is None else LineageSession(
        sessionKey=key, harness=row["harness"] if row else node["who"], project=(row or node)["project"],
        startedAt=row["started_at"] if row else None, endedAt=row["ended_at"] if row else None,
        summaries=[_node(r) for r in reversed(siblings)])
    transcript = Transcript(sessionKey=text["session_key"], harness=text["harness"], project=text["project"],
                            updatedAt=text["updated_at"], excerpt=_excerpt(text["content"], node["content"]),
                            content=text["content"][:req.transcript_char_limit]) if text else None
    return Lineage(node=_node(node), parents=[_node(p) for p in parents], children=[_node(c) for c in children],
                   session=session, transcript=transcript)
