"""Materialization metadata helpers shared by every domain: latency percentiles, bullet lists and
Markdown tables (what an operator reads on an asset's page in the Dagster UI)."""

from typing import Any, TypeAlias

import dagster as dg
import numpy as np

# What materializations and observations here carry: MetadataValues and the plain values Dagster
# wraps itself (a subset of its RawMetadataValue, which the dagster package does not export).
MetadataScalar: TypeAlias = dg.MetadataValue | str | int | float | None
Metadata: TypeAlias = dict[str, MetadataScalar]


def latency(values_ms: list[float], prefix: str) -> dict[str, Any]:
    if not values_ms:
        return {f"{prefix}_calls": 0}
    arr = np.asarray(values_ms)
    return {f"{prefix}_calls": len(values_ms), f"{prefix}_p50_ms": round(float(np.percentile(arr, 50)), 2),
            f"{prefix}_p95_ms": round(float(np.percentile(arr, 95)), 2)}


def bullet_list(lines: list[str], empty: str = "none") -> dg.MetadataValue:
    return dg.MetadataValue.md("\n".join(f"- {line}" for line in lines) if lines else f"_{empty}_")


def table(headers: list[str], rows: list[list[Any]], empty: str = "none") -> dg.MetadataValue:
    if not rows:
        return dg.MetadataValue.md(f"_{empty}_")

    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")[:160]

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return dg.MetadataValue.md("\n".join(lines))
