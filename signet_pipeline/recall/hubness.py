"""Hubness correction for the vector signal (CSLS-style): a candidate's cosine is lowered by how
similar it is to its nearest fellow candidates, so short generic memories that sit near every query
stop outranking the specific one. A remembered memory is compared with other families (a memory
and its derived facts) so its own facts do not make it look like a hub. Design:
docs/internals.md; settings and measurements: docs/decisions.md.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def _mean_of_top(sims: np.ndarray, k: int) -> np.ndarray:
    k = min(k, sims.shape[1])
    return (-np.partition(-sims, k - 1, axis=1)[:, :k]).mean(axis=1)


def by_family(sims: np.ndarray, columns: list[str], rows: list[str]) -> np.ndarray:
    """sims (rows x columns) -> (rows x families of the columns): each family's closest member, and
    -inf for the row's own family."""
    labels = list(dict.fromkeys(columns))
    index = {f: i for i, f in enumerate(labels)}
    column_family = np.array([index[f] for f in columns])
    order = np.argsort(column_family, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(column_family[order]) != 0])
    best = np.maximum.reduceat(sims[:, order], starts, axis=1)
    for r, family in enumerate(rows):
        if family in index:
            best[r, index[family]] = -np.inf
    return best


def dampen_hubs(cosines: dict[str, float], vectors: dict[str, np.ndarray], *, penalty: float,
                neighbours: int, extra: dict[str, float] | None = None,
                family: Callable[[str], str] | None = None) -> dict[str, float]:
    """cosine - penalty x (neighbour similarity - its mean over the pool), floored at 0.

    Candidates without a vector keep their cosine; pools too small to compare are left alone.
    `extra` candidates (the graph's) are corrected against the pool without joining it: many
    memories about one entity would otherwise make each other look like hubs. `family` (id -> the
    memory a derived fact came from, any other id -> itself): remembered memories are compared with
    other families, each counted once.
    """
    ids = [mid for mid in cosines if mid in vectors]
    if penalty <= 0 or len(ids) <= neighbours:
        return {**cosines, **(extra or {})}
    pool = np.stack([vectors[mid] for mid in ids])
    outside = [mid for mid in (extra or {}) if mid in vectors and mid not in cosines]
    members = [*ids, *outside]
    sims = np.stack([vectors[mid] for mid in members]) @ pool.T
    sims[np.arange(len(ids)), np.arange(len(ids))] = -np.inf  # not its own neighbour
    hubness = _mean_of_top(sims, neighbours)
    families = [family(mid) for mid in members] if family is not None else members
    remembered = np.array([f == mid for f, mid in zip(families, members)])
    if remembered.any() and not remembered.all():  # families of one (no derived fact) compare plainly as is
        grouped = by_family(sims, families[:len(ids)], families)
        if grouped.shape[1] > neighbours:  # enough other families to compare with
            hubness = np.where(remembered, _mean_of_top(grouped, neighbours), hubness)
    centre = hubness[:len(ids)].mean()
    adjusted = {**(extra or {}), **cosines}
    for mid, h in zip(members, hubness):
        adjusted[mid] = max(0.0, adjusted[mid] - penalty * float(h - centre))
    return adjusted
