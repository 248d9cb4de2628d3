"""The extraction domain's data-quality check on what it writes."""

import dagster as dg

from signet_pipeline.defs.metadata import table
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.store import memories as mem_store

ORPHAN_PREVIEW = 20


@dg.asset_check(asset="derived_facts", description="Every derived fact points at a source memory that still exists "
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
