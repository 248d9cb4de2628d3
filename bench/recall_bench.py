"""In-process recall latency against the floor, for both vector backends.

Modes, each over the whole query set after a short unmeasured warm-up:
- `cached`: every query vector is put in the service's LRU first (svc.embed_query), so recall_memories()
  measures everything but the embedding (checked: the embedder is not called during the pass);
- `fresh`: the LRU is cleared before each call, so recall_memories() embeds the query (on its worker
  thread, in parallel with FTS);
- `sqlite_vec`: a second MemoryService over the same database with
  search.vector_backend = "sqlite-vec", query vectors cached as in `cached`.
Ours and the floor run in separate passes over the query set, not interleaved query by query:
on a 2-core machine OpenBLAS's worker threads keep spinning for a moment after a matmul, and
whatever runs next pays for it (a floor matmul right before each recall made recall's
memory_fts stage ~3x slower for short queries at 100k).
The time of a recall is the wall-clock time of the recall_memories() call (it includes the stages in
meta.timings plus result models and access bookkeeping).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from contextlib import contextmanager

import numpy as np

from bench.dataset import Memory, Query
from bench.floor import Floor
from bench.stats import Timer, summary
from signet_pipeline.models import RecallRequest, RecallResult
from signet_pipeline.recall.search import recall_memories
from signet_pipeline.service import MemoryService

WARMUP = 20
STAGES = ("memory_fts", "query_embedding_wait", "vector_search", "final_rank")


class _Samples:
    def __init__(self) -> None:
        self.wall: list[float] = []
        self.stages: dict[str, list[float]] = defaultdict(list)
        self.by_kind: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        self.methods: dict[str, int] = defaultdict(int)
        self.returned: list[int] = []
        self.keyword_hits: list[bool] = []

    def add(self, query: Query, wall: float, result: RecallResult, mems: list[Memory]) -> None:
        self.wall.append(wall)
        self.by_kind[query.kind]["wall"].append(wall)
        for stage in result.meta["timings"]["stages"]:
            self.stages[stage["name"]].append(stage["durationMs"])
            self.by_kind[query.kind][stage["name"]].append(stage["durationMs"])
        self.methods[result.method] += 1
        self.returned.append(len(result.results))
        if query.kind == "keyword" and query.target is not None:
            self.keyword_hits.append(any(h.content == mems[query.target].content for h in result.results))

    def report(self) -> dict:
        return {
            "wall": summary(self.wall),
            "stages": {name: summary(v) for name, v in self.stages.items()},
            "by_kind": {kind: {name: summary(v) for name, v in d.items()} for kind, d in self.by_kind.items()},
            "methods": dict(self.methods),
            "avg_returned": round(float(np.mean(self.returned)), 2) if self.returned else 0.0,
            "keyword_target_hit_at_10": round(float(np.mean(self.keyword_hits)), 3) if self.keyword_hits else None,
        }


class _FloorSamples:
    def __init__(self) -> None:
        self.total: list[float] = []
        self.fts: list[float] = []
        self.vector: list[float] = []
        self.embed: list[float] = []
        self.fts_by_kind: dict[str, list[float]] = defaultdict(list)

    def add(self, kind: str, fts: float, vector: float, embed: float = 0.0) -> None:
        self.total.append(fts + vector + embed)
        self.fts.append(fts)
        self.vector.append(vector)
        self.fts_by_kind[kind].append(fts)
        if embed:
            self.embed.append(embed)

    def report(self) -> dict:
        out = {"total": summary(self.total), "fts": summary(self.fts), "vector": summary(self.vector),
               "fts_by_kind": {k: summary(v) for k, v in self.fts_by_kind.items()}}
        if self.embed:
            out["embed"] = summary(self.embed)
        return out


@contextmanager
def counting_embed_calls(embedder):
    """Count embed_one calls on the shared embedder (instance attribute, removed afterwards):
    the proof that the `cached` passes never ran the model."""
    calls = [0]
    original = embedder.embed_one

    def counted(text):
        calls[0] += 1
        return original(text)

    embedder.embed_one = counted
    try:
        yield calls
    finally:
        del embedder.embed_one


def _timed_recall(svc: MemoryService, text: str) -> tuple[float, RecallResult]:
    req = RecallRequest(query=text)
    with Timer() as t:
        result = recall_memories(svc, req)
    return t.ms, result


def _warm(svc: MemoryService, queries: list[Query]) -> None:
    for q in queries[:WARMUP]:
        recall_memories(svc, RecallRequest(query=q.text))


def run(svc: MemoryService, svc_vec: MemoryService, svc_flat: MemoryService, floor: Floor, queries: list[Query],
        mems: list[Memory], log: Callable[[str], None]) -> dict:
    embedder = svc.embedder

    # (i) query vector cached: recall without the embedding, next to the floor without it.
    vectors = [svc.embed_query(q.text) for q in queries]
    _warm(svc, queries)
    for q, v in zip(queries[:WARMUP], vectors):
        floor.timed(q.text, v)
    ours, low = _Samples(), _FloorSamples()
    with counting_embed_calls(embedder) as calls:
        for q in queries:
            wall, result = _timed_recall(svc, q.text)
            ours.add(q, wall, result, mems)
    for q, v in zip(queries, vectors):
        fts, vec = floor.timed(q.text, v)
        low.add(q.kind, fts, vec)
    cached = {"ours": ours.report(), "floor": low.report(), "embed_calls": calls[0]}
    cached["cache_hit_verified"] = calls[0] == 0
    wait = cached["ours"]["stages"].get("query_embedding_wait", {}).get("p50", float("nan"))
    log(f"    cached:     ours p50 {cached['ours']['wall']['p50']:.2f} ms  floor p50 "
        f"{cached['floor']['total']['p50']:.2f} ms  (embedder calls {calls[0]}, "
        f"query_embedding_wait p50 {wait:.3f} ms)")

    # (ii) fresh query: recall embeds it; the floor embeds it with a bare embed_one call.
    ours, low = _Samples(), _FloorSamples()
    for q in queries:
        svc._query_cache.clear()
        wall, result = _timed_recall(svc, q.text)
        ours.add(q, wall, result, mems)
    for q in queries:
        with Timer() as t:
            v = embedder.embed_one(q.text)
        fts, vec = floor.timed(q.text, v)
        low.add(q.kind, fts, vec, t.ms)
    fresh = {"ours": ours.report(), "floor": low.report()}
    log(f"    fresh:      ours p50 {fresh['ours']['wall']['p50']:.2f} ms  floor p50 "
        f"{fresh['floor']['total']['p50']:.2f} ms")

    # (iii) sqlite-vec backend, query vector cached.
    for q, v in zip(queries, vectors):
        svc_vec._query_cache[q.text] = v
    _warm(svc_vec, queries)
    ours = _Samples()
    with counting_embed_calls(embedder) as calls:
        for q in queries:
            wall, result = _timed_recall(svc_vec, q.text)
            ours.add(q, wall, result, mems)
    sqlite_vec = {"ours": ours.report(), "embed_calls": calls[0]}
    log(f"    sqlite-vec: ours p50 {sqlite_vec['ours']['wall']['p50']:.2f} ms")

    # (iv) graph walk off, query vector cached: what it costs.
    for q, v in zip(queries, vectors):
        svc_flat._query_cache[q.text] = v
    _warm(svc_flat, queries)
    ours = _Samples()
    for q in queries:
        wall, result = _timed_recall(svc_flat, q.text)
        ours.add(q, wall, result, mems)
    graph_off = {"ours": ours.report()}
    log(f"    graph off:  ours p50 {graph_off['ours']['wall']['p50']:.2f} ms  keyword hit@10 "
        f"{graph_off['ours']['keyword_target_hit_at_10']} (on: {cached['ours']['keyword_target_hit_at_10']})")
    return {"cached": cached, "fresh": fresh, "sqlite_vec": sqlite_vec, "graph_off": graph_off}
