"""SQL for memory_jobs, the durable queue every background stage reads.

pending -> leased -> completed, or -> pending again (with a not-before time) on failure, or
-> dead once attempts reach max_attempts. Every state change runs inside the caller's write
transaction (`Database.write()`), so two workers — threads or processes — never lease one job.
"""

from __future__ import annotations

import json
from typing import Any

import apsw

from signet_pipeline.store.db import Row, one, rows, scalar


def enqueue(conn: apsw.Connection, *, job_type: str, now: str, memory_id: str | None = None,
            document_id: str | None = None, entity_id: str | None = None, session_key: str | None = None,
            payload: dict[str, Any] | None = None, max_attempts: int = 3) -> tuple[int, bool]:
    """Insert a pending job unless one is already pending/leased for the same target and type.

    Returns (job id, created). The unique partial indexes make the dedup atomic.
    """
    job_id = scalar(
        conn,
        "INSERT INTO memory_jobs(memory_id, document_id, entity_id, session_key, job_type, status, payload, max_attempts, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
        (memory_id, document_id, entity_id, session_key, job_type,
         json.dumps(payload) if payload is not None else None, max_attempts, now, now),
    )
    if job_id is not None:
        return int(job_id), True
    existing = scalar(
        conn,
        "SELECT id FROM memory_jobs WHERE job_type = ? AND status IN ('pending', 'leased') AND "
        "((? IS NOT NULL AND memory_id = ?) OR (? IS NOT NULL AND document_id = ?) OR (? IS NOT NULL AND entity_id = ?) "
        "OR (? IS NOT NULL AND session_key = ?)) ORDER BY status = 'pending' DESC, id LIMIT 1",
        (job_type, memory_id, memory_id, document_id, document_id, entity_id, entity_id, session_key, session_key),
    )
    return int(existing), False


def get(conn: apsw.Connection, job_id: int) -> Row | None:
    return one(conn, "SELECT * FROM memory_jobs WHERE id = ?", (job_id,))


def counts_by_status(conn: apsw.Connection, job_type: str | None = None) -> dict[str, int]:
    sql = "SELECT status, count(*) FROM memory_jobs" + (" WHERE job_type = ?" if job_type else "") + " GROUP BY status"
    return {r[0]: r[1] for r in conn.execute(sql, (job_type,) if job_type else ())}


def oldest_pending_created_at(conn: apsw.Connection, job_type: str) -> str | None:
    return scalar(conn, "SELECT min(created_at) FROM memory_jobs WHERE job_type = ? AND status = 'pending'",
                  (job_type,))


def lease(conn: apsw.Connection, *, job_types: list[str], now: str, limit: int = 1,
          ids: list[int] | None = None) -> list[Row]:
    """Lease up to `limit` of the oldest pending jobs of these types that are due (not_before
    passed) and have attempts left: status leased, attempts + 1, leased_at now. `ids` restricts
    the lease to those jobs (a run planned for a batch takes that batch, if still due)."""
    return rows(
        conn,
        "UPDATE memory_jobs SET status = 'leased', attempts = attempts + 1, leased_at = :now, updated_at = :now "
        "WHERE id IN (SELECT id FROM memory_jobs WHERE status = 'pending' AND attempts < max_attempts "
        "AND job_type IN (SELECT value FROM json_each(:types)) AND (not_before IS NULL OR not_before <= :now) "
        "AND (:ids IS NULL OR id IN (SELECT value FROM json_each(:ids))) "
        "ORDER BY id LIMIT :limit) RETURNING *",
        {"now": now, "types": json.dumps(job_types), "limit": limit,
         "ids": json.dumps(ids) if ids is not None else None},
    )


def renew(conn: apsw.Connection, job_id: int, *, leased_at: str, now: str) -> bool:
    """Extend a lease the caller still holds: its leased_at unchanged since it leased or last
    renewed (a reaped and re-leased job has a new one). False when the lease was lost."""
    conn.execute("UPDATE memory_jobs SET leased_at = ?, updated_at = ? WHERE id = ? AND status = 'leased' "
                 "AND leased_at = ?", (now, now, job_id, leased_at))
    return conn.changes() > 0


def complete(conn: apsw.Connection, job_id: int, *, now: str, result: dict[str, Any] | None = None) -> bool:
    """Mark a leased job completed. False if it was not leased (reaped meanwhile)."""
    conn.execute(
        "UPDATE memory_jobs SET status = 'completed', completed_at = ?, updated_at = ?, result = ?, error = NULL "
        "WHERE id = ? AND status = 'leased'",
        (now, now, json.dumps(result) if result is not None else None, job_id),
    )
    return conn.changes() > 0


def fail(conn: apsw.Connection, job_id: int, *, now: str, error: str, not_before: str) -> str | None:
    """Back to pending (due at `not_before`) or `dead` once attempts reached max_attempts.
    Returns the new status, or None if the job was not leased."""
    found = rows(
        conn,
        "UPDATE memory_jobs SET status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END, "
        "failed_at = :now, updated_at = :now, error = :error, leased_at = NULL, "
        "not_before = CASE WHEN attempts >= max_attempts THEN NULL ELSE :not_before END "
        "WHERE id = :id AND status = 'leased' RETURNING status",
        {"now": now, "error": error[:2000], "not_before": not_before, "id": job_id},
    )
    return found[0]["status"] if found else None


def reap_stale_leases(conn: apsw.Connection, *, leased_before: str, now: str, job_type: str | None = None) -> int:
    """Leases older than the lease timeout (a worker died mid-job) go back to pending — or to
    dead when that lease was their last attempt (a pending job without attempts left would
    never be leased again). `job_type` limits the sweep to one queue."""
    conn.execute(
        "UPDATE memory_jobs SET status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END, "
        "failed_at = CASE WHEN attempts >= max_attempts THEN :now ELSE failed_at END, "
        "error = 'lease expired (worker stopped mid-job)', leased_at = NULL, updated_at = :now "
        "WHERE status = 'leased' AND leased_at < :cutoff AND (:type IS NULL OR job_type = :type)",
        {"now": now, "cutoff": leased_before, "type": job_type},
    )
    return conn.changes()


def requeue_dead(conn: apsw.Connection, *, now: str, limit: int = 50) -> int:
    """Dead jobs back to pending with their attempts reset (repair action); a dead job whose
    target already has a live job of the same type stays dead (that one will do the work)."""
    conn.execute(
        "UPDATE memory_jobs SET status = 'pending', attempts = 0, not_before = NULL, failed_at = NULL, "
        "updated_at = ? WHERE id IN (SELECT d.id FROM memory_jobs d WHERE d.status = 'dead' AND NOT EXISTS ("
        "SELECT 1 FROM memory_jobs j WHERE j.job_type = d.job_type AND j.status IN ('pending', 'leased') "
        "AND (j.memory_id = d.memory_id OR j.document_id = d.document_id OR j.entity_id = d.entity_id)) "
        "ORDER BY d.id LIMIT ?)",
        (now, limit),
    )
    return conn.changes()


def due(conn: apsw.Connection, *, job_type: str, now: str, limit: int) -> list[Row]:
    """Pending jobs of a type that a lease would take now (oldest first)."""
    return rows(
        conn,
        "SELECT id, attempts, created_at FROM memory_jobs WHERE status = 'pending' AND job_type = ? "
        "AND attempts < max_attempts AND (not_before IS NULL OR not_before <= ?) ORDER BY id LIMIT ?",
        (job_type, now, limit),
    )


def queue_ready(conn: apsw.Connection) -> bool:
    """Whether the store has been migrated far enough to hold jobs (sensors never migrate)."""
    return scalar(conn, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'memory_jobs'") is not None


_FINISHED_AT = {"completed": "completed_at", "dead": "failed_at"}


def purge_finished(conn: apsw.Connection, status: str, finished_before: str, limit: int) -> int:
    """Delete the oldest `completed` (by completed_at) or `dead` (by failed_at) jobs before the cutoff."""
    column = _FINISHED_AT[status]
    return len(list(conn.execute(
        f"DELETE FROM memory_jobs WHERE id IN (SELECT id FROM memory_jobs WHERE status = ? AND {column} < ? "
        f"ORDER BY {column} LIMIT ?) RETURNING 1", (status, finished_before, limit))))


def queue_signals(conn: apsw.Connection, *, leased_before: str) -> Row:
    """Queue-wide counts for diagnostics: depth, finished, dead, stale leases, oldest pending."""
    return one(conn, """
        SELECT coalesce(sum(status IN ('pending', 'leased')), 0) AS depth,
               coalesce(sum(status IN ('completed', 'dead')), 0) AS finished,
               coalesce(sum(status = 'dead'), 0) AS dead,
               coalesce(sum(status = 'leased' AND leased_at < :cutoff), 0) AS stale_leases,
               min(CASE WHEN status = 'pending' THEN created_at END) AS oldest_pending
        FROM memory_jobs""", {"cutoff": leased_before}) or {}


def counts_by_type(conn: apsw.Connection) -> dict[str, dict[str, int]]:
    """job type -> status -> jobs."""
    out: dict[str, dict[str, int]] = {}
    for job_type, status, n in conn.execute("SELECT job_type, status, count(*) FROM memory_jobs GROUP BY 1, 2"):
        out.setdefault(job_type, {})[status] = n
    return out
