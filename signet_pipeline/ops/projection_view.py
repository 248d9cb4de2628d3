"""GET /api/embeddings/projection (memory-api.txt): the cached UMAP projection when it is fresh,
otherwise a recorded request for the pipeline and 202 "computing".

Fresh means computed from the set projected now (same fingerprint: model, count, memories and
vectors). The embedding_projection asset computes it in a Dagster run; this module only reads the
cache and records requests, and never imports umap.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Literal

from pydantic import BaseModel, Field

from signet_pipeline.store import agents as agents_store
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import projections as proj_store
from signet_pipeline.store.db import Database, Row
from signet_pipeline.timeutil import to_iso

# A request no run claimed for this long is stamped anew (a new run key): its run never started.
RENEW_AFTER = timedelta(minutes=10)


class ProjectionNode(BaseModel):
    id: str
    x: float
    y: float
    z: float | None = Field(None, description="3D projections only")
    content: str
    who: str | None
    importance: float
    type: str
    tags: list[str]
    pinned: bool
    sourceType: str
    sourceId: str | None
    createdAt: str


class ProjectionCached(BaseModel):
    status: Literal["cached"] = "cached"
    dimensions: int
    count: int = Field(description="nodes returned")
    total: int = Field(description="embedded memories visible to the reader")
    nodes: list[ProjectionNode]
    edges: list[tuple[int, int]] = Field(description="pairs of node indexes: each node's nearest neighbours")
    cachedAt: str


class ProjectionComputing(BaseModel):
    status: Literal["computing"] = "computing"
    dimensions: int
    count: int = 0
    total: int


@dataclass(frozen=True)
class ProjectionAnswer:
    status_code: int  # 200 cached, 202 computing
    body: str  # JSON of ProjectionCached or ProjectionComputing


def projection(db: Database, model: str, dims: int, agent_id: str, *, now: datetime | None = None) -> ProjectionAnswer:
    with db.read() as conn:
        state = proj_store.source_state(conn, model, emb_store.vec_dimensions(conn), agent_id)
        found = proj_store.cached(conn, dims)
        if found is not None and found["fingerprint"] == state.fingerprint:
            return ProjectionAnswer(200, _cached_body(found, state.visible, agent_id,
                                                      agents_store.readable_owners(conn, agent_id)))
        pending = proj_store.requested_at(conn, dims)
    now = now or datetime.now(timezone.utc)
    renew_before = to_iso(now - RENEW_AFTER)
    if pending is None or pending < renew_before:  # one short write, only when there is news
        with db.write() as conn:
            proj_store.record_request(conn, dims, now=to_iso(now), renew_before=renew_before)
    return ProjectionAnswer(202, ProjectionComputing(dimensions=dims, total=state.visible).model_dump_json())


def _cached_body(found: Row, total: int, agent_id: str, owners: set[str] | None) -> str:
    """The cached nodes and edges the reader's policy lets it see (its own, and the global ones of
    `owners`, None meaning every owner). When that is all of them the stored JSON is spliced in as
    is: parsing and re-encoding it costs tens of ms per 10k nodes (bench/projection_bench.py)."""
    hidden = {index for index, (owner, visibility) in enumerate(json.loads(found["private_json"]))
              if not ((owner == agent_id and visibility != "archived")
                      or (visibility == "global" and (owners is None or owner in owners)))}
    head = f'{{"status":"cached","dimensions":{found["dimensions"]},'
    tail = f',"cachedAt":{json.dumps(found["cached_at"])}}}'
    if not hidden:
        return f'{head}"count":{found["embedding_count"]},"total":{total},{found["result_json"][1:-1]}{tail}'
    result = json.loads(found["result_json"])
    kept = [i for i in range(len(result["nodes"])) if i not in hidden]
    renumber = {old: new for new, old in enumerate(kept)}
    nodes = [result["nodes"][i] for i in kept]
    edges = [[renumber[a], renumber[b]] for a, b in result["edges"] if a in renumber and b in renumber]
    body = json.dumps({"nodes": nodes, "edges": edges}, separators=(",", ":"))
    return f'{head}"count":{len(nodes)},"total":{total},{body[1:-1]}{tail}'
