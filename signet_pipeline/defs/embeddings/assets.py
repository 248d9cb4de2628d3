"""Embedding assets: the refresh (spec "Embedding Tracker"), its daily-partitioned backfill, and the
UMAP projection.

`embedding_refresh` re-embeds, newest-updated first, live memories whose vector is missing, under
an old content hash or of another model/dimension, up to 5,000 rows or 120 s per run (sensors.py
says when a run is requested). `embedding_backfill` lets an operator re-embed chosen days of
history (memory created_at) from the UI, optionally every memory of those days (`force`).

`embedding_projection`: UMAP 2D/3D of the embedded memories, cached in umap_cache for
GET /api/embeddings/projection. The API records requests (and answers 202); a sensor turns them
into runs; a daily schedule recomputes cached projections whose set changed. UMAP runs here, never
in a request (umap is imported inside the stage, on the first fit).
"""


import dagster as dg
from pydantic import Field

from signet_pipeline.defs.metadata import bullet_list, table
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.defs.store import EMBEDDINGS, MEMORIES, MEMORY_DAYS, history_backfill, selected_days
from signet_pipeline.stages.embedding_refresh import (
    MAX_ROWS,
    TIME_BUDGET_S,
    RefreshReport,
    grace_cutoff,
    run_backfill,
    run_refresh,
)
from signet_pipeline.stages.projection import project_store
from signet_pipeline.store import projections as proj_store

GROUP = "embeddings"


class RefreshConfig(dg.Config):
    max_rows: int = Field(default=MAX_ROWS, ge=1, le=1_000_000, description="memories re-embedded at most in this run")
    time_budget_s: float = Field(default=TIME_BUDGET_S, gt=0, le=3600, description="no new batch starts after this")
    batch_size: int = Field(default=0, ge=0, le=512,
                            description="texts per provider call; 0 = embeddingTracker.batchSize")


class BackfillConfig(dg.Config):
    force: bool = Field(default=False, description="re-embed every memory of the days, not only missing/stale ones")
    batch_size: int = Field(default=0, ge=0, le=512,
                            description="texts per provider call; 0 = embeddingTracker.batchSize")


class ProjectionConfig(dg.Config):
    dimensions: list[int] = Field(default_factory=list,
                                  description="output dimensions (2, 3) to recompute even when fresh; empty = those "
                                              "requested through the API or cached from a set that changed")


def _metadata(report: RefreshReport) -> dict:
    return {
        "model": report.model, "dimensions": report.dimensions or 0, "skipped": report.skipped or "no",
        "found_missing": report.found.get("missing", 0), "found_stale": report.found.get("stale", 0),
        "found_model_switch": report.found.get("model_switch", 0),
        "refreshed": report.refreshed, "vectors_written": report.vectors, "failed": report.failed,
        "orphan_vectors_removed": report.orphans_removed, "remaining": report.remaining,
        "stopped": report.stopped or "done", "batches": report.batches, "rows_per_s": report.rows_per_s,
        "elapsed_s": report.elapsed_s, "embed_ms": report.embed_ms, "write_ms": report.write_ms,
        "errors": dg.MetadataValue.json(report.errors[:10]),
        "preview": table(["memory", "reason", "content"], [list(p) for p in report.preview], empty="nothing refreshed"),
    }


def _log(context: dg.AssetExecutionContext, report: RefreshReport) -> None:
    if report.skipped:
        context.log.warning("refresh skipped: %s", report.skipped)
    if report.failed:
        context.log.warning("%d memories not re-embedded (provider failure): %s", report.failed, report.errors[-1])
    if report.remaining:
        context.log.info("%d memories still need a vector (%s); the sensor requests the next run",
                         report.remaining, report.stopped or "done")


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"}, deps=[MEMORIES],
    description="Embedding refresh: re-embeds live memories whose vector is missing, was written under an older "
                "content hash, or is of another model or dimension (model switch), most recently updated first, in "
                "provider calls of embeddingTracker.batchSize, one short write per batch (vectors, vec0 index, "
                "memories.embedding_model; orphaned old-hash vectors removed). Memories changed within the last "
                "minute are left to the API's write-behind embedder. Up to 5,000 memories or 120 s per run; "
                "a provider failure ends the run and is counted.",
)
def embedding_refresh(context: dg.AssetExecutionContext, config: RefreshConfig,
                      signet: SignetStoreResource) -> dg.MaterializeResult:
    if not signet.settings().pipeline.embedding_tracker.enabled:
        context.log.info("the tracker is disabled (memory.pipelineV2.embeddingTracker.enabled = false)")
        return dg.MaterializeResult(metadata={"enabled": False, "refreshed": 0})
    report = run_refresh(signet.service(), batch_size=config.batch_size or None, max_rows=config.max_rows,
                         time_budget_s=config.time_budget_s, updated_before=grace_cutoff())
    _log(context, report)
    return dg.MaterializeResult(metadata={"enabled": True, **_metadata(report)})


def embedding_backfill_over(days: dg.PartitionsDefinition) -> dg.AssetsDefinition:
    """The embedding backfill with a partition per day of `days` (MEMORY_DAYS in the code location)."""

    @history_backfill(
        days,
        group_name=GROUP, kinds={"python", "sqlite"}, deps=[MEMORIES],
        description="Embedding backfill over history: re-embeds the memories created in the selected days (UTC) "
                    "that need a vector (missing, old hash, other model or dimension), or all of them with `force`. "
                    "A range of days runs as one run; no row cap.",
    )
    def embedding_backfill(context: dg.AssetExecutionContext, config: BackfillConfig,
                           signet: SignetStoreResource) -> dg.MaterializeResult:
        start, end = selected_days(context)
        report = run_backfill(signet.service(), start, end, force=config.force, batch_size=config.batch_size or None)
        _log(context, report)
        return dg.MaterializeResult(metadata={"partition_range": f"{start} .. {end}", "force": config.force,
                                              **_metadata(report)})

    return embedding_backfill


embedding_backfill = embedding_backfill_over(MEMORY_DAYS)


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"}, deps=[EMBEDDINGS],
    description="UMAP projection (2D and/or 3D) of the live memories with a vector of the configured model: "
                "nNeighbors = min(15, max(2, n-1)), cosine, fixed seed; each axis normalised to [-210, 210]; edges to "
                "each point's 4 nearest neighbours (exact, KD-tree). Cached in umap_cache with the fingerprint of the "
                "projected set; serves the requests GET /api/embeddings/projection recorded. The first fit in a run "
                "loads UMAP's numba code from its disk cache (compiles it, for seconds, the first time).",
)
def embedding_projection(context: dg.AssetExecutionContext, config: ProjectionConfig,
                         signet: SignetStoreResource) -> dg.MaterializeResult:
    invalid = [d for d in config.dimensions if d not in (2, 3)]
    if invalid:
        raise dg.Failure(f"dimensions must be 2 or 3, got {invalid}")
    model = signet.settings().embedding.model
    with signet.database(migrated=True) as db:
        if db is None:
            return dg.MaterializeResult(metadata={"points": 0, "dims": dg.MetadataValue.json([]),
                                                  "note": "no store yet"})
        with db.write() as conn:  # claimed now: a failed run leaves no request behind to block a retry
            claimed = proj_store.claim_requests(conn)
        with db.read() as conn:
            wanted = sorted(set(config.dimensions) or set(claimed) | set(proj_store.cached_fingerprints(conn)))
        reports = [project_store(db, model, dims, force=dims in config.dimensions) for dims in wanted]
    computed = [r for r in reports if r.layout is not None]
    fits = [r.layout for r in reports if r.layout is not None and r.layout.method == "umap"]
    loaded, compiled = sum(f.jit_loaded for f in fits), sum(f.jit_compiled for f in fits)
    if not fits:
        jit = "no UMAP fit in this run"
    elif fits[0].first_fit:
        jit = (f"first UMAP fit in this process: {fits[0].fit_ms / 1000:.1f} s; numba loaded {loaded} compiled "
               f"functions from its disk cache and compiled {compiled}; importing umap took "
               f"{fits[0].import_ms / 1000:.1f} s")
        context.log.info(jit)
    else:
        jit = "warm: umap was already imported and compiled in this process"
    warnings = sorted({w for r in reports if r.layout is not None for w in r.layout.warnings})
    for warning in warnings:
        context.log.warning("umap: %s", warning)
    preview = computed[0].preview if computed else []
    axes = [a for a in "xyz" if preview and a in preview[0]]
    return dg.MaterializeResult(metadata={
        "model": model, "points": max((r.points for r in reports), default=0),
        "dims": dg.MetadataValue.json([r.dimensions for r in computed]),
        "requests_served": dg.MetadataValue.json({f"{d}d": at for d, at in claimed.items()}),
        **{f"elapsed_ms_{r.dimensions}d": round(r.elapsed_ms, 1) for r in computed},
        **{f"edges_{r.dimensions}d": r.edges for r in computed},
        "per_dimension": table(
            ["dims", "points", "method", "nNeighbors", "fit ms", "edges", "edges ms", "total ms", "skipped"],
            [[r.dimensions, r.points, r.layout.method if r.layout else "-",
              r.layout.n_neighbors if r.layout and r.layout.n_neighbors else "-",
              round(r.layout.fit_ms, 1) if r.layout else "-", r.edges,
              round(r.layout.edges_ms, 1) if r.layout else "-", round(r.elapsed_ms, 1), r.skipped or "-"]
             for r in reports], empty="nothing requested or stale"),
        "jit": jit, "jit_from_cache": loaded, "jit_compiled": compiled,
        "degenerate": bullet_list([f"{r.dimensions}d: {r.points} point(s), laid out by PCA (UMAP needs more than "
                                   f"{r.dimensions + 1})"
                                   for r in reports if r.layout is not None and r.layout.method == "pca"]),
        "warnings": bullet_list(warnings),
        "preview": table(["id", *axes, "content"], [[n["id"][:8], *(n[a] for a in axes), n["content"][:80]]
                                                    for n in preview], empty="no points"),
    })
