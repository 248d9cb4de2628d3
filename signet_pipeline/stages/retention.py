"""Retention sweep (spec "Retention Worker"): purge expired data in a fixed order, each step its
own short write transaction capped at `batchLimit` rows, so a sweep never holds the write lock for
long and a backlog drains over the following sweeps. A tombstone loses its graph links and vector
before it is hard-deleted (one cutoff for the whole sweep); nothing inside a window is touched.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import apsw

from signet_pipeline.config_sections import RetentionConfig
from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store import checkpoints as checkpoint_store
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import graph as graph_store
from signet_pipeline.store import history as history_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.store.db import Database
from signet_pipeline.text.transcripts import digest, scrub, summarized, units
from signet_pipeline.timeutil import now_iso, parse_iso, to_iso


@dataclass
class StepResult:
    name: str
    rows: int
    elapsed_ms: float
    cutoff: str | None = None
    details: dict[str, int] = field(default_factory=dict)
    capped: bool = False  # the batch limit was reached: more rows wait for the next sweep


@dataclass
class RetentionReport:
    now: str
    steps: list[StepResult] = field(default_factory=list)

    @property
    def total_rows(self) -> int:
        return sum(s.rows for s in self.steps)

    @property
    def backlog(self) -> list[str]:
        return [s.name for s in self.steps if s.capped]

    def counts(self) -> dict[str, int]:
        return {s.name: s.rows for s in self.steps}


def _run(report: RetentionReport, db: Database, name: str, cutoff: str | None, limit: int,
         work: Callable[[apsw.Connection], tuple[int, dict[str, Any]]]) -> None:
    started = time.perf_counter()
    with db.write() as conn:
        n, details = work(conn)
    report.steps.append(StepResult(name, n, round((time.perf_counter() - started) * 1000, 2), cutoff, details,
                                   capped=n >= limit))


def _scrub_transcripts(conn: apsw.Connection, purged: list[Any]) -> int:
    """Cut the purged memories' text from the transcripts of their sessions (session_id or
    source_id, same agent); one pass per transcript. Returns the passages removed."""
    texts: dict[tuple[str, str], list[str]] = {}
    for row in purged:
        for key in {row["session_id"], row["source_id"]} - {None}:
            texts.setdefault((key, row["agent_id"]), []).append(row["content"])
    removed = 0
    for (key, agent), transcript in sessions_store.transcripts_of(conn, list(texts)).items():
        cleaned, n = scrub(transcript, texts[(key, agent)])
        if n:
            sessions_store.replace_transcript(conn, key, cleaned,
                                              _summarized_hash(conn, key, agent, transcript, cleaned))
            removed += n
    return removed


def _summarized_hash(conn: apsw.Connection, key: str, agent: str, before: str, after: str) -> str | None:
    """The summarized part's hash after the edit, when the summary covered the transcript as it was."""
    done, done_digest = sessions_store.summary_progress(conn, key, agent)
    if not summarized(units(before), done, done_digest):
        return None
    return digest(units(after)[:done])


def sweep(db: Database, cfg: RetentionConfig, *, now: str | None = None) -> RetentionReport:
    now = now or now_iso()
    at = parse_iso(now)

    def before(days: float) -> str:
        return to_iso(at - timedelta(days=days))

    report = RetentionReport(now=now)
    limit = cfg.batch_limit
    tombstones = before(cfg.tombstone_retention_days)

    def expired(conn: apsw.Connection) -> list[dict[str, Any]]:
        return mem_store.expired_tombstones(conn, tombstones, limit)

    def graph_links(conn: apsw.Connection) -> tuple[int, dict[str, Any]]:
        ids = [r["id"] for r in expired(conn)]
        decremented, removed = graph_store.forget_memories(conn, ids, now=now) if ids else (0, 0)
        return len(ids), {"entities_decremented": decremented, "orphan_entities_removed": removed}

    def embeddings(conn: apsw.Connection) -> tuple[int, dict[str, Any]]:
        found = expired(conn)
        hashes = sorted({r["content_hash"] for r in found if r["content_hash"]})
        shared = mem_store.hash_users(conn, hashes, [r["id"] for r in found]) if hashes else set()
        deleted = emb_store.delete_for_hashes(conn, [h for h in hashes if h not in shared]) if hashes else 0
        return len(found), {"vectors_deleted": deleted, "vectors_kept_shared": len(shared)}

    def tombstone_rows(conn: apsw.Connection) -> tuple[int, dict[str, Any]]:
        found = expired(conn)
        if not found:
            return 0, {}
        ids = [r["id"] for r in found]
        session_rows = sessions_store.forget_memories(conn, ids)
        scrubbed = _scrub_transcripts(conn, found)
        return mem_store.hard_delete(conn, ids), {"session_rows_deleted": session_rows,
                                                  "transcript_passages_removed": scrubbed}

    _run(report, db, "graph_links", tombstones, limit, graph_links)
    _run(report, db, "embeddings", tombstones, limit, embeddings)
    _run(report, db, "tombstones", tombstones, limit, tombstone_rows)
    history = before(cfg.history_retention_days)
    _run(report, db, "history", history, limit, lambda c: (history_store.purge_before(c, history, limit), {}))
    completed = before(cfg.completed_job_retention_days)
    _run(report, db, "completed_jobs", completed, limit,
         lambda c: (job_store.purge_finished(c, "completed", completed, limit), {}))
    dead = before(cfg.dead_job_retention_days)
    _run(report, db, "dead_jobs", dead, limit, lambda c: (job_store.purge_finished(c, "dead", dead, limit), {}))
    checkpoints = before(cfg.checkpoint_retention_days)
    _run(report, db, "checkpoints", checkpoints, limit,
         lambda c: (checkpoint_store.purge_before(c, checkpoints, limit), {}))
    _run(report, db, "session_ledger", checkpoints, limit,
         lambda c: (sessions_store.purge_ledger_before(c, checkpoints, limit), {}))
    if cfg.transcript_retention_days is not None:
        transcripts = before(cfg.transcript_retention_days)
        _run(report, db, "transcripts", transcripts, limit,
             lambda c: (sessions_store.purge_transcripts_before(c, transcripts, limit), {}))
    telemetry = before(cfg.telemetry_retention_days)
    _run(report, db, "telemetry", telemetry, limit,  # events and the memory-search log
         lambda c: (analytics_store.prune_telemetry(c, before=telemetry, limit=limit)
                    + analytics_store.prune_searches(c, before=telemetry, limit=limit), {}))
    _run(report, db, "embedding_change_log", None, cfg.change_log_batch,
         lambda c: (emb_store.prune_change_log(c, keep=cfg.change_log_keep, limit=cfg.change_log_batch), {}))
    return report
