"""SQL for memory_jobs, the durable queue every background stage reads."""

from __future__ import annotations

import json
from typing import Any

import apsw

from signet_pipeline.store.db import Row, one, scalar


def enqueue(conn: apsw.Connection, *, job_type: str, now: str, memory_id: str | None = None,
            document_id: str | None = None, payload: dict[str, Any] | None = None, max_attempts: int = 3) -> tuple[int, bool]:
    """Insert a pending job unless one is already pending/leased for the same target and type.

    Returns (job id, created). The unique partial indexes make the dedup atomic.
    """
    job_id = scalar(
        conn,
        "INSERT INTO memory_jobs(memory_id, document_id, job_type, status, payload, max_attempts, created_at, updated_at) "
        "VALUES (?, ?, ?, 'pending', ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
        (memory_id, document_id, job_type, json.dumps(payload) if payload is not None else None, max_attempts, now, now),
    )
    if job_id is not None:
        return int(job_id), True
    existing = scalar(
        conn,
        "SELECT id FROM memory_jobs WHERE job_type = ? AND status IN ('pending', 'leased') AND "
        "((? IS NOT NULL AND memory_id = ?) OR (? IS NOT NULL AND document_id = ?)) ORDER BY id LIMIT 1",
        (job_type, memory_id, memory_id, document_id, document_id),
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
