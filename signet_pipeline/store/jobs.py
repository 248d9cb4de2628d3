"""SQL for memory_jobs, the durable queue every background stage reads, queue_workers, the
workers draining it, and pipeline_heartbeats, the sensors that launch them.

pending -> leased -> completed, or -> pending again (with a not-before time) on failure, or
-> dead once attempts reach max_attempts. Every state change runs inside the caller's write
transaction (`Database.write()`), so two workers — threads or processes — never lease one job.
A lease is (id, lease_owner, attempts): completing or failing a job checks all three, so a worker
whose lease was released (it stopped beating, or its lease timed out) and re-leased elsewhere
cannot complete the job a second time.
"""

from __future__ import annotations

import json
from typing import Any

import apsw

from signet_pipeline.store.db import Row, one, rows, scalar


def live_for_payload(conn: apsw.Connection, job_type: str, key: str, value: str) -> bool:
    """Whether a pending or leased job of this type carries `value` under `key` in its payload."""
    return scalar(conn, "SELECT 1 FROM memory_jobs WHERE job_type = ? AND status IN ('pending', 'leased') "
                        "AND json_extract(payload, '$.' || ?) = ? LIMIT 1", (job_type, key, value)) is not None


def enqueue(conn: apsw.Connection, *, job_type: str, now: str, memory_id: str | None = None,
            document_id: str | None = None, entity_id: str | None = None, session_key: str | None = None,
            payload: dict[str, Any] | None = None, max_attempts: int = 3) -> tuple[int, bool]:
    """Insert a pending job unless one is already pending/leased for the same target and type.

    Returns (job id, created). The unique partial indexes make the dedup atomic.
    """
    job_id = scalar(
        conn,
        "INSERT INTO memory_jobs(memory_id, document_id, entity_id, session_key, job_type, status, payload, "
        "max_attempts, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING RETURNING id",
        (memory_id, document_id, entity_id, session_key, job_type,
         json.dumps(payload) if payload is not None else None, max_attempts, now, now),
    )
    if job_id is not None:
        return int(job_id), True
    existing = scalar(
        conn,
        "SELECT id FROM memory_jobs WHERE job_type = ? AND status IN ('pending', 'leased') AND "
        "((? IS NOT NULL AND memory_id = ?) OR (? IS NOT NULL AND document_id = ?) "
        "OR (? IS NOT NULL AND entity_id = ?) OR (? IS NOT NULL AND session_key = ?)) "
        "ORDER BY status = 'pending' DESC, id LIMIT 1",
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


def lease(conn: apsw.Connection, *, job_types: list[str], now: str, owner: str, limit: int = 1,
          ids: list[int] | None = None) -> list[Row]:
    """Lease up to `limit` of the oldest pending jobs of these types that are due (not_before
    passed) and have attempts left: status leased, attempts + 1, leased_at now, lease_owner
    `owner`. `ids` restricts the lease to those jobs."""
    return rows(
        conn,
        "UPDATE memory_jobs SET status = 'leased', attempts = attempts + 1, leased_at = :now, updated_at = :now, "
        "lease_owner = :owner "
        "WHERE id IN (SELECT id FROM memory_jobs WHERE status = 'pending' AND attempts < max_attempts "
        "AND job_type IN (SELECT value FROM json_each(:types)) AND (not_before IS NULL OR not_before <= :now) "
        "AND (:ids IS NULL OR id IN (SELECT value FROM json_each(:ids))) "
        "ORDER BY id LIMIT :limit) RETURNING *",
        {"now": now, "types": json.dumps(job_types), "limit": limit, "owner": owner,
         "ids": json.dumps(ids) if ids is not None else None},
    )


# The lease a worker holds: the job, still leased, by this owner, in this attempt.
_HELD = "id = :id AND status = 'leased' AND lease_owner IS :owner AND attempts = :attempts"


def _held(job: Row) -> dict[str, Any]:
    return {"id": job["id"], "owner": job["lease_owner"], "attempts": job["attempts"]}


def holds(conn: apsw.Connection, job: Row) -> bool:
    """Whether the lease `job` (a row as lease returned it) is still the job's current one."""
    return scalar(conn, f"SELECT 1 FROM memory_jobs WHERE {_HELD}", _held(job)) is not None


def renew(conn: apsw.Connection, job: Row, *, now: str) -> bool:
    """Extend a lease the caller still holds. False when the lease was lost."""
    conn.execute(f"UPDATE memory_jobs SET leased_at = :now, updated_at = :now WHERE {_HELD}", _held(job) | {"now": now})
    return conn.changes() > 0


def complete(conn: apsw.Connection, job: Row, *, now: str, result: dict[str, Any] | None = None) -> bool:
    """Mark a leased job completed. False if the caller's lease is gone (released or reaped)."""
    conn.execute(
        "UPDATE memory_jobs SET status = 'completed', completed_at = :now, updated_at = :now, result = :result, "
        f"error = NULL, lease_owner = NULL WHERE {_HELD}",
        _held(job) | {"now": now, "result": json.dumps(result) if result is not None else None},
    )
    return conn.changes() > 0


def fail(conn: apsw.Connection, job: Row, *, now: str, error: str, not_before: str) -> str | None:
    """Back to pending (due at `not_before`) or `dead` once attempts reached max_attempts.
    Returns the new status, or None if the caller's lease is gone."""
    found = rows(
        conn,
        "UPDATE memory_jobs SET status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END, "
        "failed_at = :now, updated_at = :now, error = :error, leased_at = NULL, lease_owner = NULL, "
        "not_before = CASE WHEN attempts >= max_attempts THEN NULL ELSE :not_before END "
        f"WHERE {_HELD} RETURNING status",
        _held(job) | {"now": now, "error": error[:2000], "not_before": not_before},
    )
    return found[0]["status"] if found else None


_RELEASE = ("status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END, "
            "failed_at = CASE WHEN attempts >= max_attempts THEN :now ELSE failed_at END, "
            "error = :error, leased_at = NULL, lease_owner = NULL, updated_at = :now")


def release_owner(conn: apsw.Connection, owner: str, *, now: str, error: str, refund: bool = False) -> int:
    """Every lease `owner` still holds goes back to pending (or dead when that was the job's last
    attempt): the worker stopped, or stopped beating. `refund`: the stop was asked for (an operator
    canceled the run), so the interrupted attempt does not count. Returns the jobs released."""
    if refund:
        conn.execute("UPDATE memory_jobs SET status = 'pending', attempts = max(attempts - 1, 0), error = :error, "
                     "leased_at = NULL, lease_owner = NULL, updated_at = :now "
                     "WHERE status = 'leased' AND lease_owner = :owner", {"now": now, "owner": owner, "error": error})
    else:
        conn.execute(f"UPDATE memory_jobs SET {_RELEASE} WHERE status = 'leased' AND lease_owner = :owner",
                     {"now": now, "owner": owner, "error": error})
    return conn.changes()


def reap_stale_leases(conn: apsw.Connection, *, leased_before: str, now: str, job_type: str | None = None) -> int:
    """Leases older than the lease timeout (a worker died mid-job) go back to pending — or to
    dead when that lease was their last attempt (a pending job without attempts left would
    never be leased again). `job_type` limits the sweep to one queue."""
    conn.execute(
        f"UPDATE memory_jobs SET {_RELEASE} "
        "WHERE status = 'leased' AND leased_at < :cutoff AND (:type IS NULL OR job_type = :type)",
        {"now": now, "cutoff": leased_before, "type": job_type, "error": "lease expired (worker stopped mid-job)"},
    )
    return conn.changes()


def has_stale_leases(conn: apsw.Connection, *, leased_before: str, job_type: str | None = None) -> bool:
    """Whether any lease is older than the cutoff (a read: the sensors' common case is none)."""
    return scalar(conn, "SELECT 1 FROM memory_jobs WHERE status = 'leased' AND leased_at < ? "
                        "AND (? IS NULL OR job_type = ?) LIMIT 1", (leased_before, job_type, job_type)) is not None


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


def recent_completions(conn: apsw.Connection, since: str, per_type: int) -> list[Row]:
    """The latest `per_type` jobs of each type completed at or after `since`, oldest first per
    type: when each could start (created, or due again after a failure), was leased and completed
    (the drain rate is measured on them)."""
    return rows(conn, """
        SELECT job_type, max(created_at, coalesce(not_before, '')) AS ready,
               coalesce(leased_at, completed_at) AS leased, completed_at
        FROM (SELECT job_type, created_at, not_before, leased_at, completed_at,
                     row_number() OVER (PARTITION BY job_type ORDER BY completed_at DESC) AS latest
              FROM memory_jobs WHERE status = 'completed' AND completed_at >= ?)
        WHERE latest <= ? ORDER BY job_type, completed_at""", (since, per_type))


def due_by_type(conn: apsw.Connection, now: str, job_types: list[str] | None = None) -> dict[str, int]:
    """job type -> pending jobs a lease would take now (not waiting out a backoff); of `job_types`
    only when given (a sensor counts its own queue, not another's backlog)."""
    return {r[0]: r[1] for r in conn.execute(
        "SELECT job_type, count(*) FROM memory_jobs WHERE status = 'pending' AND attempts < max_attempts "
        "AND (not_before IS NULL OR not_before <= ?) "
        "AND (? IS NULL OR job_type IN (SELECT value FROM json_each(?))) GROUP BY 1",
        (now, *(2 * [json.dumps(job_types) if job_types is not None else None])))}


# queue_workers: one row per live drain worker, beating while it runs.

def register_worker(conn: apsw.Connection, *, owner: str, job_type: str, pid: int, host: str, now: str) -> None:
    conn.execute("INSERT OR REPLACE INTO queue_workers(owner, job_type, pid, host, started_at, beat_at) "
                 "VALUES (?, ?, ?, ?, ?, ?)", (owner, job_type, pid, host, now, now))


def beat(conn: apsw.Connection, *, owner: str, now: str, jobs_done: int, batches: int) -> bool:
    """The worker's heartbeat: its row and every lease it holds are stamped `now`. False when the
    row is gone (another process declared this worker dead and released its leases)."""
    conn.execute("UPDATE queue_workers SET beat_at = ?, jobs_done = ?, batches = ? WHERE owner = ?",
                 (now, jobs_done, batches, owner))
    alive = conn.changes() > 0
    if alive:
        conn.execute("UPDATE memory_jobs SET leased_at = ?, updated_at = ? WHERE status = 'leased' AND lease_owner = ?",
                     (now, now, owner))
    return alive


def remove_worker(conn: apsw.Connection, owner: str) -> None:
    conn.execute("DELETE FROM queue_workers WHERE owner = ?", (owner,))


def workers(conn: apsw.Connection) -> list[Row]:
    return rows(conn, "SELECT * FROM queue_workers ORDER BY started_at")


def worker(conn: apsw.Connection, owner: str) -> Row | None:
    return one(conn, "SELECT * FROM queue_workers WHERE owner = ?", (owner,))


def lease_owners(conn: apsw.Connection, job_type: str) -> list[str]:
    """Owners holding leases of this type (to find leases whose worker is gone)."""
    return [r[0] for r in conn.execute("SELECT DISTINCT lease_owner FROM memory_jobs WHERE status = 'leased' "
                                       "AND job_type = ? AND lease_owner IS NOT NULL", (job_type,))]


def record_heartbeat(conn: apsw.Connection, *, component: str, pid: int, host: str, now: str) -> None:
    conn.execute("INSERT INTO pipeline_heartbeats(component, pid, host, beat_at) VALUES (?, ?, ?, ?) "
                 "ON CONFLICT(component) DO UPDATE SET pid = excluded.pid, host = excluded.host, "
                 "beat_at = excluded.beat_at", (component, pid, host, now))


def heartbeats(conn: apsw.Connection) -> list[Row]:
    """Every component's last beat, newest first (none before the pipeline first ran)."""
    return rows(conn, "SELECT * FROM pipeline_heartbeats ORDER BY beat_at DESC")
