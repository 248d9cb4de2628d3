"""Hubness correction for the vector signal.

Short, generic memories ("Of course.", "Ada: story of my life") sit close to very many queries in
embedding space — they are hubs — and outrank the specific memory a question is about. Following
cross-domain similarity local scaling (CSLS), each candidate's cosine is lowered by how similar it
is to its nearest fellow candidates (centred on the pool's mean, so the correction is relative):
a memory that resembles everything in the pool says little about this query in particular.
Cost: one (n x n) product over the ~100 candidates of a recall.
"""

from __future__ import annotations

import numpy as np


def neighbour_similarity(vectors: np.ndarray, k: int) -> np.ndarray:
    """Mean cosine of each row to its k most similar other rows."""
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, -np.inf)
    k = min(k, len(vectors) - 1)
    top = -np.partition(-sims, k - 1, axis=1)[:, :k]
    return top.mean(axis=1)


def dampen_hubs(cosines: dict[str, float], vectors: dict[str, np.ndarray], *, penalty: float,
                neighbours: int, extra: dict[str, float] | None = None) -> dict[str, float]:
    """cosine - penalty x (neighbour similarity - its mean over the pool), floored at 0.

    Candidates without a vector keep their cosine; pools too small to compare are left alone.
    `extra` candidates (the graph's) are corrected against the pool without joining it: many
    memories about one entity would otherwise make each other look like hubs.
    """
    ids = [mid for mid in cosines if mid in vectors]
    if penalty <= 0 or len(ids) <= neighbours:
        return {**cosines, **(extra or {})}
    pool = np.stack([vectors[mid] for mid in ids])
    hubness = neighbour_similarity(pool, neighbours)
    centre = hubness.mean()
    adjusted = {**cosines, **(extra or {})}
    for mid, h in zip(ids, hubness):
        adjusted[mid] = max(0.0, cosines[mid] - penalty * float(h - centre))
    outside = [mid for mid in (extra or {}) if mid in vectors and mid not in cosines]
    if outside:
        sims = np.stack([vectors[mid] for mid in outside]) @ pool.T
        top = -np.partition(-sims, neighbours - 1, axis=1)[:, :neighbours]
        for mid, h in zip(outside, top.mean(axis=1)):
            adjusted[mid] = max(0.0, extra[mid] - penalty * float(h - centre))
    return adjusted
