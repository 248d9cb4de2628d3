"""Extraction pipeline assets: memory_extractions -> memory_decisions -> derived_facts.

The three steps run as one multi-asset: a drain run (sensor extract_jobs_sensor) leases batches of
`extract` jobs and takes each through lease -> extract -> decide -> write until nothing is due,
then reports each step on its own asset. The batches travel between the steps in memory, so the
three materialize together. `reextracted_facts` is the operator's backfill: daily partitions by
memory created_at run the same steps over stored memories after a model or prompt change;
re-running is idempotent.
"""

from datetime import datetime, timezone

import dagster as dg
from signet_pipeline.assets.metadata import DrainConfig, bullet_list, drain_queue, latency, table
from signet_pipeline.pipeline.extraction import (
    RunTotals, batch_for_memories, decide_batch, extract_batch, run_jobs, write_batch,
)
from signet_pipeline.pipeline.queue import EXTRACT
from signet_pipeline.resources import LlmResource, SignetStoreResource
from signet_pipeline.store import memories as mem_store
from signet_pipeline.timeutil import to_iso

GROUP = "extraction"
REEXTRACT_START = "2024-01-01"


def _created_preview(signet: SignetStoreResource, ids: list[str]) -> dg.MetadataValue:
    found = mem_store.fetch_many(signet.service().db.reader(), ids)
    rows = [[found[i]["type"], found[i]["content"], found[i]["source_memory_id"]] for i in ids if i in found]
    return table(["type", "content", "source memory"], rows, empty="no facts written")


def _write_metadata(totals: RunTotals) -> dict[str, object]:
    """derived_facts metadata; also the backfill's."""
    c = totals.counts
    return {
        "jobs_completed": c["completed"], "jobs_retrying": c["retry"], "jobs_dead": c["dead"],
        "jobs_lost": c["lost"], "facts_written": c["written"], "facts_deduped": c["deduped"],
        "facts_skipped": sum(totals.skipped.values()), "skip_reasons": dg.MetadataValue.json(dict(totals.skipped)),
        "none_recorded": c["none"], "destructive_blocked": c["blocked"], "superseded": c["superseded"],
        "review_needed": c["review_needed"], "shadow_proposals": c["shadow"],
        "graph_relations_added": c["relations_added"], "graph_triples_rejected": c["triples_rejected"],
        "graph_failures": c["graph_failures"], "stage_errors": dg.MetadataValue.json(dict(totals.errors)),
        "write_ms": round(totals.timings_ms["write"], 1),
    }


@dg.multi_asset(
    name="extraction_pipeline", can_subset=False,
    specs=[
        dg.AssetSpec("memory_extractions", group_name=GROUP, kinds={"python", "sqlite"},
                     description="Extraction stage over the `extract` queue: each source memory's facts and entity "
                                 "triples (validated; warnings instead of failures)."),
        dg.AssetSpec("memory_decisions", deps=["memory_extractions"], group_name=GROUP, kinds={"python"},
                     description="Decision stage: embeds the batch's facts in one call, finds each fact's top-5 hybrid "
                                 "candidates and proposes ADD / UPDATE / DELETE / NONE (hallucinated targets "
                                 "rejected), with contradiction checks on UPDATE/DELETE."),
        dg.AssetSpec("derived_facts", deps=["memory_decisions"], group_name=GROUP, kinds={"python", "sqlite"},
                     description="Controlled writes: applies the proposals the pipeline mode allows (shadow / "
                                 "controlled / full) in one short transaction per source memory, with its history "
                                 "rows, graph triples and the completion of its job."),
    ],
    description="Drains the `extract` queue: leases batches of worker.batchSize jobs and runs lease -> extract -> "
                "decide -> write on each, until nothing has been due for worker.runIdleMs or worker.runBudgetMs "
                "has passed. Launched by extract_jobs_sensor when jobs are due and no drain run is in flight; "
                "launch it by hand to drain now.",
)
def extraction_pipeline(context: dg.AssetExecutionContext, config: DrainConfig, signet: SignetStoreResource,
                        llm: LlmResource):
    svc = signet.service()
    provider = llm.create(svc.settings)
    totals = RunTotals()
    report = drain_queue(context, config, signet, EXTRACT,
                         lambda queue: lambda limit: totals.add(run_jobs(svc, queue, provider, limit)))
    c = totals.counts
    if totals.failures:
        context.log.warning("%d job(s) failed and will be retried: %s", len(totals.failures), totals.failures[:3])
    yield dg.MaterializeResult(asset_key="memory_extractions", metadata={
        **report.as_metadata(), "jobs_leased": c["items"], "source_missing": c["skipped_jobs"],
        "extraction_failures": sum(1 for f in totals.failures if ": extraction" in f),
        "facts_extracted": c["facts_extracted"], "entities_extracted": c["entities_extracted"],
        "provider": provider.name, "model": provider.model, "extract_ms": round(totals.timings_ms["extract"], 1),
        **latency(totals.extract_ms, "llm"), "failures": bullet_list(totals.failures[:20]),
        "warnings": bullet_list(totals.warnings),
    })
    yield dg.MaterializeResult(asset_key="memory_decisions", metadata={
        "proposals": sum(totals.actions.values()),
        **{f"proposed_{a}": totals.actions[a] for a in ("add", "update", "delete", "none")},
        "contradiction_risk": totals.contradiction_risk, "vectors_embedded": totals.vectors,
        "embed_ms": round(totals.timings_ms["embed"], 1), "decide_ms": round(totals.timings_ms["decide"], 1),
        **latency(totals.decision_ms, "decision"),
        "decision_failures": sum(1 for f in totals.failures if ": decision" in f),
    })
    yield dg.MaterializeResult(asset_key="derived_facts", metadata={
        "mode": svc.settings.pipeline.write_mode, **_write_metadata(totals),
        "written_preview": _created_preview(signet, totals.created),
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
    totals = RunTotals()
    started = datetime.now(timezone.utc)
    after_rid = 0
    while True:
        # Keyset pages: a long range never holds all ids, and facts written meanwhile are skipped
        # (they are derived, not raw).
        page = mem_store.raw_created_between(svc.db.reader(), start, end, after_rid=after_rid, limit=size)
        if not page:
            break
        after_rid = page[-1][0]
        totals.add(write_batch(svc, None, decide_batch(svc, provider, extract_batch(
            svc, provider, batch_for_memories(svc, provider, [mid for _, mid in page])))))
    return dg.MaterializeResult(metadata={
        "partition_range": f"{start} .. {end}", "memories_reprocessed": totals.counts["items"],
        **_write_metadata(totals), "failures": totals.counts["failed"], "provider": provider.name,
        "model": provider.model, "elapsed_s": round((datetime.now(timezone.utc) - started).total_seconds(), 2),
        **latency(totals.extract_ms + totals.decision_ms, "llm"), "warnings": bullet_list(totals.warnings),
    })
