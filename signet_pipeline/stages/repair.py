"""Repair actions behind a policy gate (spec "Diagnostics and Repair").

The gate, in order: `autonomous.frozen` stops everything (503); `mutationsFrozen` stops the
actions that change memories or the graph (retention-sweep, clean-orphans, deduplicate: 503
mutations_frozen), not the queue and index upkeep; agent-role callers need
`autonomous.enabled` (operators and the daemon do not); then a per-action cooldown and hourly
budget (429 with the seconds to wait). Every request lands in repair_runs (executed or denied);
an executed one also writes an audit row in memory_history with memory_id `system`.

Each answer carries, beside the action's own result, the reference's `success`, `affected` and
`message` (what its CLI and dashboard print). A re-embed dry run is a read: it reports what a run
would re-embed, passes no gate, claims no cooldown and writes nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import apsw

from signet_pipeline.config import Settings
from signet_pipeline.errors import NotFound, RepairDenied
from signet_pipeline.ops.status import embedding_health
from signet_pipeline.service import MemoryService
from signet_pipeline.stages import dedup
from signet_pipeline.stages.embedding_refresh import MAX_ROWS, PREVIEW_ROWS, run_refresh
from signet_pipeline.stages.retention import sweep
from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store import history as history_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.fulltext import agent_terms
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.timeutil import now_iso, parse_iso, to_iso
from signet_pipeline.write.remember import Actor

FTS_MISMATCH_MAX = 0.10
REQUEUE_BATCH = 50
REEMBED_TIME_BUDGET_S = 30.0  # an HTTP caller waits for it; the Dagster refresh runs 120 s
ORPHAN_BATCH = 5_000  # rows per clean-orphans step (one short transaction each)


def _queue(svc: MemoryService) -> JobQueue:
    worker = svc.settings.pipeline.worker
    return JobQueue(svc.db, max_attempts=worker.max_retries, lease_timeout_ms=worker.lease_timeout_ms)


def requeue_dead(svc: MemoryService, options: dict[str, Any], actor: Actor) -> dict[str, Any]:
    return {"requeued": _queue(svc).requeue_dead(REQUEUE_BATCH)}


def release_leases(svc: MemoryService, options: dict[str, Any], actor: Actor) -> dict[str, Any]:
    return {"released": _queue(svc).reap_stale_leases()}


def check_fts(svc: MemoryService, options: dict[str, Any], actor: Actor) -> dict[str, Any]:
    """Compare the FTS index with the memories table, and each agent's term statistics with its live
    rows; when asked, rebuild the index when > 10% apart and the statistics when any agent is off."""
    with svc.db.write() as conn:
        counts = mem_store.storage_counts(conn)
        mismatch = abs(counts["fts_rows"] - counts["total"]) / counts["total"] if counts["total"] else 0.0
        rebuilt = bool(options.get("repair")) and mismatch > FTS_MISMATCH_MAX
        if rebuilt:
            mem_store.rebuild_fts(conn)
        drift = agent_terms.drifted_agents(conn)
        stats_rebuilt = bool(options.get("repair")) and drift > 0
        if stats_rebuilt:
            agent_terms.rebuild(conn)
    return {"ftsRows": counts["fts_rows"], "memories": counts["total"], "mismatch": round(mismatch, 4),
            "rebuilt": rebuilt, "termStatsDrift": drift, "termStatsRebuilt": stats_rebuilt}


def retention_sweep(svc: MemoryService, options: dict[str, Any], actor: Actor) -> dict[str, Any]:
    report = sweep(svc.db, svc.settings.pipeline.retention)
    return {"purged": report.counts(), "backlog": report.backlog}


def reembed(svc: MemoryService, options: dict[str, Any], actor: Actor) -> dict[str, Any]:
    """One embedding refresh run (missing, old-hash and other-model vectors), newest first, of at
    most `batch_size` memories (the reference CLI's batchSize; default MAX_ROWS)."""
    return run_refresh(svc, max_rows=options.get("batch_size") or MAX_ROWS,
                       time_budget_s=REEMBED_TIME_BUDGET_S).summary()


def reembed_preview(svc: MemoryService, batch_size: int | None) -> dict[str, Any]:
    """What `re-embed` with this batch size would do now (dryRun): read only."""
    embedder, batch = svc.embedder, batch_size or MAX_ROWS
    dims = embedder.dimensions if embedder.enabled else None
    if dims is None:
        why = f"embeddings are disabled or their dimension is unknown ({embedder.name})"
        return _answer("re-embed", {"skipped": why}, success=False, affected=0, message=f"dry run: {why}")
    conn = svc.db.reader()
    found = emb_store.refresh_backlog(conn, model=embedder.model, dimensions=dims)
    total = sum(found.values())
    sample = emb_store.stale_memories(conn, model=embedder.model, dimensions=dims, limit=min(batch, PREVIEW_ROWS))
    would = min(batch, total)
    return _answer("re-embed", {"found": found, "wouldReembed": would, "sample": [r["id"] for r in sample]},
                   success=True, affected=0,
                   message=f"dry run: {would} memories in this batch, {total} in all need a {embedder.model} vector")


def embedding_gaps(svc: MemoryService) -> dict[str, Any]:
    """Vector coverage as the reference's `embed audit` reads it: coverage is a percentage with one
    decimal, floored while a memory lacks its vector (never 100.0% with one missing)."""
    health = embedding_health(svc)
    live, embedded = health["live"], health["embedded"]
    pct = 100.0 * embedded / live if live else 100.0
    shown = pct if embedded == live else math.floor(pct * 10) / 10
    return {"total": live, "unembedded": health["missing"], "coverage": f"{shown:.1f}%",
            "oldestUnembedded": emb_store.oldest_without(svc.db.reader(), health["model"]),
            "stale": health["stale"], "model": health["model"]}


def clean_orphans(svc: MemoryService, options: dict[str, Any], actor: Actor) -> dict[str, Any]:
    """Vectors whose hash no memory carries (a tombstone's vector stays for retention), then graph
    links to memories whose row is gone, unlinked as retention does (mention counts lowered,
    entities left without mentions removed). Each step one short transaction of ORPHAN_BATCH."""
    with svc.db.write() as conn:
        vectors = emb_store.delete_orphans(conn, ORPHAN_BATCH)
    with svc.db.write() as conn:
        missing = mem_store.graph_links_to_missing(conn, ORPHAN_BATCH)
        decremented, removed = graph_store.forget_memories(conn, missing, now=now_iso()) if missing else (0, 0)
    return {"vectorsRemoved": vectors, "memoriesUnlinked": len(missing), "entitiesDecremented": decremented,
            "orphanEntitiesRemoved": removed, "capped": max(vectors, len(missing)) >= ORPHAN_BATCH}


def deduplicate(svc: MemoryService, options: dict[str, Any], actor: Actor) -> dict[str, Any]:
    return dedup.merge(svc, actor)


@dataclass(frozen=True)
class RepairAction:
    run: Callable[[MemoryService, dict[str, Any], Actor], dict[str, Any]]
    limits: Callable[[Settings], tuple[int, int]]  # (cooldown ms, hourly budget)
    # The result as the reference answers it: (success, affected, message).
    describe: Callable[[dict[str, Any]], tuple[bool, int, str]]
    changes_memories: bool = False  # purges, merges or unlinks memories: refused while mutations are frozen


def _requeue_limits(s: Settings) -> tuple[int, int]:
    return s.repair.requeue_cooldown_ms, s.repair.requeue_hourly_budget


def _reembed_limits(s: Settings) -> tuple[int, int]:
    return s.repair.reembed_cooldown_ms, s.repair.reembed_hourly_budget


def _dedup_limits(s: Settings) -> tuple[int, int]:
    return s.repair.dedup_cooldown_ms, s.repair.dedup_hourly_budget


def _default_limits(s: Settings) -> tuple[int, int]:
    return s.repair.default_cooldown_ms, s.repair.default_hourly_budget


def _refreshed(r: dict[str, Any]) -> tuple[bool, int, str]:
    if r.get("skipped"):
        return False, 0, r["skipped"]
    done = r["refreshed"]
    failed = f", {r['failed']} failed" if r["failed"] else ""
    return not (done == 0 and r["failed"]), done, f"re-embedded {done} memories{failed}, {r['remaining']} remaining"


def _fts(r: dict[str, Any]) -> tuple[bool, int, str]:
    stats = f"; term statistics of {r['termStatsDrift']} agents off" + (", rebuilt" if r["termStatsRebuilt"] else "")
    return True, int(r["rebuilt"]) + int(r["termStatsRebuilt"]), (
        f"FTS index {r['mismatch']:.1%} apart from the memories" + (", rebuilt" if r["rebuilt"] else "")
        + (stats if r["termStatsDrift"] else ""))


def _counted(key: str, what: str) -> Callable[[dict[str, Any]], tuple[bool, int, str]]:
    return lambda r: (True, r[key], f"{what} {r[key]}")


def _sweep(r: dict[str, Any]) -> tuple[bool, int, str]:
    purged = sum(r["purged"].values())
    return True, purged, f"retention sweep purged {purged} rows"


def _orphans(r: dict[str, Any]) -> tuple[bool, int, str]:
    return True, r["vectorsRemoved"] + r["memoriesUnlinked"], (
        f"removed {r['vectorsRemoved']} orphaned vectors, unlinked {r['memoriesUnlinked']} vanished memories")


ACTIONS: dict[str, RepairAction] = {
    "requeue-dead": RepairAction(requeue_dead, _requeue_limits, _counted("requeued", "requeued dead jobs:")),
    "release-leases": RepairAction(release_leases, _requeue_limits, _counted("released", "released stale leases:")),
    "check-fts": RepairAction(check_fts, _default_limits, _fts),
    "retention-sweep": RepairAction(retention_sweep, _default_limits, _sweep, changes_memories=True),
    "re-embed": RepairAction(reembed, _reembed_limits, _refreshed),
    "clean-orphans": RepairAction(clean_orphans, _default_limits, _orphans, changes_memories=True),
    "deduplicate": RepairAction(deduplicate, _dedup_limits, _counted("memoriesRemoved", "deduplicated memories:"),
                                changes_memories=True),
}


def gate(conn: apsw.Connection, settings: Settings, name: str, actor: Actor, at: datetime) -> RepairDenied | None:
    """Why the action may not run now, or None."""
    if settings.autonomous.frozen:
        return RepairDenied("repairs are frozen (autonomous.frozen)", code="repair_frozen", status=503)
    if ACTIONS[name].changes_memories and settings.pipeline.mutations_frozen:
        return RepairDenied(f"{name} changes memories, and mutations are frozen (memory.pipelineV2.mutationsFrozen)",
                            code="mutations_frozen", status=503)
    if actor.type == "agent" and not settings.autonomous.enabled:
        return RepairDenied("agents may not run repairs while autonomous.enabled is false", code="repair_forbidden",
                            status=403)
    cooldown_ms, budget = ACTIONS[name].limits(settings)
    last = analytics_store.repair_last_executed_at(conn, name)
    if last is not None:
        wait_s = (parse_iso(last) + timedelta(milliseconds=cooldown_ms) - at).total_seconds()
        if wait_s > 0:
            return RepairDenied(f"{name} ran at {last}; cooldown {cooldown_ms // 1000} s", code="repair_cooldown",
                                details={"retryAfterS": int(wait_s) + 1})
    used = analytics_store.repairs_executed_since(conn, name, to_iso(at - timedelta(hours=1)))
    if used >= budget:
        return RepairDenied(f"{name} used its hourly budget ({budget})", code="repair_budget_exhausted",
                            details={"retryAfterS": 3600})
    return None


def run_repair(svc: MemoryService, name: str, actor: Actor, *, reason: str | None = None,
               options: dict[str, Any] | None = None,
               annotate: Callable[[], dict[str, Any]] | None = None) -> dict[str, Any]:
    """Pass the gate and claim the run in one write transaction (two callers cannot both slip
    under a cooldown), run the action (its own transactions), then record the outcome and audit.
    `annotate` adds fields to the recorded result after the action (the maintenance cycle's scores)."""
    if name not in ACTIONS:
        raise NotFound(f"unknown repair action {name!r}; one of {', '.join(ACTIONS)}", code="unknown_repair")
    at = datetime.now(UTC)
    now = to_iso(at)
    with svc.db.write() as conn:
        denied = gate(conn, svc.settings, name, actor, at)
        run_id = analytics_store.record_repair(
            conn, action=name, outcome="denied" if denied else "executed", actor=actor.name, actor_type=actor.type,
            reason=reason, result={"code": denied.code, "message": denied.message} if denied else None, now=now)
    if denied is not None:
        raise denied
    try:
        result = ACTIONS[name].run(svc, options or {}, actor)
        if annotate is not None:
            result = {**result, **annotate()}
    except Exception as exc:
        with svc.db.write() as conn:
            analytics_store.finish_repair(conn, run_id, outcome="failed", result={"error": str(exc)[:500]})
        raise
    with svc.db.write() as conn:
        analytics_store.finish_repair(conn, run_id, outcome="executed", result=result)
        history_store.record(conn, memory_id="system", event="repair", now=now, changed_by=actor.name,
                             actor_type=actor.type, reason=reason or name, metadata={"action": name, **result},
                             request_id=actor.request_id)
    success, affected, message = ACTIONS[name].describe(result)
    return {**_answer(name, result, success=success, affected=affected, message=message), "runId": run_id,
            "executedAt": now}


def _answer(name: str, result: dict[str, Any], *, success: bool, affected: int, message: str) -> dict[str, Any]:
    return {"action": name, "success": success, "affected": affected, "message": message, "result": result}


def recent_runs(svc: MemoryService, limit: int) -> dict[str, Any]:
    return {"runs": analytics_store.recent_repairs(svc.db.reader(), limit), "actions": sorted(ACTIONS)}
