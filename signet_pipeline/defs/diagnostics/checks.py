"""The diagnostics domains as asset checks, each evaluated on the asset it concerns (the same
functions /api/diagnostics serves): healthy passes, degraded fails as a warning, unhealthy as an
error. Assets are named by key, as they belong to other domains."""

from typing import Any

import dagster as dg

from signet_pipeline.defs.metadata import bullet_list
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.ops import diagnostics


def _diagnostic_check(domain: str, asset: Any, description: str) -> dg.AssetChecksDefinition:
    """An asset check that evaluates one diagnostics domain."""

    @dg.asset_check(name=f"{domain}_health", asset=asset, description=description)
    def _check(signet: SignetStoreResource) -> dg.AssetCheckResult:
        settings = signet.settings()
        with signet.database(migrated=True) as db:
            if db is None:
                return dg.AssetCheckResult(passed=True, metadata={"note": "no store yet"})
            health = diagnostics.domain_health(db, settings, domain)
        flat = {k: v for k, v in health.signals.items() if isinstance(v, (int, float, str, bool))}
        return dg.AssetCheckResult(
            passed=health.status == "healthy",
            severity=dg.AssetCheckSeverity.ERROR if health.status == "unhealthy" else dg.AssetCheckSeverity.WARN,
            metadata={"score": health.score, "status": health.status, **flat,
                      "signals": dg.MetadataValue.json(health.signals), "issues": bullet_list(health.issues)},
        )

    return _check


queue_health = _diagnostic_check(
    "queue", "memory_extractions", "Diagnostics, queue domain (weight .28): jobs waiting <= 50, dead-job rate <= 1%, "
    "oldest pending job <= 5 min, no lease older than the lease timeout.")
provider_health = _diagnostic_check(
    "provider", "memory_extractions", "Diagnostics, provider domain (weight .24): success rate of each LLM provider's "
    "last 100 calls (failures and timeouts recorded by the pipeline stages).")
index_health = _diagnostic_check(
    "index", "derived_facts", "Diagnostics, index domain (weight .19): FTS rows within 10% of memory rows, >= 80% of "
    "live memories with a vector of the configured model.")
mutation_health = _diagnostic_check(
    "mutation", "derived_facts", "Diagnostics, mutation domain (weight .10): at most 5 recoveries of deleted memories "
    "in 7 days.")
storage_health = _diagnostic_check(
    "storage", "retention_sweep", "Diagnostics, storage domain (weight .14): tombstones at most 30% of memory rows "
    "(the retention sweep purges them past their window).")
DIAGNOSTIC_CHECKS = [queue_health, provider_health, index_health, mutation_health, storage_health]
