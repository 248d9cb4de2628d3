"""Asset checks of the extraction pipeline: data quality an operator (and diagnostics) can trust."""

from datetime import datetime, timezone

import dagster as dg

from signet_pipeline.assets.extraction import derived_facts, memory_extractions
from signet_pipeline.assets.metadata import table
from signet_pipeline.pipeline.queue import EXTRACT
from signet_pipeline.resources import SignetStoreResource
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.timeutil import parse_iso

ORPHAN_PREVIEW = 20


@dg.asset_check(asset=derived_facts, description="Every derived fact points at a source memory that still exists "
                                                 "(provenance shown in recall is never dangling).")
def derived_facts_provenance(signet: SignetStoreResource) -> dg.AssetCheckResult:
    conn = signet.service().db.reader()
    orphans = mem_store.orphaned_derived(conn, ORPHAN_PREVIEW)
    return dg.AssetCheckResult(
        passed=not orphans,
        metadata={"derived_facts": mem_store.derived_count(conn), "orphans_found": len(orphans),
                  "orphans": table(["id", "missing source", "content"],
                                   [[o["id"], o["source_memory_id"], o["content"]] for o in orphans])},
    )


@dg.asset_check(asset=memory_extractions, description="The extract queue is draining: no dead jobs and no pending "
                                                      "job older than the lease timeout.")
def extract_queue_health(signet: SignetStoreResource) -> dg.AssetCheckResult:
    svc = signet.service()
    conn = svc.db.reader()
    counts = job_store.counts_by_status(conn, EXTRACT)
    oldest = job_store.oldest_pending_created_at(conn, EXTRACT)
    age_s = (datetime.now(timezone.utc) - parse_iso(oldest)).total_seconds() if oldest else 0.0
    limit_s = svc.settings.pipeline.worker.lease_timeout_ms / 1000
    problems = []
    if counts.get("dead", 0):
        problems.append(f"{counts['dead']} dead extract job(s): requeue them once the provider works")
    if age_s > limit_s:
        problems.append(f"oldest pending job waited {age_s:.0f} s (> {limit_s:.0f} s)")
    return dg.AssetCheckResult(
        passed=not problems, severity=dg.AssetCheckSeverity.WARN,
        metadata={**{f"jobs_{status}": n for status, n in counts.items()}, "oldest_pending_age_s": round(age_s, 1),
                  "problems": dg.MetadataValue.md("\n".join(f"- {p}" for p in problems) or "_none_")},
    )
