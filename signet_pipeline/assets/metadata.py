"""Shared pieces of the assets: the run config of queue-driven assets and materialization
metadata helpers (what an operator reads in the Dagster UI)."""
from typing import Any

import dagster as dg
import numpy as np
from pydantic import Field


class QueueBatchConfig(dg.Config):
    job_ids: list[int] = Field(default_factory=list,
                               description="memory_jobs ids of the batch (set by the sensor); empty = oldest due jobs")
    max_jobs: int = Field(0, ge=0, le=1000, description="jobs to lease; 0 = memory.pipelineV2.worker.batchSize")

    def limit(self, batch_size: int) -> int:
        return self.max_jobs or max(len(self.job_ids), batch_size)


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
