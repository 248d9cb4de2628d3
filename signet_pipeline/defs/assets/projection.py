"""Embedding projection: UMAP 2D/3D of the embedded memories, cached in umap_cache for
GET /api/embeddings/projection. The API records requests (and answers 202); the sensor turns them
into runs; a daily schedule recomputes cached projections whose set changed. UMAP runs here, never
in a request (umap is imported inside the stage, on the first fit)."""

import dagster as dg
from pydantic import Field

from signet_pipeline.defs.assets.metadata import IN_FLIGHT, bullet_list, table
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.stages.projection import outstanding, project_store
from signet_pipeline.store import projections as proj_store

GROUP = "embeddings"
JOB_NAME = "project_embeddings"
class ProjectionConfig(dg.Config):
    dimensions: list[int] = Field(default_factory=list,
                                  description="output dimensions (2, 3) to recompute even when fresh; empty = those "
                                              "requested through the API or cached from a set that changed")


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"},
    description="UMAP projection (2D and/or 3D) of the live memories with a vector of the configured model: "
                "nNeighbors = min(15, max(2, n-1)), cosine, fixed seed; each axis normalised to [-210, 210]; edges to "
                "each point's 4 nearest neighbours (exact, KD-tree). Cached in umap_cache with the fingerprint of the "
                "projected set; serves the requests GET /api/embeddings/projection recorded. The first fit in a run "
                "includes numba compilation (seconds).",
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
    fits = [r.layout for r in computed if r.layout.method == "umap"]
    if not fits:
        jit = "no UMAP fit in this run"
    elif fits[0].first_fit:
        jit = (f"first UMAP fit in this process ({fits[0].fit_ms / 1000:.1f} s) includes numba compilation; "
               f"importing umap took {fits[0].import_ms / 1000:.1f} s")
        context.log.info(jit)
    else:
        jit = "warm: umap was already imported and compiled in this process"
    warnings = sorted({w for r in computed for w in r.layout.warnings})
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
        "jit": jit,
        "degenerate": bullet_list([f"{r.dimensions}d: {r.points} point(s), laid out by PCA (UMAP needs more than "
                                   f"{r.dimensions + 1})" for r in computed if r.layout.method == "pca"]),
        "warnings": bullet_list(warnings),
        "preview": table(["id", *axes, "content"], [[n["id"][:8], *(n[a] for a in axes), n["content"][:80]]
                                                    for n in preview], empty="no points"),
    })


projection_job = dg.define_asset_job(
    JOB_NAME, selection=dg.AssetSelection.assets(embedding_projection),
    description="Compute the UMAP projections the API was asked for (or that went stale). Launched by "
                "projection_request_sensor; launch it by hand with dimensions [2, 3] to recompute both now.",
)


@dg.sensor(name="projection_request_sensor", job=projection_job, minimum_interval_seconds=5,
           default_status=dg.DefaultSensorStatus.RUNNING,
           description="Watches umap_requests (recorded when GET /api/embeddings/projection answers 202) and requests "
                       "one project_embeddings run for the requested dimensions whose cache is not fresh; run key = "
                       "dimensions + request time, and nothing new while a projection run is queued or running.")
def projection_request_sensor(context: dg.SensorEvaluationContext, signet: SignetStoreResource) -> dg.SensorResult:
    settings = signet.settings()
    with signet.database() as db:
        if db is None:
            return dg.SensorResult(skip_reason=f"no memory store yet at {settings.db_path}")
        requested = outstanding(db, settings.embedding.model).requested
    if not requested:
        return dg.SensorResult(skip_reason="no projection requested that is not fresh")
    if context.instance.get_run_records(dg.RunsFilter(job_name=JOB_NAME, statuses=IN_FLIGHT), limit=1):
        return dg.SensorResult(skip_reason="a projection run is in flight; pending requests wait for it to finish")
    return dg.SensorResult(run_requests=[dg.RunRequest(
        run_key="projection-" + "-".join(f"{d}d@{at}" for d, at in sorted(requested.items())),
        tags={"signet/projection": ",".join(f"{d}d" for d in sorted(requested))})])


@dg.schedule(name="projection_refresh_schedule", job=projection_job, cron_schedule="45 4 * * *",
             default_status=dg.DefaultScheduleStatus.RUNNING,
             description="Once a day (04:45), recompute cached projections whose set of memories changed, so the "
                         "next GET is served at once; skips when every cached projection is fresh.")
def projection_refresh_schedule(context: dg.ScheduleEvaluationContext, signet: SignetStoreResource):
    settings = signet.settings()
    with signet.database() as db:
        stale = outstanding(db, settings.embedding.model).stale_cached if db is not None else []
    if not stale:
        return dg.SkipReason("every cached projection is fresh (or none was ever requested)")
    return dg.RunRequest(tags={"signet/projection": ",".join(f"{d}d" for d in stale)})
