"""Embedding refresh (spec "Embedding Tracker"): re-embeds live memories whose vector is missing,
stale (the content changed) or of another model or dimension, and backfills chosen days.

Provider calls happen outside any transaction, each batch's writes in one short transaction; one
Dagster run covers many batches, bounded by MAX_ROWS and TIME_BUDGET_S since a launch costs
seconds (docs/decisions.md, "Embedding refresh"). Memories sharing a hash share one vector.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypedDict

import numpy as np

from signet_pipeline.analytics import ProviderCalls
from signet_pipeline.errors import ProviderError
from signet_pipeline.service import MemoryService
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Row
from signet_pipeline.timeutil import now_iso, to_iso

MAX_ROWS = 5_000
TIME_BUDGET_S = 120.0
# The scheduled refresh leaves memories changed within this long to the API's write-behind embedder:
# during an ingest, re-embedding them newest first cost the drain a run slot for work the writer was
# about to do anyway.
WRITE_BEHIND_GRACE_S = 60
BACKFILL_PAGE = 500  # memories read per keyset page of a backfill window
PREVIEW_ROWS = 20


@dataclass
class RefreshReport:
    model: str
    dimensions: int | None = None
    found: dict[str, int] = field(default_factory=dict)  # backlog by reason when the run started
    refreshed: int = 0  # memories that now carry a vector of the model
    vectors: int = 0  # hashes embedded (memories sharing a hash share a vector)
    failed: int = 0  # memories whose provider call failed
    orphans_removed: int = 0  # vectors under hashes no live memory carries any more
    remaining: int = 0  # memories still needing a vector when the run ended
    batches: int = 0
    skipped: str | None = None  # why nothing was attempted (provider down, embeddings disabled)
    stopped: str | None = None  # why the run ended early: rows cap, time budget, provider failure
    errors: list[str] = field(default_factory=list)
    embed_ms: float = 0.0
    write_ms: float = 0.0
    elapsed_s: float = 0.0
    preview: list[tuple[str, str, str]] = field(default_factory=list)  # (memory id, reason, content)

    @property
    def rows_per_s(self) -> float:
        return round(self.refreshed / self.elapsed_s, 1) if self.elapsed_s > 0 else 0.0

    def summary(self) -> dict[str, Any]:
        """JSON-ready counts (the repair action's result)."""
        out = {k: v for k, v in asdict(self).items() if k not in ("preview", "errors", "embed_ms", "write_ms")}
        return {**out, "errors": self.errors[:5], "rowsPerS": self.rows_per_s}


class _Window(TypedDict):
    """The store queries' keyword arguments selecting a backfill's memories."""

    model: str
    dimensions: int
    start: str
    end: str


def grace_cutoff() -> str:
    """The scheduled refresh's horizon: memories changed after it are the write-behind embedder's."""
    return to_iso(datetime.now(UTC) - timedelta(seconds=WRITE_BEHIND_GRACE_S))


def _ready(svc: MemoryService, report: RefreshReport) -> int | None:
    """Health check (cached 30 s by the provider), then make vec0 hold the configured model and
    dimension. Returns the dimension, or None when the cycle is skipped."""
    embedder = svc.embedder
    if not embedder.enabled:
        report.skipped = f"embeddings are disabled: {getattr(embedder, 'reason', embedder.name)}"
        return None
    status = embedder.status()
    if not status.available or not embedder.dimensions:
        report.skipped = f"embedding provider {embedder.name} unavailable: {status.error or 'no dimension'}"
        return None
    report.dimensions = embedder.dimensions
    with svc.db.write() as conn:
        emb_store.ensure_vec_table(conn, embedder.dimensions, embedder.model)
    return embedder.dimensions


def _write(svc: MemoryService, hashes: list[str], vectors: np.ndarray | list[np.ndarray],
           by_hash: dict[str, list[Row]]) -> tuple[int, int]:
    """One short transaction: (memories refreshed, orphan vectors removed). A hash no live memory
    carries any more (deleted or edited meanwhile) gets no vector."""
    model = svc.embedder.model
    now = now_iso()
    with svc.db.write() as conn:
        live = mem_store.live_hashes(conn, hashes)
        for content_hash, vector in zip(hashes, vectors):
            if content_hash in live:
                emb_store.upsert(conn, content_hash=content_hash, vector=vector, model=model,
                                 source_id=by_hash[content_hash][0]["id"], now=now)
        mem_store.mark_embedded(conn, sorted(live), model)
        orphans = emb_store.delete_unused_by_sources(conn, [r["id"] for h in hashes for r in by_hash[h]])
    return sum(len(by_hash[h]) for h in live), orphans


def _one_by_one(svc: MemoryService, chunk: list[str], by_hash: dict[str, list[Row]], report: RefreshReport,
                calls: ProviderCalls) -> tuple[list[str], list[np.ndarray], float]:
    """After a failed batch: each text alone, so one text the provider always rejects is counted
    as failed and skipped instead of stopping every run at the same place (spec: a failed fetch
    increments the failed counter without aborting the cycle)."""
    kept: list[str] = []
    vectors: list[np.ndarray] = []
    total_ms = 0.0
    for content_hash in chunk:
        try:
            vector, ms = calls.call(svc.embedder.embed, [by_hash[content_hash][0]["content"]])
        except ProviderError as exc:
            report.failed += len(by_hash[content_hash])
            report.errors.append(f"{by_hash[content_hash][0]['id']}: {exc.message[:200]}")
            continue
        kept.append(content_hash)
        vectors.append(vector[0])
        total_ms += ms
    return kept, vectors, total_ms


def _refresh(svc: MemoryService, candidates: list[Row], report: RefreshReport, calls: ProviderCalls, *,
             batch_size: int, deadline: float | None) -> bool:
    """Embed and write the candidates batch by batch. False when the run must stop (time budget,
    provider down)."""
    by_hash: dict[str, list[Row]] = {}
    for row in candidates:
        by_hash.setdefault(row["content_hash"], []).append(row)
    hashes = list(by_hash)
    for start in range(0, len(hashes), batch_size):
        if deadline is not None and time.monotonic() > deadline:
            report.stopped = "time budget"
            return False
        chunk = hashes[start:start + batch_size]
        vectors: np.ndarray | list[np.ndarray]  # the batch's array, or the texts that embedded alone
        try:
            vectors, embed_ms = calls.call(svc.embedder.embed, [by_hash[h][0]["content"] for h in chunk])
        except ProviderError as exc:
            report.errors.append(exc.message[:300])
            chunk, vectors, embed_ms = _one_by_one(svc, chunk, by_hash, report, calls)
            if not chunk:  # nothing in the batch embeds alone either: the provider is down
                report.stopped = "provider failure"
                return False
        started = time.perf_counter()
        refreshed, orphans = _write(svc, chunk, vectors, by_hash)
        report.write_ms += (time.perf_counter() - started) * 1000
        report.embed_ms += embed_ms
        report.batches += 1
        report.vectors += len(chunk)
        report.refreshed += refreshed
        report.orphans_removed += orphans
        for h in chunk:
            for row in by_hash[h][: max(0, PREVIEW_ROWS - len(report.preview))]:
                report.preview.append((row["id"], row["reason"], row["content"][:120]))
    return True


def _finish(svc: MemoryService, report: RefreshReport, calls: ProviderCalls, started: float) -> RefreshReport:
    calls.flush(svc.db, provider=svc.embedder.name, model=svc.embedder.model, event="provider.call")
    report.elapsed_s = round(time.monotonic() - started, 3)
    report.embed_ms = round(report.embed_ms, 1)
    report.write_ms = round(report.write_ms, 1)
    return report


def run_refresh(svc: MemoryService, *, batch_size: int | None = None, max_rows: int = MAX_ROWS,
                time_budget_s: float = TIME_BUDGET_S, updated_before: str | None = None) -> RefreshReport:
    """One tracker run: the newest-updated memories needing a vector, up to `max_rows` or
    `time_budget_s`, in provider calls of `batch_size` (default embeddingTracker.batchSize).
    `updated_before` leaves out younger memories, whose vectors may be on their way (write-behind)."""
    started = time.monotonic()
    report = RefreshReport(model=svc.embedder.model)
    calls = ProviderCalls()
    dims = _ready(svc, report)
    if dims is None:
        return _finish(svc, report, calls, started)
    conn = svc.db.reader()
    report.found = emb_store.refresh_backlog(conn, model=report.model, dimensions=dims)
    candidates = emb_store.stale_memories(conn, model=report.model, dimensions=dims, limit=max_rows,
                                          updated_before=updated_before)
    size = batch_size or svc.settings.pipeline.embedding_tracker.batch_size
    if _refresh(svc, candidates, report, calls, batch_size=size, deadline=started + time_budget_s) \
            and len(candidates) == max_rows:
        report.stopped = "rows cap"
    report.remaining = sum(emb_store.refresh_backlog(conn, model=report.model, dimensions=dims).values())
    return _finish(svc, report, calls, started)


def run_backfill(svc: MemoryService, start: str, end: str, *, force: bool = False,
                 batch_size: int | None = None) -> RefreshReport:
    """Re-embed the live memories created in [start, end): those needing a vector, or every one of
    them with `force` (e.g. after changing the embedder's settings under the same model name).
    Keyset pages in rid order, no row cap: the operator chose the window."""
    started = time.monotonic()
    report = RefreshReport(model=svc.embedder.model)
    calls = ProviderCalls()
    dims = _ready(svc, report)
    if dims is None:
        return _finish(svc, report, calls, started)
    conn = svc.db.reader()
    window = _Window(model=report.model, dimensions=dims, start=start, end=end)
    report.found = emb_store.refresh_backlog(conn, **window)
    size = batch_size or svc.settings.pipeline.embedding_tracker.batch_size
    after_rid = 0
    while page := emb_store.memories_created_between(conn, **window, after_rid=after_rid, limit=BACKFILL_PAGE,
                                                     include_current=force):
        after_rid = page[-1]["rid"]
        if not _refresh(svc, page, report, calls, batch_size=size, deadline=None):
            break
    report.remaining = sum(emb_store.refresh_backlog(conn, **window).values())
    return _finish(svc, report, calls, started)
