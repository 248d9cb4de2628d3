"""The parts of a recall answer that are not hybrid ranking (recall/search.py): how a stored
row becomes a result, the stage stopwatch behind `meta.timings`, and the two answers that skip
ranking — a date-only query's timeline, and aggregate recall, which needs an inference router this
service does not run."""

from __future__ import annotations

import time

from signet_pipeline.models import RecallHit, RecallRequest, RecallResult
from signet_pipeline.recall import temporal
from signet_pipeline.recall.session_context import transcripts_for
from signet_pipeline.service import MemoryService
from signet_pipeline.store import temporal as temporal_store
from signet_pipeline.store.db import Row
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.text.content import tags_text

NO_HITS = "No matching memories found."
NO_DEDUPE = {"enabled": False, "contextEpoch": 0, "suppressed": 0, "repeatedReturned": 0}
AGGREGATE_UNAVAILABLE = "aggregate recall needs an inference router, which is not available: recall without aggregate"


class Stopwatch:
    def __init__(self) -> None:
        self.started = time.perf_counter()
        self._mark = self.started
        self.stages: list[dict[str, float | str]] = []

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.add(name, (now - self._mark) * 1000)
        self._mark = now

    def add(self, name: str, ms: float) -> None:
        self.stages.append({"name": name, "durationMs": round(ms, 3)})

    @property
    def total_ms(self) -> float:
        return round((time.perf_counter() - self.started) * 1000, 3)


def to_hit(row: Row, score: float, source: str) -> RecallHit:
    return RecallHit(
        id=row["id"], content=row["content"], score=round(score, 6), source=source, type=row["type"],
        tags=tags_text(row["tags"]), pinned=bool(row["pinned"]), importance=row["importance"], who=row["who"],
        project=row["project"], created_at=row["created_at"], agent_id=row["agent_id"],
        visibility=row["visibility"], source_id=row["source_id"], source_type=row["source_type"],
        source_memory_id=row["source_memory_id"], subject_id=row["id"],
    )


def aggregate_unavailable(req: RecallRequest, watch: Stopwatch) -> RecallResult:
    """Aggregate recall synthesizes an answer through an inference router, which this service does
    not have: the spec's answer for that is a no-hit shape with aggregate.stoppedReason."""
    return RecallResult(results=[], query=req.query, method="keyword", message=AGGREGATE_UNAVAILABLE,
                        meta={"totalReturned": 0, "hasSupplementary": False, "noHits": True,
                              "timings": {"totalMs": watch.total_ms, "stages": watch.stages}, "dedupe": NO_DEDUPE},
                        aggregate={"saved": False, "deduped": False, "budget": req.aggregate_budget, "queries": [],
                                   "sourceMemoryIds": [], "stoppedReason": "router_unavailable", "usage": None})


def timeline(svc: MemoryService, req: RecallRequest, when: temporal.Plan, flt: MemoryFilter, limit: int,
              watch: Stopwatch) -> RecallResult:
    """A date-only query: the window's memories, oldest event first (no relevance, so no access
    or session-ledger bookkeeping)."""
    conn = svc.db.reader()
    found = {r["id"]: r for r in temporal_store.in_window(conn, *flt.sql(), limit)}
    hits = [to_hit(row, 1.0, "timeline") for row in found.values()]
    temporal.annotate(conn, hits, found, when.window)
    if req.expand:
        expanded = transcripts_for(svc, list(found.values()), flt.agent_id)
        for hit in hits:
            hit.transcript = expanded.get(hit.id)
    watch.lap("timeline")
    return RecallResult(results=hits, query=when.original_query, method="timeline", message=None if hits else NO_HITS,
                        meta={"totalReturned": len(hits), "hasSupplementary": False, "noHits": not hits,
                              "timings": {"totalMs": watch.total_ms, "stages": watch.stages},
                              "dedupe": NO_DEDUPE,
                              "temporal": when.meta()})
