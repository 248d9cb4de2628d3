"""Extraction assets: memory_extractions -> memory_decisions -> derived_facts, materialized by the
memory_pipeline drain (assets/memory_pipeline.py: the batches travel between the steps in memory,
so the three materialize together), and `reextracted_facts`, the operator's backfill: daily
partitions by memory created_at run the same steps over stored memories after a model or prompt
change; re-running is idempotent.
"""

from datetime import datetime, timezone

import dagster as dg

from signet_pipeline.defs.assets.metadata import bullet_list, latency, table
from signet_pipeline.defs.resources import LlmResource, SignetStoreResource
from signet_pipeline.stages.extraction.batch import (
    RunTotals,
    batch_for_memories,
    decide_batch,
    extract_batch,
    write_batch,
)
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


EXTRACTION_SPECS = [
    dg.AssetSpec("memory_extractions", group_name=GROUP, kinds={"python", "sqlite"},
                 description="Extraction stage over the `extract` queue: each source memory's facts and entity "
                             "triples (validated; warnings instead of failures)."),
    dg.AssetSpec("memory_decisions", deps=["memory_extractions"], group_name=GROUP, kinds={"python"},
                 description="Decision stage: embeds a batch's facts in one call, finds each fact's top-5 hybrid "
                             "candidates and proposes ADD / UPDATE / DELETE / NONE (one model call per memory; "
                             "hallucinated targets rejected), with contradiction checks on UPDATE/DELETE."),
    dg.AssetSpec("derived_facts", deps=["memory_decisions"], group_name=GROUP, kinds={"python", "sqlite"},
                 description="Controlled writes: applies the proposals the pipeline mode allows (shadow / controlled "
                             "/ full) in one short transaction per source memory, with its history rows, graph "
                             "triples and the completion of its job."),
]


def extraction_results(signet: SignetStoreResource, totals: RunTotals, provider_name: str, model: str,
                       drain: dict[str, object]) -> list[dg.MaterializeResult]:
    """The three extraction assets' materializations for what a run did."""
    c = totals.counts
    return [
        dg.MaterializeResult(asset_key="memory_extractions", metadata={
            **drain, "jobs_leased": c["items"], "source_missing": c["skipped_jobs"],
            "extraction_failures": sum(1 for f in totals.failures if ": extraction" in f),
            "facts_extracted": c["facts_extracted"], "entities_extracted": c["entities_extracted"],
            "provider": provider_name, "model": model, "extract_ms": round(totals.timings_ms["extract"], 1),
            **latency(totals.extract_ms, "llm"), "failures": bullet_list(totals.failures[:20]),
            "warnings": bullet_list(totals.warnings),
        }),
        dg.MaterializeResult(asset_key="memory_decisions", metadata={
            "proposals": sum(totals.actions.values()),
            **{f"proposed_{a}": totals.actions[a] for a in ("add", "update", "delete", "none")},
            "contradiction_risk": totals.contradiction_risk, "vectors_embedded": totals.vectors,
            "embed_ms": round(totals.timings_ms["embed"], 1), "decide_ms": round(totals.timings_ms["decide"], 1),
            **latency(totals.decision_ms, "decision"),
            "decision_failures": sum(1 for f in totals.failures if ": decision" in f),
        }),
        dg.MaterializeResult(asset_key="derived_facts", metadata={
            "mode": signet.service().settings.pipeline.write_mode, **_write_metadata(totals),
            "written_preview": _created_preview(signet, totals.created),
        }),
    ]


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
