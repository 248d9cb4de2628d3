"""Liveness and status snapshots (wire-contract.md shapes), built from the store."""

from __future__ import annotations

import os
import resource
import time
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel

from signet_pipeline import __version__
from signet_pipeline.ops import pipeline_health
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import aspect_feedback
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.timeutil import parse_iso, to_iso

STALL_AFTER_S = 300  # an extract job pending this long means nothing is consuming the queue


def extraction(svc: MemoryService) -> dict[str, Any]:
    conn = svc.db.reader()
    counts = job_store.counts_by_status(conn, "extract")
    oldest = job_store.oldest_pending_created_at(conn, "extract")
    age_s = time.time() - parse_iso(oldest).timestamp() if oldest else 0.0
    return {
        "pending": counts.get("pending", 0), "leased": counts.get("leased", 0), "dead": counts.get("dead", 0),
        "completed": counts.get("completed", 0), "oldestPendingAgeS": round(age_s, 1),
        "stalled": age_s > STALL_AFTER_S,
    }


def _private(value: Any, disclose: bool) -> Any:
    """Process ids and file paths only for callers who proved who they are (or are trusted): an
    anonymous caller of a team server learns that it is up, not where it keeps its files."""
    return value if disclose else None


def health(svc: MemoryService, *, shutting_down: bool = False, disclose: bool = True) -> dict[str, Any]:
    db_ok = svc.db.ping()
    ext = extraction(svc) if db_ok else {"pending": 0, "leased": 0, "stalled": False}
    drain = pipeline_health.state(svc.db) if db_ok else None
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "status": "shutting_down" if shutting_down else "healthy",
        "uptime": round(time.time() - svc.started_at, 3),
        "pid": _private(os.getpid(), disclose),
        "version": __version__,
        "port": svc.settings.server.port,
        "agentsDir": _private(str(svc.settings.workspace), disclose),
        "db": db_ok,
        "shuttingDown": shutting_down,
        "pipeline": {
            "extractionRunning": ext["leased"] > 0,
            "extractionStalled": ext["stalled"],
            "extractionPending": ext["pending"],
            "extractionBackoffMs": 0,
            # The API answers whatever the pipeline does (remember and recall need no Dagster), so the
            # top-level status stays the reference's; these say whether anything drains the queue.
            "status": drain.status if drain else "unknown",
            "heartbeatAgeS": drain.heartbeatAgeS if drain else None,
            "message": drain.message if drain else "the store is unreachable",
        },
        "resources": {"maxRssMb": round(usage.ru_maxrss / 1024, 1)},
    }


def embedding_status(svc: MemoryService) -> dict[str, Any]:
    st = svc.embedder.status()
    out = {"provider": st.provider, "model": st.model, "available": st.available, "dimensions": st.dimensions,
           "base_url": st.base_url, "checkedAt": st.checked_at}
    if st.error:
        out["error"] = st.error
    index = svc.vector_index()
    if index is not None:
        index.sync()
    out["index"] = {"backend": svc.settings.search.vector_backend, "vectors": len(index) if index else 0}
    return out


class StatusView(BaseModel):
    """GET /api/status (wire-contract.md, and the reference SDK's StatusResponse)."""

    status: Literal["healthy", "shutting_down"]
    pid: int | None  # for a caller who proved who it is (_private)
    uptime: float
    startedAt: str
    version: str
    port: int
    host: str
    bindHost: str
    networkMode: Literal["local", "network"]
    agentsDir: str | None
    memoryDb: str | None  # the store's path (_private)
    pipelineV2: dict[str, Any]
    pipeline: dict[str, Any]
    providerResolution: dict[str, Any]
    embedding: dict[str, Any]
    memories: dict[str, Any]


def status(svc: MemoryService, *, disclose: bool = True, shutting_down: bool = False) -> StatusView:
    cfg = svc.settings
    pipe = cfg.pipeline
    ext = extraction(svc)
    emb = svc.embedder.status()
    conn = svc.db.reader()
    return StatusView(**{
        "status": "shutting_down" if shutting_down else "healthy",
        "pid": _private(os.getpid(), disclose),
        "uptime": round(time.time() - svc.started_at, 3),
        "startedAt": to_iso(datetime.fromtimestamp(svc.started_at, UTC)),
        "version": __version__,
        "port": cfg.server.port,
        "host": cfg.server.host,
        "bindHost": cfg.server.host,
        "networkMode": "local" if cfg.server.host in ("127.0.0.1", "localhost", "::1") else "network",
        "agentsDir": _private(str(cfg.workspace), disclose),
        "memoryDb": _private(str(cfg.db_path), disclose),
        "pipelineV2": {
            "enabled": pipe.enabled, "shadowMode": pipe.shadow_mode, "mutationsFrozen": pipe.mutations_frozen,
            "allowUpdateDelete": pipe.allow_update_delete, "graphEnabled": pipe.graph_on,
            "minFactConfidenceForWrite": pipe.min_fact_confidence_for_write,
        },
        "pipeline": {"extraction": {"running": ext["leased"] > 0, "overloaded": ext["stalled"], **ext},
                     "drain": pipeline_health.state(svc.db).model_dump(),
                     "feedback": aspect_feedback.telemetry(svc.db)},
        "providerResolution": {
            "extraction": {
                "configured": pipe.extraction.provider, "effective": pipe.extraction.provider,
                "status": "queued-only", "degraded": ext["stalled"],
                "reason": "extract jobs are queued in memory_jobs; the Dagster pipeline consumes them",
            }
        },
        "embedding": {"provider": emb.provider, "model": emb.model, "available": emb.available},
        "memories": {"live": mem_store.count_live(conn), "embeddings": emb_store.counts(conn, emb.model)},
    })


def embedding_health(svc: MemoryService) -> dict[str, Any]:
    """Coverage of live memories by the configured model's vectors, stale (other-model) vectors and
    the provider's status (spec GET /api/embeddings/health; also GET /api/repair/embedding-gaps)."""
    emb = svc.embedder.status()
    cov = emb_store.coverage(svc.db.reader(), svc.embedder.model)
    missing = cov["live"] - cov["embedded"]
    return {
        "model": svc.embedder.model, "live": cov["live"], "embedded": cov["embedded"], "missing": missing,
        "stale": cov["stale"], "coveragePct": round(100.0 * cov["embedded"] / cov["live"], 2) if cov["live"] else 100.0,
        "provider": {"name": emb.provider, "available": emb.available},
    }
