"""Extraction pipeline assets: memory_extractions -> memory_decisions -> derived_facts.

The sensor (sensors.py) launches the `extract_memories` job with the ids of one batch of due
`extract` jobs; the three assets lease, extract, decide and write them. The batch travels between
the steps in memory (one process per run, in-process executor), so materialize the three together.
`reextracted_facts` is the operator's backfill: daily partitions by memory created_at run the same
steps over stored memories after a model or prompt change; re-running is idempotent.
"""

from datetime import datetime, timezone

import dagster as dg
from signet_pipeline.assets.metadata import QueueBatchConfig, bullet_list, latency, table
from signet_pipeline.pipeline.extraction import (
    Batch, batch_for_memories, decide_batch, extract_batch, lease_batch, summarize, write_batch,
)
from signet_pipeline.resources import LlmResource, SignetStoreResource
from signet_pipeline.store import memories as mem_store
from signet_pipeline.timeutil import to_iso

GROUP = "extraction"
BATCH_IO = "batch_io_manager"
PREVIEW_ROWS = 20
REEXTRACT_START = "2024-01-01"


def _created_preview(signet: SignetStoreResource, batch: Batch) -> dg.MetadataValue:
    ids = [mid for item in batch.items if item.report for mid in item.report.created][:PREVIEW_ROWS]
    found = mem_store.fetch_many(signet.service().db.reader(), ids)
    rows = [[found[i]["type"], found[i]["content"], found[i]["source_memory_id"]] for i in ids if i in found]
    return table(["type", "content", "source memory"], rows, empty="no facts written")


@dg.asset(
    group_name=GROUP, io_manager_key=BATCH_IO, kinds={"python", "sqlite"},
    description="Leases a batch of `extract` jobs from memory_jobs and runs the extraction stage on each source "
                "memory (facts + entity triples, validated; warnings instead of failures).",
)
def memory_extractions(context: dg.AssetExecutionContext, config: QueueBatchConfig, signet: SignetStoreResource,
                       llm: LlmResource) -> dg.Output[Batch]:
    svc = signet.service()
    provider = llm.create(svc.settings)
    limit = config.limit(svc.settings.pipeline.worker.batch_size)
    batch = extract_batch(svc, provider, lease_batch(svc, signet.queue(), provider, limit, config.job_ids or None))
    failed = [f"{i.memory_id}: {i.error}" for i in batch.items if i.error]
    if failed:
        context.log.warning("%d extraction(s) failed and will be retried: %s", len(failed), failed[:3])
    return dg.Output(batch, metadata={
        "jobs_leased": sum(1 for i in batch.items if i.job), "jobs_requested": len(config.job_ids),
        "source_missing": sum(1 for i in batch.items if i.skipped), "extraction_failures": len(failed),
        "facts_extracted": sum(len(i.extraction.facts) for i in batch.items if i.extraction),
        "entities_extracted": sum(len(i.extraction.entities) for i in batch.items if i.extraction),
        "provider": provider.name, "model": provider.model, "extract_ms": round(batch.timings_ms["extract"], 1),
        **latency(batch.llm_latencies(), "llm"), "failures": bullet_list(failed[:20]),
        "warnings": bullet_list(batch.warnings()),
    })


@dg.asset(
    group_name=GROUP, io_manager_key=BATCH_IO, kinds={"python"},
    description="Decision stage: embeds every extracted fact in one call, finds its top-5 hybrid candidates and "
                "proposes ADD / UPDATE / DELETE / NONE (hallucinated targets rejected), with contradiction checks "
                "on UPDATE/DELETE.",
)
def memory_decisions(context: dg.AssetExecutionContext, memory_extractions: Batch, signet: SignetStoreResource,
                     llm: LlmResource) -> dg.Output[Batch]:
    svc = signet.service()
    provider = llm.create(svc.settings)
    before = {id(i): len(i.llm_ms) for i in memory_extractions.items}
    batch = decide_batch(svc, provider, memory_extractions)
    actions: dict[str, int] = {"add": 0, "update": 0, "delete": 0, "none": 0}
    for item in batch.items:
        for p in item.proposals:
            actions[p.decision.action] += 1
    decision_ms = [ms for i in batch.items for ms in i.llm_ms[before.get(id(i), 0):]]
    failed = [f"{i.memory_id}: {i.error}" for i in batch.items if i.error and i.error.startswith("decision")]
    return dg.Output(batch, metadata={
        "proposals": sum(actions.values()), **{f"proposed_{a}": n for a, n in actions.items()},
        "contradiction_risk": sum(1 for i in batch.items for p in i.proposals
                                  if p.contradiction and p.contradiction.contradiction_risk),
        "vectors_embedded": len(batch.vectors), "embed_ms": round(batch.timings_ms["embed"], 1),
        "decide_ms": round(batch.timings_ms["decide"], 1), **latency(decision_ms, "decision"),
        "decision_failures": len(failed), "failures": bullet_list(failed[:20]),
    })


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"},
    description="Controlled writes: applies the proposals the pipeline mode allows (shadow / controlled / full) in "
                "one short transaction per source memory, records every proposal in memory_history, then completes "
                "the jobs (failed ones retry with backoff, dead at max attempts).",
)
def derived_facts(context: dg.AssetExecutionContext, memory_decisions: Batch,
                  signet: SignetStoreResource) -> dg.MaterializeResult:
    svc = signet.service()
    batch = write_batch(svc, signet.queue(), memory_decisions)
    counts = summarize(batch)
    return dg.MaterializeResult(metadata={
        "mode": svc.settings.pipeline.write_mode, "jobs_completed": counts["completed"],
        "jobs_retrying": counts["retry"], "jobs_dead": counts["dead"], "facts_written": counts["written"],
        "facts_deduped": counts["deduped"], "facts_skipped": sum(counts["skipped"].values()),
        "skip_reasons": dg.MetadataValue.json(counts["skipped"]), "none_recorded": counts["none"],
        "destructive_blocked": counts["blocked"], "superseded": counts["superseded"],
        "review_needed": counts["review_needed"], "shadow_proposals": counts["shadow"],
        "graph_relations_added": counts["relations_added"], "graph_triples_rejected": counts["triples_rejected"],
        "graph_failures": counts["graph_failures"],
        "stage_errors": dg.MetadataValue.json(counts["errors"]),
        "write_ms": round(batch.timings_ms["write"], 1), "written_preview": _created_preview(signet, batch),
    })


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"},
    partitions_def=dg.DailyPartitionsDefinition(start_date=REEXTRACT_START, end_offset=1),
    backfill_policy=dg.BackfillPolicy.single_run(),
    description="Re-extraction backfill: runs extraction, decisions and controlled writes again over the memories "
                "created in the selected days (after changing the model or prompts). Idempotent: facts already "
                "stored dedupe, and each source memory's history records the re-run.",
)
def reextracted_facts(context: dg.AssetExecutionContext, signet: SignetStoreResource,
                      llm: LlmResource) -> dg.MaterializeResult:
    svc = signet.service()
    provider = llm.create(svc.settings)
    window = context.partition_time_window
    start, end = (to_iso(t.astimezone(timezone.utc)) for t in (window.start, window.end))
    size = svc.settings.pipeline.worker.batch_size
    totals: dict[str, int] = {}
    memories = 0
    latencies: list[float] = []
    warnings: list[str] = []
    started = datetime.now(timezone.utc)
    after_rid = 0
    while True:
        # Keyset pages: a long range never holds all ids, and facts written meanwhile are skipped
        # (they are derived, not raw).
        page = mem_store.raw_created_between(svc.db.reader(), start, end, after_rid=after_rid, limit=size)
        if not page:
            break
        after_rid = page[-1][0]
        batch = write_batch(svc, None, decide_batch(svc, provider, extract_batch(
            svc, provider, batch_for_memories(svc, provider, [mid for _, mid in page]))))
        memories += len(page)
        latencies += batch.llm_latencies()
        warnings += batch.warnings()
        for key, value in summarize(batch).items():
            if isinstance(value, int):
                totals[key] = totals.get(key, 0) + value
    return dg.MaterializeResult(metadata={
        "partition_range": f"{start} .. {end}", "memories_reprocessed": memories,
        "facts_written": totals.get("written", 0), "facts_deduped": totals.get("deduped", 0),
        "none_recorded": totals.get("none", 0), "destructive_blocked": totals.get("blocked", 0),
        "failures": totals.get("failed", 0), "provider": provider.name, "model": provider.model,
        "elapsed_s": round((datetime.now(timezone.utc) - started).total_seconds(), 2),
        **latency(latencies, "llm"), "warnings": bullet_list(warnings[:50]),
    })
