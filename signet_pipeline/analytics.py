"""Analytics (spec architecture "Analytics"): usage counters, the stage error ring and latency
histograms, split by where each fact is known.

- Requests are seen by the API process only: `Analytics` counts them per endpoint and per actor
  and keeps latency rings (1,000 samples) for remember, recall and mutate, in memory (reset on
  restart, like the reference).
- Provider calls happen in Dagster runs: stages call providers through `ProviderCalls`, which
  times and classifies each call (success, failure, timeout) and writes the batch once, after
  the provider work, into the store's per-provider ring; their stats come from there.
- Job latency comes from memory_jobs (lease -> completion of the newest 1,000 completed jobs).
- Errors happen in both: one ring of the newest 500 lives in the store (`record_errors`).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, Literal, TypeVar, get_args

from pydantic import BaseModel

from signet_pipeline.errors import ProviderError
from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store import documents as doc_store
from signet_pipeline.store.db import Database
from signet_pipeline.telemetry import sink as telemetry
from signet_pipeline.telemetry.events import LlmCall, PipelineError
from signet_pipeline.telemetry.events import code as _code
from signet_pipeline.timeutil import now_iso

log = logging.getLogger("signet.analytics")

ERROR_RING_SIZE = 500
LATENCY_SAMPLES = 1000
MAX_MESSAGE_CHARS = 500
PROVIDER_WINDOW = 100  # provider outcomes the store keeps per provider (spec: ring buffer of 100)
MAX_ACTORS = 1000  # actor names come from a request header: past this many, new ones share one entry
OTHER_ACTORS = "(other actors)"

ErrorCode = Literal[
    "EXTRACTION_TIMEOUT", "EXTRACTION_PARSE_FAIL", "DECISION_TIMEOUT", "DECISION_INVALID",
    "EMBEDDING_PROVIDER_DOWN", "EMBEDDING_TIMEOUT", "MUTATION_CONFLICT", "MUTATION_SCOPE_DENIED",
    "CONNECTOR_SYNC_FAIL", "CONNECTOR_AUTH_FAIL"]
Stage = Literal["extraction", "decision", "embedding", "mutation", "connector"]
STAGE_OF: dict[str, str] = {code: code.split("_", 1)[0].lower() for code in get_args(ErrorCode)}
Category = Literal["remember", "recall", "mutate", "other"]
TIMEOUT = "provider_timeout"  # ProviderError.code of a timed-out provider call


class ErrorEvent(BaseModel):
    timestamp: str
    stage: Stage
    code: ErrorCode
    message: str
    memoryId: str | None = None
    actor: str | None = None


class ErrorsReport(BaseModel):
    errors: list[ErrorEvent]  # newest first
    capacity: int = ERROR_RING_SIZE
    summary: dict[str, int]  # entries in the ring per code, filters aside


def error_event(code: ErrorCode, message: str, *, memory_id: str | None = None,
                actor: str | None = None) -> ErrorEvent:
    """An error stamped now (when it happened, not when its batch is written)."""
    return ErrorEvent(timestamp=now_iso(), stage=STAGE_OF[code], code=code, message=message[:MAX_MESSAGE_CHARS],
                      memoryId=memory_id, actor=actor)


def timeout_event(exc: ProviderError, code: ErrorCode, *, memory_id: str | None = None) -> ErrorEvent | None:
    """`code` for a provider call that timed out. Other provider failures have no code in the
    spec's taxonomy: they count in the provider stats (and the diagnostics' provider domain)."""
    return error_event(code, exc.message, memory_id=memory_id) if exc.code == TIMEOUT else None


def embedding_failure(exc: ProviderError, texts: int) -> ErrorEvent:
    """`texts` texts could not be embedded (remember stores them keyword-only)."""
    code: ErrorCode = "EMBEDDING_TIMEOUT" if exc.code == TIMEOUT else "EMBEDDING_PROVIDER_DOWN"
    return error_event(code, f"{texts} text(s) stored without a vector: {exc.message}")


def record_errors(db: Database, events: list[ErrorEvent]) -> None:
    """Append to the store's ring in one short transaction of its own (never inside a stage's
    write, so a failure here cannot roll back the stage's work; never around a provider call).
    Bookkeeping only: a failure is logged, never raised into the remember or batch it describes."""
    if not events:
        return
    for e in events if telemetry.active() else ():
        telemetry.record(PipelineError(stage=e.stage, code=e.code))
    try:
        with db.write() as conn:
            analytics_store.record_errors(
                conn, [(e.timestamp, e.stage, e.code, e.message, e.memoryId, e.actor) for e in events],
                keep=ERROR_RING_SIZE)
    except Exception:
        log.exception("could not record %d event(s) in the analytics error ring", len(events))


def recent_errors(db: Database, *, limit: int = 50, stage: Stage | None = None, code: ErrorCode | None = None,
                  since: str | None = None) -> ErrorsReport:
    with db.read() as conn:
        found = analytics_store.recent_errors(conn, limit=limit, stage=stage, code=code, since=since)
        summary = analytics_store.error_counts(conn)
    return ErrorsReport(summary=summary, errors=[
        ErrorEvent(timestamp=r["created_at"], stage=r["stage"], code=r["code"], message=r["message"],
                   memoryId=r["memory_id"], actor=r["actor"]) for r in found])


# -- latency -------------------------------------------------------------------------------------


class LatencySnapshot(BaseModel):
    p50: float = 0.0
    p95: float = 0.0
    p99: float = 0.0
    count: int = 0
    mean: float = 0.0


def snapshot(samples: Iterable[float]) -> LatencySnapshot:
    """Nearest-rank percentiles (the sample at rank ceil(p·n)), zeros when empty."""
    ordered = sorted(samples)
    n = len(ordered)
    if not n:
        return LatencySnapshot()

    def rank(p: float) -> float:
        return round(ordered[max(0, math.ceil(p * n) - 1)], 3)

    return LatencySnapshot(p50=rank(0.50), p95=rank(0.95), p99=rank(0.99), count=n, mean=round(sum(ordered) / n, 3))


class LatencyReport(BaseModel):
    remember: LatencySnapshot
    recall: LatencySnapshot
    mutate: LatencySnapshot
    jobs: LatencySnapshot  # lease -> completion of recent completed jobs (all processes)
    samples: int = LATENCY_SAMPLES


# -- usage ---------------------------------------------------------------------------------------


class EndpointStats(BaseModel):
    count: int
    errors: int  # responses with status >= 400
    totalLatencyMs: float
    meanLatencyMs: float


class ActorStats(BaseModel):
    requests: int
    remembers: int
    recalls: int
    mutations: int
    other: int


class ProviderStats(BaseModel):
    model: str
    calls: int
    failures: int  # failed or timed out
    timeouts: int
    totalLatencyMs: float
    meanLatencyMs: float
    lastCallAt: str | None
    lastError: str | None


class UsageReport(BaseModel):
    since: str  # API process start: endpoint and actor counters are in-memory
    endpoints: dict[str, EndpointStats]
    actors: dict[str, ActorStats]
    providers: dict[str, ProviderStats]
    providerWindow: int = PROVIDER_WINDOW  # provider stats cover each provider's latest calls
    connectors: dict[str, dict[str, int]]  # per connector: documents, ingested, failing (0/1)


_MUTATION_WORDS = ("/modify", "/forget", "/recover")


def classify(method: str, path: str) -> Category:
    """The reference's path rule (remember/save, recall/search/similar, modify/forget/recover), plus
    PATCH and DELETE on a memory, which the API table lists as modify and forget."""
    if "/remember" in path or "/save" in path:
        return "remember"
    if "/recall" in path or "/search" in path or "/similar" in path:
        return "recall"
    if any(w in path for w in _MUTATION_WORDS) or (method in ("PATCH", "DELETE") and path.startswith("/api/memory/")):
        return "mutate"
    return "other"


_ACTOR_FIELD = {"remember": 1, "recall": 2, "mutate": 3, "other": 4}
_TIMED = ("remember", "recall", "mutate")


class Analytics:
    """The API process's counters. `record_request` is on every request's path: a lock, a few
    list increments and a deque append; sorting waits for a snapshot."""

    def __init__(self) -> None:
        self.started_at = now_iso()
        self._lock = threading.Lock()
        self._endpoints: dict[str, list[float]] = {}  # key -> [count, errors, total ms]
        self._actors: dict[str, list[int]] = {}  # actor -> [requests, remembers, recalls, mutations, other]
        self._latency: dict[str, deque[float]] = {op: deque(maxlen=LATENCY_SAMPLES) for op in _TIMED}

    def record_request(self, endpoint: str, category: Category, actor: str, status: int, ms: float) -> None:
        with self._lock:
            stats = self._endpoints.get(endpoint)
            if stats is None:
                stats = self._endpoints[endpoint] = [0, 0, 0.0]
            stats[0] += 1
            stats[2] += ms
            if status >= 400:
                stats[1] += 1
            counts = self._actors.get(actor)
            if counts is None:
                if len(self._actors) >= MAX_ACTORS:
                    actor = OTHER_ACTORS
                counts = self._actors.setdefault(actor, [0, 0, 0, 0, 0])
            counts[0] += 1
            counts[_ACTOR_FIELD[category]] += 1
            if status < 400 and category != "other":  # a rejected call's latency says nothing of the operation
                self._latency[category].append(ms)

    def usage(self, db: Database) -> UsageReport:
        with self._lock:
            endpoints = {k: EndpointStats(count=int(c), errors=int(e), totalLatencyMs=round(t, 3),
                                          meanLatencyMs=round(t / c, 3)) for k, (c, e, t) in self._endpoints.items()}
            actors = {k: ActorStats(requests=v[0], remembers=v[1], recalls=v[2], mutations=v[3], other=v[4])
                      for k, v in self._actors.items()}
        return UsageReport(since=self.started_at, endpoints=endpoints, actors=actors,
                           providers=provider_usage(db),
                           connectors={r["id"]: {"documents": r["documents"], "ingested": r["ingested"],
                                                 "failing": r["failing"]}
                                       for r in doc_store.connector_usage(db.reader())})

    def latency(self, db: Database) -> LatencyReport:
        with self._lock:
            api = {op: list(ring) for op, ring in self._latency.items()}
        jobs = analytics_store.job_durations_ms(db.reader(), LATENCY_SAMPLES)
        return LatencyReport(jobs=snapshot(jobs), **{op: snapshot(samples) for op, samples in api.items()})


def provider_usage(db: Database) -> dict[str, ProviderStats]:
    """Per provider, over its latest calls kept in the store (written by every process)."""
    out = {}
    for r in analytics_store.provider_summary(db.reader()):
        mean = r["mean_latency_ms"] or 0.0
        out[r["provider"]] = ProviderStats(
            model=r["model"], calls=r["calls"], failures=r["failures"] + r["timeouts"], timeouts=r["timeouts"],
            totalLatencyMs=round(mean * r["calls"], 1), meanLatencyMs=mean, lastCallAt=r["last_call_at"],
            lastError=r["last_error"])
    return out


T = TypeVar("T")


class ProviderCalls:
    """Outcomes of a batch's provider calls, for the diagnostics' provider domain."""

    def __init__(self) -> None:
        self.outcomes: list[tuple[str, float, str | None]] = []
        self._lock = threading.Lock()  # stages run jobs on a thread pool

    def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
        """fn(*args, **kwargs) and its latency in ms; a ProviderError is recorded, then re-raised."""
        started = time.perf_counter()
        try:
            result = fn(*args, **kwargs)
        except ProviderError as exc:
            self._add("timeout" if exc.code == "provider_timeout" else "failure", started, exc.message[:500])
            raise
        return result, self._add("success", started, None)

    def _add(self, outcome: str, started: float, error: str | None) -> float:
        ms = (time.perf_counter() - started) * 1000
        with self._lock:
            self.outcomes.append((outcome, ms, error))
        return ms

    def flush(self, db: Database, *, provider: str, model: str, event: str = "llm.generate") -> None:
        """Write the recorded outcomes (own short transaction, after every provider call); each
        is also a telemetry event (`llm.generate`, or `provider.call` for fetches and embeddings)."""
        with self._lock:
            outcomes, self.outcomes = self.outcomes, []
        for outcome, ms, _ in outcomes if telemetry.active() else ():
            telemetry.record(LlmCall(event=event, provider=_code(provider), model=_code(model),
                                     ok=outcome == "success", timeout=outcome == "timeout", durationMs=round(ms, 2)))
        if outcomes:
            with db.write() as conn:
                analytics_store.record_outcomes(conn, provider=provider, model=model, outcomes=outcomes, now=now_iso(),
                                      keep=PROVIDER_WINDOW)
