"""Extraction jobs end to end, as three plain steps the Dagster assets wrap one each:

1. `lease_batch` / `batch_for_memories` + `extract_batch`: lease up to N `extract` jobs (or take
   memories directly, for re-extraction backfills) and run the extraction stage on each;
2. `decide_batch`: embed every fact in one provider call, find every fact's top-5 hybrid
   candidates in one search, then the decision stage (ADD/UPDATE/DELETE/NONE) and the
   contradiction checks per fact;
3. `write_batch`: controlled writes, each source memory's in a savepoint with its job's
   completion (WRITE_CHUNK memories per short transaction); failed jobs retry with backoff,
   `dead` at max attempts -> extraction_status failed.

No step holds a write transaction while a provider runs. Jobs inside a step run on a small thread
pool (`extraction.concurrency`): HTTP LLM calls overlap; SQLite writes still serialize on the writer.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import apsw
import numpy as np

from signet_pipeline import analytics
from signet_pipeline.analytics import ProviderCalls
from signet_pipeline.errors import ProviderError
from signet_pipeline.graph.persist import GraphReport, persist_triples
from signet_pipeline.providers.llm import Llm
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.drain.jobs import in_flight
from signet_pipeline.stages.extraction import contradiction
from signet_pipeline.stages.extraction.candidates import Lookup, find_candidates
from signet_pipeline.stages.extraction.decision import decide_facts
from signet_pipeline.stages.extraction.facts import ExtractionResult, extract
from signet_pipeline.stages.extraction.writes import Proposal, WriteReport, apply_proposals
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.db import Commit, Row
from signet_pipeline.store.queue import EXTRACT, Completion, JobQueue, LeaseLost
from signet_pipeline.text.content import normalize_content
from signet_pipeline.timeutil import now_iso, parse_iso
from signet_pipeline.write.remember import embed_missing

MAX_WARNINGS_KEPT = 50
# Source memories whose writes share one transaction (each in its own savepoint): fewer commits (each
# flushes FTS5's pending terms into a new segment and rewrites the hot pages into the WAL), while the
# writer lock is held for a few memories, not a whole batch's worth, so the API's remembers barely wait.
WRITE_CHUNK = 10


@dataclass
class WorkItem:
    memory_id: str
    job: Row | None = None  # None for re-extraction backfills (no queue involved)
    source: Row | None = None
    extraction: ExtractionResult | None = None
    proposals: list[Proposal] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    llm_ms: list[float] = field(default_factory=list)
    error: str | None = None  # provider failure: the job is failed and retried
    skipped: str | None = None  # nothing to do (source deleted): the job completes
    report: WriteReport | None = None
    graph: GraphReport | None = None
    outcome: str | None = None  # completed | retry | dead | skipped | lost (another worker holds the job)

    @property
    def source_memory(self) -> Row:
        """The source memory of an active item (an item whose source is gone is skipped)."""
        if self.source is None:
            raise RuntimeError(f"work item {self.memory_id} has no source memory")
        return self.source

    @property
    def extracted(self) -> ExtractionResult:
        """The extraction of an active item past `extract_batch` (a failed extraction sets `error`)."""
        if self.extraction is None:
            raise RuntimeError(f"work item {self.memory_id} was not extracted")
        return self.extraction


@dataclass
class Batch:
    items: list[WorkItem]
    model: str
    provider: str
    rerun: bool = False
    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    timings_ms: dict[str, float] = field(default_factory=dict)
    provider_calls: ProviderCalls = field(default_factory=ProviderCalls)
    errors: list[analytics.ErrorEvent] = field(default_factory=list)  # for the error ring; append is atomic

    def error(self, event: analytics.ErrorEvent | None) -> None:
        if event is not None:
            self.errors.append(event)

    @property
    def active(self) -> list[WorkItem]:
        return [i for i in self.items if i.error is None and i.skipped is None]

    def llm_latencies(self) -> list[float]:
        return [ms for item in self.items for ms in item.llm_ms]

    def warnings(self) -> list[str]:
        out = [f"{item.memory_id}: {w}" for item in self.items for w in item.warnings]
        return out[:MAX_WARNINGS_KEPT]


def _source(svc: MemoryService, memory_id: str | None) -> Row | None:
    return mem_store.get(svc.db.reader(), memory_id) if memory_id else None


def lease_batch(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int, ids: list[int] | None = None) -> Batch:
    items = []
    for job in queue.lease([EXTRACT], limit=limit, ids=ids):
        item = WorkItem(memory_id=job["memory_id"] or "", job=job, source=_source(svc, job["memory_id"]))
        if item.source is None:
            item.skipped = "source memory no longer exists"
        items.append(item)
    return Batch(items=items, model=llm.model, provider=llm.name)


def batch_for_memories(svc: MemoryService, llm: Llm, memory_ids: Iterable[str]) -> Batch:
    """A re-extraction batch over memories (no jobs): idempotent thanks to hash dedup and NONE."""
    items = [WorkItem(memory_id=mid, source=_source(svc, mid)) for mid in memory_ids]
    for item in items:
        if item.source is None:
            item.skipped = "memory no longer exists"
    return Batch(items=items, model=llm.model, provider=llm.name, rerun=True)


def _run_each(items: list[WorkItem], fn: Callable[[WorkItem], None], concurrency: int) -> None:
    if concurrency <= 1 or len(items) <= 1:
        for item in items:
            fn(item)
        return
    with ThreadPoolExecutor(max_workers=min(concurrency, len(items)), thread_name_prefix="signet-pipeline") as pool:
        list(pool.map(fn, items))


def _timed(batch: Batch, item: WorkItem, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call a provider-backed stage, recording its latency on the item and its outcome on the batch."""
    started = time.perf_counter()
    try:
        result, ms = batch.provider_calls.call(fn, *args, **kwargs)
    except ProviderError:
        item.llm_ms.append((time.perf_counter() - started) * 1000)
        raise
    item.llm_ms.append(ms)
    return result


def _when(source: Row) -> datetime | None:
    """When the memory's content was said: its event time if known, else when it was written."""
    return parse_iso(source["occurred_at"] or source["created_at"])


def extract_batch(svc: MemoryService, llm: Llm, batch: Batch) -> Batch:
    timeout = svc.settings.pipeline.extraction.timeout / 1000

    def run(item: WorkItem) -> None:
        try:
            item.extraction = _timed(batch, item, extract, llm, item.source_memory["content"], timeout=timeout,
                                     written_at=_when(item.source_memory))
            item.warnings.extend(item.extraction.warnings)
            if item.extraction.parse_failed:
                batch.error(analytics.error_event("EXTRACTION_PARSE_FAIL", item.extraction.warnings[-1],
                                                  memory_id=item.memory_id))
        except ProviderError as exc:
            item.error = f"extraction: {exc}"
            batch.error(analytics.timeout_event(exc, "EXTRACTION_TIMEOUT", memory_id=item.memory_id))

    started = time.perf_counter()
    _run_each(batch.active, run, in_flight(svc.settings.pipeline, llm))
    batch.timings_ms["extract"] = (time.perf_counter() - started) * 1000
    return batch


def decide_batch(svc: MemoryService, llm: Llm, batch: Batch) -> Batch:
    """Embed every fact of the batch in one provider call, find every fact's candidates in one
    search (stages/extraction/candidates.py), then decide each memory's facts (one model call per
    memory, stages/extraction/decision.py). (Overlapping the steps on threads was measured slower
    on 2 cores: onnxruntime already uses both.)"""
    pipeline = svc.settings.pipeline
    timeout = pipeline.extraction.timeout / 1000
    started = time.perf_counter()
    for item in batch.active:
        for fact in item.extracted.facts:
            fact.content = normalize_content(fact.content).storage  # the form stored, embedded and searched
    batch.vectors, _ = embed_missing(svc, [f.content for item in batch.active for f in item.extracted.facts])
    batch.timings_ms["embed"] = (time.perf_counter() - started) * 1000
    lookups = [Lookup(fact, item.source_memory["agent_id"], frozenset({item.memory_id}))
               for item in batch.active for fact in item.extracted.facts]
    found = iter(find_candidates(svc, lookups, batch.vectors))
    shown = {id(item): [next(found) for _ in item.extracted.facts] for item in batch.active}
    batch.timings_ms["candidates"] = (time.perf_counter() - started) * 1000 - batch.timings_ms["embed"]

    def run(item: WorkItem) -> None:
        try:
            decided = _timed(batch, item, decide_facts, svc, llm, item.extracted.facts,
                             agent_id=item.source_memory["agent_id"], timeout=timeout, candidates=shown[id(item)])
            for fact, (decision, warning, candidates) in zip(item.extracted.facts, decided):
                if warning:
                    item.warnings.append(f"decision for {fact.content[:60]!r}: {warning}")
                if decision is None:  # the reply was rejected (decide returns a warning)
                    batch.error(analytics.error_event("DECISION_INVALID", f"{warning} (fact {fact.content[:60]!r})",
                                                      memory_id=item.memory_id))
                    continue
                target = next((c for c in candidates if c.id == decision.target_id), None)
                check = None
                if decision.action in ("update", "delete") and target is not None:
                    check = contradiction.check(llm, decision.action, fact.content, target.content,
                                                semantic_enabled=pipeline.semantic_contradiction_enabled,
                                                timeout=pipeline.semantic_contradiction_timeout_ms / 1000)
                item.proposals.append(Proposal(fact=fact, decision=decision, target=target, contradiction=check))
        except ProviderError as exc:
            item.error = f"decision: {exc}"
            item.proposals.clear()
            batch.error(analytics.timeout_event(exc, "DECISION_TIMEOUT", memory_id=item.memory_id))

    _run_each(batch.active, run, in_flight(svc.settings.pipeline, llm))
    batch.timings_ms["decide"] = (time.perf_counter() - started) * 1000 - batch.timings_ms["embed"]
    return batch


def write_batch(svc: MemoryService, queue: JobQueue | None, batch: Batch) -> Batch:
    """Per source memory, its facts, history, graph triples and the completion of its job commit
    together, or (the lease was lost) not at all: each memory in a savepoint of its own, WRITE_CHUNK
    memories per write transaction."""
    started = time.perf_counter()
    batch.provider_calls.flush(svc.db, provider=batch.provider, model=batch.model)
    analytics.record_errors(svc.db, batch.errors)  # own short tx, before (not inside) the batch's writes
    writes = []
    for item in batch.items:
        if item.error is not None:
            if queue is not None and item.job is not None:
                status = queue.fail(item.job, item.error)
                item.outcome = {"dead": "dead", "pending": "retry", None: "lost"}[status]
                if status == "dead":
                    with svc.db.write() as conn:
                        mem_store.set_extraction_status(conn, item.memory_id, "failed", now=now_iso())
            else:
                item.outcome = "failed"
        elif item.skipped is not None:
            completed = queue is None or item.job is None or queue.complete(item.job, {"skipped": item.skipped})
            item.outcome = "skipped" if completed else "lost"
        else:
            writes.append(item)
    for start in range(0, len(writes), WRITE_CHUNK):
        with svc.db.write() as conn:
            for item in writes[start:start + WRITE_CHUNK]:
                job = item.job if queue is not None else None
                try:
                    with conn:  # a savepoint: this memory's writes and its job's completion, or none of them
                        item.report = apply_proposals(
                            svc, item.source_memory, item.proposals, model=batch.model,
                            fact_count=len(item.extracted.facts), entity_count=len(item.extracted.entities),
                            vectors=batch.vectors,
                            job_id=job["id"] if job else None, rerun=batch.rerun, commit=_finish(svc, item, job))
                except LeaseLost as exc:
                    item.outcome, item.error = "lost", str(exc)
                    continue
                item.outcome = "completed"
    batch.timings_ms["write"] = (time.perf_counter() - started) * 1000
    return batch


def _finish(svc: MemoryService, item: WorkItem, job: Row | None) -> Commit:
    """What the source memory's write transaction does last: the triples (their own savepoint; a
    graph failure is logged, never fatal), then the job's completion."""
    completion = Completion(job, lambda report: {
        **report.as_dict(), "facts": len(item.extracted.facts), "entities": len(item.extracted.entities),
        "warnings": item.warnings[:20]}) if job is not None else None

    def finish(conn: apsw.Connection, report: WriteReport) -> None:
        if svc.settings.pipeline.graph_on and report.mode != "shadow":
            item.graph = persist_triples(svc, item.source_memory, item.extracted.entities,
                                         list(report.created.items()))
        if completion is not None:
            completion(conn, report)

    return finish


def run_jobs(svc: MemoryService, queue: JobQueue, llm: Llm, limit: int) -> Batch:
    """All three steps in one call (benchmarks, tests, the in-process path)."""
    batch = lease_batch(svc, queue, llm, limit)
    return write_batch(svc, queue, decide_batch(svc, llm, extract_batch(svc, llm, batch)))


def summarize(batch: Batch) -> dict[str, Any]:
    """Counts for materialization metadata and job results."""
    reports = [i.report for i in batch.items if i.report is not None]
    skipped: dict[str, int] = {}
    for r in reports:
        for reason, n in r.skipped.items():
            skipped[reason] = skipped.get(reason, 0) + n
    outcomes = [i.outcome for i in batch.items]
    return {
        "items": len(batch.items),
        "completed": outcomes.count("completed"), "retry": outcomes.count("retry"),
        "dead": outcomes.count("dead"), "failed": outcomes.count("failed"), "skipped_jobs": outcomes.count("skipped"),
        "lost": outcomes.count("lost"),
        "facts_extracted": sum(len(i.extraction.facts) for i in batch.items if i.extraction),
        "entities_extracted": sum(len(i.extraction.entities) for i in batch.items if i.extraction),
        "proposals": sum(r.proposals for r in reports),
        "written": sum(len(r.created) for r in reports), "deduped": sum(r.deduped for r in reports),
        "skipped": skipped, "none": sum(r.none for r in reports), "blocked": sum(r.blocked for r in reports),
        "superseded": sum(r.superseded for r in reports), "review_needed": sum(r.review_needed for r in reports),
        "shadow": sum(r.shadow for r in reports),
        "relations_added": sum(i.graph.new_relations for i in batch.items if i.graph),
        "triples_rejected": sum(i.graph.rejected for i in batch.items if i.graph),
        "graph_failures": sum(1 for i in batch.items if i.graph and i.graph.failed),
        "errors": dict(Counter(event.code for event in batch.errors)),  # analytics codes recorded
    }


@dataclass
class RunTotals:
    """What one run did over all its batches, for the assets' materialization metadata."""

    batches: int = 0
    counts: Counter = field(default_factory=Counter)  # the integer counts of summarize()
    skipped: Counter = field(default_factory=Counter)  # skip reason -> facts
    errors: Counter = field(default_factory=Counter)  # analytics code -> events
    actions: Counter = field(default_factory=Counter)  # proposed action -> facts
    timings_ms: Counter = field(default_factory=Counter)  # extract | embed | candidates | decide (+candidates) | write
    extract_ms: list[float] = field(default_factory=list)  # per extraction call
    decision_ms: list[float] = field(default_factory=list)  # per decision call
    vectors: int = 0
    contradiction_risk: int = 0
    failures: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)  # ids of written facts, first PREVIEW_IDS

    PREVIEW_IDS = 20

    def add(self, batch: Batch) -> int:
        """Fold a finished batch in; returns its job count (the drain's step result)."""
        self.batches += 1
        summary = summarize(batch)
        self.counts.update({k: v for k, v in summary.items() if isinstance(v, int)})
        self.skipped.update(summary["skipped"])
        self.errors.update(summary["errors"])
        self.timings_ms.update(batch.timings_ms)
        self.vectors += len(batch.vectors)
        for item in batch.items:
            self.extract_ms += item.llm_ms[:1]
            self.decision_ms += item.llm_ms[1:]
            self.actions.update(p.decision.action for p in item.proposals)
            self.contradiction_risk += sum(1 for p in item.proposals
                                           if p.contradiction and p.contradiction.contradiction_risk)
            if item.error:
                self.failures.append(f"{item.memory_id}: {item.error}")
            if item.report and len(self.created) < self.PREVIEW_IDS:
                self.created += list(item.report.created)[:self.PREVIEW_IDS - len(self.created)]
        self.failures = self.failures[-MAX_WARNINGS_KEPT:]
        self.warnings = (self.warnings + batch.warnings())[:MAX_WARNINGS_KEPT]
        return len(batch.items)
