"""Health diagnostics over six domains (spec architecture "Diagnostics and Repair"). Read-only:
each domain reads its signals, scores itself in [0, 1] and lists what is wrong; the composite is
the weighted sum. Status: >= 0.8 healthy, >= 0.5 degraded, else unhealthy.

The API serves the report (`/api/diagnostics`), and the Dagster asset checks evaluate the same
domain functions, so the UI and the service never disagree.

Scoring (the spec gives the signals and thresholds, not the arithmetic): a domain starts at 1.0
and each tripped signal subtracts its penalty (floored at 0); the provider domain is the
success rate of the provider's recent calls.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from signet_pipeline import analytics
from signet_pipeline.config import Settings
from signet_pipeline.errors import NotFound
from signet_pipeline.store import analytics as analytics_store
from signet_pipeline.store import documents as doc_store
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import history as history_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Database
from signet_pipeline.timeutil import parse_iso, to_iso

Status = Literal["healthy", "degraded", "unhealthy"]
WEIGHTS = {"queue": 0.28, "storage": 0.14, "index": 0.19, "provider": 0.24, "mutation": 0.10, "connector": 0.05}

QUEUE_DEPTH_MAX = 50
DEAD_RATE_MAX = 0.01
PENDING_AGE_MAX_S = 300
TOMBSTONE_RATIO_MAX = 0.30
FTS_MISMATCH_MAX = 0.10
EMBEDDING_COVERAGE_MIN = 0.80
RECOVERIES_MAX = 5
RECOVERY_WINDOW_DAYS = 7
CONNECTOR_ERROR_AGE_MAX_S = 86_400


def status_of(score: float) -> Status:
    if score >= 0.8:
        return "healthy"
    return "degraded" if score >= 0.5 else "unhealthy"


class DomainHealth(BaseModel):
    domain: str
    score: float
    status: Status
    weight: float
    signals: dict[str, Any]
    issues: list[str] = Field(default_factory=list)


class DiagnosticsReport(BaseModel):
    score: float
    status: Status
    generatedAt: str
    domains: dict[str, DomainHealth]


class _Scorer:
    def __init__(self, domain: str) -> None:
        self.domain, self.score = domain, 1.0
        self.issues: list[str] = []

    def trip(self, when: bool, penalty: float, issue: str) -> None:
        if when:
            self.score -= penalty
            self.issues.append(issue)

    def result(self, signals: dict[str, Any], score: float | None = None) -> DomainHealth:
        value = round(max(0.0, min(1.0, self.score if score is None else score)), 3)
        return DomainHealth(domain=self.domain, score=value, status=status_of(value), weight=WEIGHTS[self.domain],
                            signals=signals, issues=self.issues)


def queue(db: Database, settings: Settings, now: datetime) -> DomainHealth:
    lease_timeout = timedelta(milliseconds=settings.pipeline.worker.lease_timeout_ms)
    s = job_store.queue_signals(db.reader(), leased_before=to_iso(now - lease_timeout))
    dead_rate = s["dead"] / s["finished"] if s["finished"] else 0.0
    age_s = (now - parse_iso(s["oldest_pending"])).total_seconds() if s["oldest_pending"] else 0.0
    sc = _Scorer("queue")
    sc.trip(s["depth"] > QUEUE_DEPTH_MAX, 0.2, f"{s['depth']} jobs waiting (> {QUEUE_DEPTH_MAX})")
    sc.trip(dead_rate > DEAD_RATE_MAX, 0.3,
            f"dead-job rate {dead_rate:.1%} (> {DEAD_RATE_MAX:.0%}): requeue once fixed")
    sc.trip(age_s > PENDING_AGE_MAX_S, 0.3, f"oldest pending job waited {age_s:.0f} s (> {PENDING_AGE_MAX_S} s)")
    sc.trip(s["stale_leases"] > 0, 0.2, f"{s['stale_leases']} lease(s) older than the lease timeout")
    return sc.result({"depth": s["depth"], "deadJobs": s["dead"], "deadRate": round(dead_rate, 4),
                      "oldestPendingAgeS": round(age_s, 1), "staleLeases": s["stale_leases"]})


def storage(db: Database, settings: Settings, now: datetime) -> DomainHealth:
    c = mem_store.storage_counts(db.reader())
    ratio = c["tombstones"] / c["total"] if c["total"] else 0.0
    sc = _Scorer("storage")  # past the threshold the score is 1 - tombstone ratio
    sc.trip(ratio > TOMBSTONE_RATIO_MAX, ratio, f"tombstones are {ratio:.0%} of memories "
            f"(> {TOMBSTONE_RATIO_MAX:.0%}): run a retention sweep")
    size_mb = sum(p.stat().st_size for p in db.path.parent.glob(db.path.name + "*")) / 1e6
    return sc.result({"memories": c["total"], "tombstones": c["tombstones"], "tombstoneRatio": round(ratio, 4),
                      "dbSizeMb": round(size_mb, 1)})


def index(db: Database, settings: Settings, now: datetime) -> DomainHealth:
    conn = db.reader()
    c = mem_store.storage_counts(conn)
    mismatch = abs(c["fts_rows"] - c["total"]) / c["total"] if c["total"] else 0.0
    model = settings.embedding.model if settings.embedding.provider != "none" else None
    cov = emb_store.coverage(conn, model) if model else {"live": 0, "embedded": 0}
    coverage = cov["embedded"] / cov["live"] if cov["live"] else 1.0
    sc = _Scorer("index")
    sc.trip(mismatch > FTS_MISMATCH_MAX, 0.5, f"FTS index holds {c['fts_rows']} rows for {c['total']} memories "
            f"({mismatch:.0%} apart): rebuild it")
    sc.trip(model is not None and coverage < EMBEDDING_COVERAGE_MIN, 0.5,
            f"only {coverage:.0%} of live memories have a {model} vector (< {EMBEDDING_COVERAGE_MIN:.0%}): re-embed")
    return sc.result({"ftsRows": c["fts_rows"], "memories": c["total"], "ftsMismatch": round(mismatch, 4),
                      "embeddingModel": model, "embedded": cov["embedded"], "live": cov["live"],
                      "embeddingCoverage": round(coverage, 4)})


def provider(db: Database, settings: Settings, now: datetime) -> DomainHealth:
    rows = analytics_store.provider_summary(db.reader())
    sc = _Scorer("provider")
    rates = []
    for r in rows:
        rate = r["successes"] / r["calls"]
        rates.append(rate)
        if rate < 1.0:  # the score is the worst success rate; each degraded provider is named
            sc.issues.append(f"{r['provider']} ({r['model']}): {r['failures']} failure(s), {r['timeouts']} "
                             f"timeout(s) in its last {r['calls']} calls; last error: {r['last_error']}")
    return sc.result({"providers": {r["provider"]: {**r, "availability": round(r["successes"] / r["calls"], 4)}
                                    for r in rows},
                      "configured": settings.pipeline.extraction.provider},
                     score=min(rates, default=1.0))


def mutation(db: Database, settings: Settings, now: datetime) -> DomainHealth:
    since = to_iso(now - timedelta(days=RECOVERY_WINDOW_DAYS))
    recoveries = history_store.count_events_since(db.reader(), "recovered", since)
    sc = _Scorer("mutation")
    sc.trip(recoveries > RECOVERIES_MAX, 0.5, f"{recoveries} memories recovered in {RECOVERY_WINDOW_DAYS} days "
            f"(> {RECOVERIES_MAX}): something deletes what agents still need")
    return sc.result({"recoveries7d": recoveries, "mutationsFrozen": settings.pipeline.mutations_frozen})


def connector(db: Database, settings: Settings, now: datetime) -> DomainHealth:
    c = doc_store.connector_health(db.reader())
    oldest = parse_iso(c["oldest_error_at"]) if c.get("oldest_error_at") else None
    age_s = round((now - oldest).total_seconds()) if oldest else None
    sc = _Scorer("connector")
    errors = c.get("errors", 0)
    # Each failing connector costs its share of the domain; one failing for over a day costs more.
    sc.trip(errors > 0, 0.5 * errors / max(c.get("total", 1), 1), f"{errors} of {c.get('total')} connector(s) "
            "failed their last sync: see GET /api/connectors/{id}/health and sync again")
    sc.trip(age_s is not None and age_s > CONNECTOR_ERROR_AGE_MAX_S, 0.3,
            f"a connector has been failing for {age_s} s (> {CONNECTOR_ERROR_AGE_MAX_S} s)")
    return sc.result({"connectors": c.get("total", 0), "errors": errors, "oldestErrorAgeS": age_s})


DOMAINS: dict[str, Callable[[Database, Settings, datetime], DomainHealth]] = {
    "queue": queue, "storage": storage, "index": index, "provider": provider, "mutation": mutation,
    "connector": connector,
}


def domain_health(db: Database, settings: Settings, name: str, now: datetime | None = None) -> DomainHealth:
    if name not in DOMAINS:
        raise NotFound(f"unknown diagnostics domain {name!r}; one of {', '.join(DOMAINS)}", code="unknown_domain")
    return DOMAINS[name](db, settings, now or datetime.now(UTC))


def report(db: Database, settings: Settings, now: datetime | None = None) -> DiagnosticsReport:
    now = now or datetime.now(UTC)
    domains = {name: fn(db, settings, now) for name, fn in DOMAINS.items()}
    score = round(sum(d.score * d.weight for d in domains.values()), 3)
    return DiagnosticsReport(score=score, status=status_of(score), generatedAt=to_iso(now), domains=domains)


def memory_safety(db: Database, settings: Settings) -> dict[str, Any]:
    """/api/analytics/memory-safety: the mutation domain, the latest mutation-stage errors and their count by code."""
    recent = analytics.recent_errors(db, limit=50, stage="mutation").errors
    by_code = dict(Counter(event.code for event in recent))
    return {"mutation": domain_health(db, settings, "mutation").model_dump(),
            "recentErrors": [e.model_dump() for e in recent], "errorSummary": {"total": len(recent), "byCode": by_code}}
