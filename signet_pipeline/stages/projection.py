"""UMAP projection of the embedded memories (architecture.txt "UMAP Projection").

Plain functions over the store, run by the embedding_projection asset (never in a request: the
first UMAP call in a process loads or compiles numba code, umap_jit.py). `umap` is imported lazily.

- nNeighbors = min(15, max(2, n-1)), cosine metric, fixed seed (same input, same layout).
- UMAP's spectral initialisation needs more than dims + 1 points; smaller sets (0-3 points in 2D,
  0-4 in 3D) are laid out by PCA of the vectors instead, and the report says so.
- Each axis is min-max normalised to [-210, 210].
- Edges: each point's 4 nearest neighbours in the projected space (as the reference draws them),
  found exactly with a KD-tree at every size. Neither the spec's O(n^2) matrix (up to 450 points)
  nor its sliding windows (above) is faster than the tree, and at 10k points the windows miss 5 %
  (2D) to 15 % (3D) of the neighbours (bench/projection_bench.py).
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy.spatial import KDTree

from signet_pipeline.ops.projection_view import node
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import projections as proj_store
from signet_pipeline.store.db import Database
from signet_pipeline.timeutil import now_iso

SCALE = 210.0
EDGE_K = 4
SEED = 42
MAX_NEIGHBORS = 15

_umap_fits = 0  # UMAP fits in this process: the first one loads (or compiles) numba's code


def _no_edges() -> np.ndarray:
    return np.empty((0, 2), dtype=np.int64)


@dataclass
class Layout:
    method: str  # "umap" | "pca" (too few points for UMAP) | "empty"
    coords: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))  # n x dims, each axis in [-SCALE, SCALE]
    edges: np.ndarray = field(default_factory=_no_edges)  # m x 2 int, i < j, sorted
    n_neighbors: int | None = None
    first_fit: bool = False  # the first fit in this process: it loaded or compiled numba's code
    jit_loaded: int = 0  # compiled functions (per signature) numba loaded from its disk cache in this fit
    jit_compiled: int = 0  # ... and compiled (not cached yet, or cached by another numba/umap)
    import_ms: float = 0.0
    fit_ms: float = 0.0
    edges_ms: float = 0.0
    warnings: list[str] = field(default_factory=list)


def n_neighbors_for(n: int) -> int:
    return min(MAX_NEIGHBORS, max(2, n - 1))


def umap_possible(n: int, dims: int) -> bool:
    """UMAP's spectral init solves for dims + 1 eigenvectors, which needs more points than that."""
    return n > dims + 1


def pca(vectors: np.ndarray, dims: int) -> np.ndarray:
    """First `dims` principal components (zeros where there are fewer), signs fixed so the largest
    coordinate of each axis is positive (SVD signs are arbitrary)."""
    centred = vectors.astype(np.float64) - vectors.mean(axis=0)
    u, s, _ = np.linalg.svd(centred, full_matrices=False)
    out = np.zeros((len(vectors), dims))
    width = min(dims, len(s))
    out[:, :width] = u[:, :width] * s[:width]
    for axis in range(width):
        if out[np.argmax(np.abs(out[:, axis])), axis] < 0:
            out[:, axis] = -out[:, axis]
    return out


def fit_umap(vectors: np.ndarray, dims: int, seed: int = SEED) -> tuple[np.ndarray, Layout]:
    """Raw UMAP coordinates and the timing/warnings part of the layout."""
    global _umap_fits
    started = time.perf_counter()
    imported = "umap" in sys.modules
    import umap  # lazy: seconds to import, and only Dagster runs and benchmarks need it

    from signet_pipeline.stages import umap_jit  # numba, like umap: only where a fit runs

    import_ms = 0.0 if imported else (time.perf_counter() - started) * 1000
    jit_before = umap_jit.jit_counts()
    nn = n_neighbors_for(len(vectors))
    reducer = umap.UMAP(n_components=dims, n_neighbors=nn, metric="cosine", random_state=seed, n_jobs=1)
    started = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        raw = reducer.fit_transform(vectors)
    fit_ms = (time.perf_counter() - started) * 1000
    jit = umap_jit.jit_counts().since(jit_before)
    first = _umap_fits == 0
    _umap_fits += 1
    return np.asarray(raw, dtype=np.float64), Layout(
        method="umap", n_neighbors=nn, first_fit=first, jit_loaded=jit.loaded, jit_compiled=jit.compiled,
        import_ms=import_ms, fit_ms=fit_ms, warnings=sorted({str(w.message)[:200] for w in caught}))


def normalize(raw: np.ndarray) -> np.ndarray:
    """Min-max per axis to [-SCALE, SCALE]; an axis with no spread sits at 0."""
    lo, hi = raw.min(axis=0), raw.max(axis=0)
    span = hi - lo
    scaled = np.where(span > 0, (raw - lo) / np.where(span > 0, span, 1.0), 0.5)
    return np.round((scaled - 0.5) * (2 * SCALE), 3)


def knn_edges(points: np.ndarray, k: int = EDGE_K) -> np.ndarray:
    """Undirected edges from each point to its k nearest others (exact, KD-tree), as sorted (i, j)
    pairs with i < j. Duplicate points may push a point out of its own first slot, hence the mask."""
    n = len(points)
    k = min(k, n - 1)
    if k < 1:
        return _no_edges()
    _, idx = KDTree(points).query(points, k=k + 1)
    own = idx == np.arange(n)[:, None]
    keep = ~own & (own.any(axis=1)[:, None] | (np.arange(k + 1) < k)[None, :])
    pairs = np.stack([np.repeat(np.arange(n), k + 1).reshape(n, k + 1)[keep], idx[keep]], axis=1)
    return np.unique(np.sort(pairs, axis=1), axis=0)


def layout(vectors: np.ndarray, dims: int, *, seed: int = SEED) -> Layout:
    """Coordinates and edges for n vectors (any n, including 0)."""
    n = len(vectors)
    if n == 0:
        return Layout(method="empty", coords=np.zeros((0, dims)))
    if umap_possible(n, dims):
        raw, out = fit_umap(vectors, dims, seed)
    else:
        raw, out = pca(vectors, dims), Layout(method="pca")
    started = time.perf_counter()
    out.edges = knn_edges(raw)  # in UMAP's own space: normalising each axis apart would skew distances
    out.edges_ms = (time.perf_counter() - started) * 1000
    out.coords = normalize(raw)
    return out


@dataclass
class ProjectionReport:
    dimensions: int
    points: int = 0
    edges: int = 0
    skipped: str | None = None  # why nothing was computed
    elapsed_ms: float = 0.0
    layout: Layout | None = None
    preview: list[dict] = field(default_factory=list)


def project_store(db: Database, model: str, dims: int, *, force: bool = False) -> ProjectionReport:
    """Compute and cache the projection of the current set, unless the cache is already fresh.

    Reads in one snapshot, fits outside any transaction, writes the cache in one short one. A set
    that changed meanwhile leaves the cache stale, so the next request asks again."""
    started = time.perf_counter()
    with db.read() as conn:
        vec_dims = emb_store.vec_dimensions(conn)
        state = proj_store.source_state(conn, model, vec_dims)
        if not force and proj_store.cached_fingerprints(conn).get(dims) == state.fingerprint:
            return ProjectionReport(dims, points=state.count, skipped="cache already fresh")
        found, matrix = proj_store.source_rows(conn, model, vec_dims) if vec_dims else ([], np.zeros((0, 1)))
    lay = layout(matrix, dims)
    nodes = [node(row, point) for row, point in zip(found, lay.coords)]
    # Who may see each node depends on the reader's policy: keep every node's owner and visibility.
    access = [[row["agent_id"], row["visibility"]] for row in found]
    payload = json.dumps({"nodes": nodes, "edges": lay.edges.tolist()}, separators=(",", ":"))
    elapsed_ms = (time.perf_counter() - started) * 1000
    with db.write() as conn:
        proj_store.write_cache(conn, dims=dims, state=state, result_json=payload, private_json=json.dumps(access),
                               elapsed_ms=elapsed_ms, now=now_iso())
    return ProjectionReport(dims, points=len(nodes), edges=len(lay.edges), elapsed_ms=elapsed_ms, layout=lay,
                            preview=nodes[:10])


@dataclass(frozen=True)
class Outstanding:
    """Projection work the store calls for."""

    requested: dict[int, str]  # dimensions asked for through the API and not fresh -> requested_at
    stale_cached: list[int]  # dimensions cached from a set that has changed since


def outstanding(db: Database, model: str) -> Outstanding:
    with db.read() as conn:
        if not proj_store.ready(conn):
            return Outstanding({}, [])
        state = proj_store.source_state(conn, model, emb_store.vec_dimensions(conn))
        cached = proj_store.cached_fingerprints(conn)
        pending = proj_store.pending_requests(conn)
    return Outstanding({d: at for d, at in pending.items() if cached.get(d) != state.fingerprint},
                       sorted(d for d, fingerprint in cached.items() if fingerprint != state.fingerprint))
