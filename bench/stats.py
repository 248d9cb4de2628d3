"""Percentile summaries of latency samples."""

from __future__ import annotations

import time
from collections.abc import Iterable

import numpy as np


def summary(values: Iterable[float]) -> dict[str, float]:
    """p50 / p95 / mean / max / n of samples in ms (NaN when there are none)."""
    arr = np.asarray(list(values), dtype=np.float64)
    if arr.size == 0:
        nan = float("nan")
        return {"p50": nan, "p95": nan, "mean": nan, "max": nan, "n": 0}
    return {
        "p50": round(float(np.percentile(arr, 50)), 3),
        "p95": round(float(np.percentile(arr, 95)), 3),
        "mean": round(float(arr.mean()), 3),
        "max": round(float(arr.max()), 3),
        "n": int(arr.size),
    }


def ratio(ours: float, floor: float) -> float:
    if not floor or floor != floor or ours != ours:
        return float("nan")
    return round(ours / floor, 2)


class Timer:
    """`with Timer() as t: ...` then `t.ms`."""

    def __enter__(self) -> Timer:
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.ms = (time.perf_counter() - self._start) * 1000
