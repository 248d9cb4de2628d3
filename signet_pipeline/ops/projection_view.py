"""GET /api/embeddings/projection (memory-api.txt): the cached UMAP projection when it is fresh;
otherwise a recorded request for the pipeline, answered at once with the last layout computed
(`stale: true`) or, before the first one, 202 "computing".

Fresh means computed from the set projected now (same fingerprint: model, count, memories and
vectors). The embedding_projection asset computes it in a Dagster run (seconds); this module only
reads the cache and records requests, and never imports umap. A stale layout shows the memories
still in the set and readable now, at their old places, with what they hold now; memories added
since appear with the recompute.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

import apsw
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
    stale: bool = Field(False, description="laid out before the latest changes (memories added since are missing); "
                                           "a recompute was requested: poll again for the fresh layout")
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
        vec_dims = emb_store.vec_dimensions(conn)
        state = proj_store.source_state(conn, model, vec_dims, agent_id)
        found = proj_store.cached(conn, dims)
        owners = agents_store.readable_owners(conn, agent_id)
        if found is not None and found["fingerprint"] == state.fingerprint:
            return ProjectionAnswer(200, _cached_body(found, state.visible, agent_id, owners))
        stale = _stale_body(conn, found, state.visible, agent_id, owners, model, vec_dims) \
            if found is not None and vec_dims else None
        pending = proj_store.requested_at(conn, dims)
    now = now or datetime.now(UTC)
    renew_before = to_iso(now - RENEW_AFTER)
    if pending is None or pending < renew_before:  # one short write, only when there is news
        with db.write() as conn:
            proj_store.record_request(conn, dims, now=to_iso(now), renew_before=renew_before)
    if stale is not None:
        return ProjectionAnswer(200, stale)
    return ProjectionAnswer(202, ProjectionComputing(dimensions=dims, total=state.visible).model_dump_json())


def node(row: Row, point: Sequence[float]) -> dict:
    """A node as GET /api/embeddings/projection shows it (memory-api.txt)."""
    found = {"id": row["id"], "x": float(point[0]), "y": float(point[1])}
    if len(point) == 3:
        found["z"] = float(point[2])
    return {**found, "content": row["content"], "who": row["who"], "importance": row["importance"],
            "type": row["type"], "tags": json.loads(row["tags"]), "pinned": bool(row["pinned"]),
            "sourceType": row["source_type"], "sourceId": row["source_id"], "createdAt": row["created_at"]}


def _readable(owner: str, visibility: str, agent_id: str, owners: set[str] | None) -> bool:
    """The reader's policy: its own nodes, and the global ones of `owners` (None: every owner)."""
    return (owner == agent_id and visibility != "archived") or (visibility == "global" and
                                                                (owners is None or owner in owners))


def _body(found: Row, total: int, nodes: list[dict], edges: list[list[int]], kept: list[int], *,
          stale: bool) -> str:
    """The answer with the nodes kept (indexes into the cached ones) and the edges between them."""
    renumber = {old: new for new, old in enumerate(kept)}
    return json.dumps({"status": "cached", "stale": stale, "dimensions": found["dimensions"], "count": len(nodes),
                       "total": total, "nodes": nodes,
                       "edges": [[renumber[a], renumber[b]] for a, b in edges if a in renumber and b in renumber],
                       "cachedAt": found["cached_at"]}, separators=(",", ":"))


def _cached_body(found: Row, total: int, agent_id: str, owners: set[str] | None) -> str:
    """The cached nodes and edges the reader's policy lets it see. When that is all of them the
    stored JSON is spliced in as is: parsing and re-encoding it costs tens of ms per 10k nodes
    (bench/projection_bench.py)."""
    access = json.loads(found["private_json"])
    if all(_readable(owner, visibility, agent_id, owners) for owner, visibility in access):
        return (f'{{"status":"cached","stale":false,"dimensions":{found["dimensions"]},'
                f'"count":{found["embedding_count"]},"total":{total},{found["result_json"][1:-1]},'
                f'"cachedAt":{json.dumps(found["cached_at"])}}}')
    result = json.loads(found["result_json"])
    kept = [i for i, (owner, visibility) in enumerate(access) if _readable(owner, visibility, agent_id, owners)]
    return _body(found, total, [result["nodes"][i] for i in kept], result["edges"], kept, stale=False)


def _stale_body(conn: apsw.Connection, found: Row, total: int, agent_id: str, owners: set[str] | None,
                model: str, vec_dims: int) -> str:
    """The last layout, for a set that changed since: the nodes whose memory is still in the set and
    readable by the reader now, at their old places, with their current content and metadata (an
    edit, a delete or a visibility change shows at once; only the places wait for the recompute)."""
    result = json.loads(found["result_json"])
    current = proj_store.source_rows_by_id(conn, model, vec_dims, [n["id"] for n in result["nodes"]])
    kept = [i for i, n in enumerate(result["nodes"])
            if (row := current.get(n["id"])) is not None and _readable(row["agent_id"], row["visibility"], agent_id,
                                                                       owners)]
    nodes = [node(current[n["id"]], [n[a] for a in "xyz" if a in n]) for n in (result["nodes"][i] for i in kept)]
    return _body(found, total, nodes, result["edges"], kept, stale=True)
