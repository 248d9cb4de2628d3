"""Continuity scores for people and dashboards (GET /api/analytics/continuity[/latest]): how well
the memories injected into an agent's sessions served them, scored at session end by the session
summary job (stages/continuity.py)."""

from __future__ import annotations

from pydantic import BaseModel

from signet_pipeline.service import MemoryService
from signet_pipeline.store import feedback as feedback_store
from signet_pipeline.store.db import Row


class SessionScore(BaseModel):
    sessionKey: str
    project: str | None
    harness: str | None
    score: float
    confidence: float
    memoriesRecalled: int
    memoriesUsed: int
    novelContextCount: int
    reasoning: str | None
    model: str | None
    createdAt: str


class ContinuityReport(BaseModel):
    scores: list[SessionScore]
    count: int
    meanScore: float | None  # of the listed sessions that had memories injected (the others say nothing)


def _view(row: Row) -> SessionScore:
    return SessionScore(sessionKey=row["session_key"], project=row["project"], harness=row["harness"],
                        score=row["score"], confidence=row["confidence"], memoriesRecalled=row["memories_recalled"],
                        memoriesUsed=row["memories_used"], novelContextCount=row["novel_context_count"],
                        reasoning=row["reasoning"], model=row["model"], createdAt=row["created_at"])


def _report(found: list[Row]) -> ContinuityReport:
    scores = [_view(r) for r in found]
    judged = [s.score for s in scores if s.memoriesRecalled > 0]
    return ContinuityReport(scores=scores, count=len(scores),
                            meanScore=round(sum(judged) / len(judged), 4) if judged else None)


def history(svc: MemoryService, *, agent_id: str, project: str | None, limit: int) -> ContinuityReport:
    return _report(feedback_store.history(svc.db.reader(), agent_id=agent_id, project=project, limit=limit))


def latest(svc: MemoryService, *, agent_id: str) -> ContinuityReport:
    """The newest score of each project."""
    return _report(feedback_store.latest_per_project(svc.db.reader(), agent_id))
