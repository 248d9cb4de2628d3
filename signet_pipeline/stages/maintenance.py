"""One maintenance cycle (spec "Maintenance Worker"): diagnose, recommend repairs, and in execute
mode run them through the repair gate, then diagnose again and record the score change.

Halt tracker: an action whose last 3 maintenance runs did not raise the composite score is not
recommended again until a cycle finds nothing to repair (a healthy store resets it). The history
lives in repair_runs (each maintenance run stores its score before and after), so it holds across
the Dagster runs that execute cycles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from signet_pipeline.errors import RepairDenied
from signet_pipeline.ops import diagnostics
from signet_pipeline.ops.diagnostics import DiagnosticsReport
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.repair import run_repair
from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import Actor

ACTOR = Actor(name="maintenance", type="daemon")
HALT_AFTER = 3


def recommend(report: DiagnosticsReport) -> list[str]:
    queue = report.domains["queue"].signals
    index = report.domains["index"].signals
    storage = report.domains["storage"].signals
    wanted = []
    if queue["deadRate"] > diagnostics.DEAD_RATE_MAX:
        wanted.append("requeue-dead")
    if queue["staleLeases"] > 0:
        wanted.append("release-leases")
    if index["ftsMismatch"] > diagnostics.FTS_MISMATCH_MAX:
        wanted.append("check-fts")
    if storage["tombstoneRatio"] > diagnostics.TOMBSTONE_RATIO_MAX:
        wanted.append("retention-sweep")
    if index["embeddingModel"] and index["embeddingCoverage"] < diagnostics.EMBEDDING_COVERAGE_MIN:
        wanted.append("re-embed")
    return wanted


CYCLE = "maintenance-cycle"  # repair_runs rows logging each cycle (the halt tracker's reset points)


def halted(svc: MemoryService, action: str) -> bool:
    conn = svc.db.reader()
    runs = analytics_store.recent_repair_results(conn, action, ACTOR.name, HALT_AFTER,
                                       after_id=analytics_store.last_clean_repair_cycle(conn, CYCLE))
    return len(runs) == HALT_AFTER and all(r.get("scoreAfter", 0) <= r.get("scoreBefore", 0) for r in runs)


@dataclass
class Cycle:
    mode: str
    score_before: float
    score_after: float | None = None
    recommended: list[str] = field(default_factory=list)
    executed: dict[str, dict[str, Any]] = field(default_factory=dict)
    denied: dict[str, str] = field(default_factory=dict)
    halted: list[str] = field(default_factory=list)
    skipped: str | None = None


def _scores(svc: MemoryService, before: float) -> dict[str, Any]:
    """A repair's annotation: the score it started from and the score after it."""
    return {"scoreBefore": before, "scoreAfter": diagnostics.report(svc.db, svc.settings).score}


def run_cycle(svc: MemoryService) -> Cycle:
    auto = svc.settings.autonomous
    before = diagnostics.report(svc.db, svc.settings)
    cycle = Cycle(mode=auto.maintenance_mode, score_before=before.score)
    if auto.frozen or not auto.enabled:
        cycle.skipped = "autonomous.frozen" if auto.frozen else "autonomous.enabled is false"
        return cycle
    for action in recommend(before):
        (cycle.halted if halted(svc, action) else cycle.recommended).append(action)
    if cycle.mode == "observe":
        return cycle
    score = before.score
    for action in cycle.recommended:
        try:
            outcome = run_repair(svc, action, ACTOR, reason="maintenance cycle", options={"repair": True},
                                 annotate=partial(_scores, svc, score))
        except RepairDenied as exc:
            cycle.denied[action] = exc.code
            continue
        cycle.executed[action] = outcome["result"]
        score = outcome["result"]["scoreAfter"]  # the next action starts from here: no second report
    cycle.score_after = score
    with svc.db.write() as conn:
        analytics_store.record_repair(conn, action=CYCLE, outcome="executed", actor=ACTOR.name, actor_type=ACTOR.type,
                            reason=cycle.mode, now=now_iso(),
                            result={"recommended": cycle.recommended, "halted": cycle.halted,
                                    "scoreBefore": cycle.score_before, "scoreAfter": cycle.score_after})
    return cycle
