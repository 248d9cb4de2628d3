"""How due queue jobs become Dagster runs (the sensor is a thin shell over `plan_runs`).

New jobs (id above the cursor) are cut into batches of up to `batch_size`, one run each, keyed by
their id range so a repeated tick never launches a batch twice. Jobs at or below the cursor that
are due again — retries after a failure or a reaped lease, and jobs whose run never leased them —
go into one catch-up run keyed by the exact (id, attempts) set: unchanged state, same key, no
duplicate run; a new failure changes the attempts and so the key.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from signet_pipeline.store.db import Row


@dataclass(frozen=True)
class RunPlan:
    run_key: str
    job_ids: tuple[int, ...]
    kind: str  # new | retry


def plan_runs(due: list[Row], *, cursor: int, batch_size: int, stranded_before: str,
              prefix: str = "extract") -> tuple[list[RunPlan], int]:
    """(runs to request, new cursor). `stranded_before`: a never-attempted job created before
    this time whose id is behind the cursor had a run that did not take it."""
    fresh = [j for j in due if j["id"] > cursor]
    behind = [j for j in due if j["id"] <= cursor and (j["attempts"] > 0 or j["created_at"] < stranded_before)]
    plans = []
    for start in range(0, len(fresh), batch_size):
        ids = tuple(j["id"] for j in fresh[start:start + batch_size])
        plans.append(RunPlan(f"{prefix}-{ids[0]}-{ids[-1]}", ids, "new"))
    for start in range(0, len(behind), batch_size):
        chunk = behind[start:start + batch_size]
        state = ",".join(f"{j['id']}:{j['attempts']}" for j in chunk)
        digest = hashlib.sha1(state.encode()).hexdigest()[:12]
        plans.append(RunPlan(f"{prefix}-retry-{digest}", tuple(j["id"] for j in chunk), "retry"))
    return plans, max([cursor, *(j["id"] for j in fresh)])
