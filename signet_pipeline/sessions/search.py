"""Session search (POST /api/sessions/search; the MCP tool `session_search` calls it): which of the
agent's past sessions talked about something, found in what Signet keeps of them, the lossless
transcripts (session-end) and the session-summary memories (compaction, session summaries).

Bounded as every full-text path (recall/keywords.py): the query's words, quoted and OR-ed, at
most fts_query.MAX_TOKENS and within search.ftsPostingsBudget, and limits.queryTimeMs (408).
A query that is one of the agent's session keys finds that session first."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from signet_pipeline.models import MAX_PROJECT_CHARS
from signet_pipeline.recall.keywords import fts_deadline, keyword_query
from signet_pipeline.request_rules import STRICT, Integer
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions.synthesis import SUMMARY_TYPE
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.db import Row

EXCERPT_CHARS = 300  # of a transcript found by its key (matches get FTS5's snippet around them)
SearchLimit = Annotated[int, Integer(ge=1, le=50)]


class SessionSearchRequest(BaseModel):
    model_config = ConfigDict(extra="ignore", **STRICT)

    query: str = Field(..., max_length=10_000, description="words, or a session key")
    limit: SearchLimit = 10
    project: str | None = Field(None, max_length=MAX_PROJECT_CHARS, description="only this project's sessions")


class SessionHit(BaseModel):
    sessionKey: str
    project: str | None
    updatedAt: str
    excerpt: str
    source: Literal["key", "transcript", "summary"]  # what matched


class SessionSearchResult(BaseModel):
    hits: list[SessionHit]
    count: int


def _hit(row: Row, source: str) -> SessionHit:
    return SessionHit(sessionKey=row["session_key"], project=row["project"], updatedAt=row["updated_at"],
                      excerpt=" ".join(row["excerpt"].split()), source=source)


def search(svc: MemoryService, req: SessionSearchRequest, *, agent_id: str) -> SessionSearchResult:
    """The agent's own sessions only, best match first, each session once."""
    conn = svc.db.reader()
    found: list[SessionHit] = []
    exact = sessions_store.transcript_head(conn, req.query.strip(), agent_id, EXCERPT_CHARS)
    if exact is not None and req.project in (None, exact["project"]):
        found.append(_hit(exact, "key"))
    keywords = keyword_query(svc, conn, req.query)
    if keywords is not None:
        with fts_deadline(svc, conn):
            ranked = [(r["raw"], _hit(r, "transcript")) for r in
                      sessions_store.search_transcripts(conn, keywords.match, agent_id, req.project, req.limit)]
            ranked += [(r["raw"], _hit(r, "summary")) for r in sessions_store.search_summaries(
                conn, keywords.match, agent_id, req.project, SUMMARY_TYPE, req.limit)]
        found += [hit for _, hit in sorted(ranked, key=lambda pair: pair[0])]  # bm25: lower is better
    first: dict[str, SessionHit] = {}
    for hit in found:
        first.setdefault(hit.sessionKey, hit)  # each session once, where it ranks first
    hits = list(first.values())[:req.limit]
    return SessionSearchResult(hits=hits, count=len(hits))
