"""Where recall's tail comes from on a large store: each leg timed alone and inside recall, beside
the floor, at p50 / p95 / p99.

    .venv/bin/python -m bench.recall_tail_bench --workspace bench/.data/tail-ws-1m [--pool 200000] [--seed 11]
        [--queries 300] [--link 200000] [--settings '{"search": {"graphHubMentions": 0}}'] [--http]
        [--before-src DIR]

The workspace holds a store imported from the scale bench's snapshot (bench/scale_snapshot.py, same
pool and seed); the queries are the scale bench's (bench/dataset.py: keyword, paraphrase, frequent).
In process, with the workspace's settings (plus `--settings`):
1. legs alone, each query's vector cached: the first read of its words' document counts (then
   cached, as in the service), the keyword leg (words -> MATCH within the budget, FTS5 over content
   and hints), the graph leg (focal entities, the walk, visibility) and the vector leg (index
   search, id mapping), one after the other;
2. recall_memories() with the query vector cached: wall time and its stages (meta.timings);
3. recall_memories() embedding each query (the LRU cleared first);
4. the floor: bare FTS5 top-50 of every query word (no budget, no join), numpy top-50 over the
   same vectors, one embed_one.
Keyword hit@10: a keyword query's result list holds its target sentence (or a copy of it: the
snapshot repeats each pool sentence, marked "(take N)"). `--link N` first runs the inline entity
linker over the first N memories (a snapshot carries no graph), so the graph leg has entities to
walk; linking is idempotent. `--http` adds recall over HTTP (`signet serve`, one keep-alive client):
every query once (the server embeds it and reads its words' document counts), as many new queries
(most of their words known by then), then the first ones again (the LRU has their vectors). With
`--before-src DIR` a second server runs the code under DIR (PYTHONPATH) on the same store, and the
two are asked query by query in turn, so both meet the same load.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import httpx
import numpy as np

from bench import dataset
from bench.floor import Floor
from bench.report import markdown
from bench.stats import Timer
from signet_eval.server import ApiServer
from signet_pipeline.config import DB_RELATIVE_PATH, load_settings
from signet_pipeline.graph.linker import link_memory
from signet_pipeline.models import RecallRequest
from signet_pipeline.recall.keywords import keyword_query
from signet_pipeline.recall.legs import graph_leg, keyword_leg, vector_candidates
from signet_pipeline.recall.search import build_filter, recall_memories
from signet_pipeline.service import MemoryService
from signet_pipeline.text.content import normalize_content
from signet_pipeline.timeutil import now_iso

WARMUP = 20
LINK_BATCH = 2000
KINDS = ("keyword", "paraphrase", "frequent")  # bench/dataset.py's query kinds


def pct(values: list[float]) -> dict[str, float]:
    arr = np.asarray(values, dtype=np.float64)
    if arr.size == 0:
        return {"p50": float("nan"), "p95": float("nan"), "p99": float("nan"), "n": 0}
    return {f"p{q}": round(float(np.percentile(arr, q)), 2) for q in (50, 95, 99)} | {"n": int(arr.size)}


def link(svc: MemoryService, count: int, log) -> None:
    """The inline linker over the first `count` memories not linked yet, in batches of one transaction."""
    conn = svc.db.reader()
    done = conn.execute("SELECT count(DISTINCT memory_id) FROM memory_entity_mentions").fetchall()[0][0]
    started, at = time.perf_counter(), 0
    while at < count:
        batch = conn.execute("SELECT id, content, agent_id FROM memories ORDER BY rid LIMIT ? OFFSET ?",
                             (LINK_BATCH, at)).fetchall()
        if not batch:
            break
        if at + len(batch) > done:
            with svc.db.write() as wconn:
                for memory_id, content, agent_id in batch:
                    link_memory(wconn, memory_id=memory_id, content=content, agent_id=agent_id, now=now_iso())
        at += len(batch)
        if at % 20_000 == 0:
            log(f"  linked {at:,}/{count:,} ({at / (time.perf_counter() - started):,.0f}/s)")


class Samples:
    def __init__(self, *order: str) -> None:
        self.rows: dict[str, list[float]] = defaultdict(list, {name: [] for name in order})  # rows print in this order
        self.hits: list[bool] = []

    def add(self, name: str, ms: float) -> None:
        self.rows[name].append(ms)


def legs_alone(svc: MemoryService, queries: list[dataset.Query], vectors: dict[str, np.ndarray]) -> Samples:
    out = Samples("query words' document counts, first read", "keyword leg",
                  *(f"keyword leg, {kind} queries" for kind in KINDS))
    conn = svc.db.reader()
    pool = svc.settings.search.candidate_pool
    for q in queries:  # fts5vocab counts a word's rows by reading its postings: once per process (service/doc_freq.py)
        with Timer() as t:
            keyword_query(svc, conn, q.text)
        out.add("query words' document counts, first read", t.ms)
    for q in queries:
        flt = build_filter(svc, RecallRequest(query=q.text))
        with Timer() as t:
            keywords = keyword_leg(svc, conn, q.text, flt, pool)
        out.add("keyword leg", t.ms)
        out.add(f"keyword leg, {q.kind} queries", t.ms)
        with Timer() as t:
            graph_leg(svc, conn, q.text, None, flt, keywords.content)
        out.add("graph leg", t.ms)
        with Timer() as t:
            vector_candidates(svc, vectors[q.text], flt, pool)
        out.add("vector leg (search + id mapping)", t.ms)
    return out


def recalls(svc: MemoryService, queries: list[dataset.Query], targets: dict[int, str], *, fresh: bool) -> Samples:
    out = Samples()
    for q in queries:
        if fresh:
            svc._query_cache.clear()
        with Timer() as t:
            result = recall_memories(svc, RecallRequest(query=q.text, limit=10))
        out.add("recall", t.ms)
        for stage in result.meta["timings"]["stages"]:
            out.add(f"  {stage['name']}", stage["durationMs"])
        if q.kind == "keyword" and q.target is not None:
            out.hits.append(any(h.content.startswith(targets[q.target]) for h in result.results))
    return out


def floor_pass(floor: Floor, svc: MemoryService, queries: list[dataset.Query],
               vectors: dict[str, np.ndarray]) -> Samples:
    out = Samples("embed_one", "FTS5 top-50, every word, no budget",
                  *(f"FTS5 top-50, {kind} queries" for kind in KINDS))
    for q in queries:
        with Timer() as t:
            svc.embedder.embed_one(q.text)
        out.add("embed_one", t.ms)
        fts, vec = floor.timed(q.text, vectors[q.text])
        out.add("FTS5 top-50, every word, no budget", fts)
        out.add(f"FTS5 top-50, {q.kind} queries", fts)
        out.add("numpy top-50", vec)
        out.add("floor total (embed + FTS + numpy)", out.rows["embed_one"][-1] + fts + vec)
    return out


def http(workspace: Path, queries: list[dataset.Query], fresh: list[dataset.Query], before_src: Path | None) -> Samples:
    """Wall time of POST /api/memory/recall per server: `queries` (each embedded, its words' document
    counts read for the first time), `fresh` queries (embedded; most words known by then), `queries`
    again (vectors from the LRU)."""
    servers = {"": ApiServer(workspace, workspace / "serve.log")}
    if before_src is not None:
        servers[", before"] = ApiServer(workspace, workspace / "serve-before.log", env={"PYTHONPATH": str(before_src)})
    out = Samples()
    try:
        for server in servers.values():
            server.start()
        clients = {name: httpx.Client(base_url=server.base_url, timeout=120.0) for name, server in servers.items()}
        for client in clients.values():
            client.post("/api/memory/recall", json={"query": "warm-up question about the login page"})
        for mode, texts in (("first queries, embedded", queries), ("new queries, embedded", fresh),
                            ("first queries again, vector cached", queries)):
            for i, q in enumerate(texts):
                order = list(clients.items()) if i % 2 == 0 else list(clients.items())[::-1]
                for name, client in order:
                    with Timer() as t:
                        client.post("/api/memory/recall", json={"query": q.text, "limit": 10}).raise_for_status()
                    out.add(f"{mode}{name}", t.ms)
        for client in clients.values():
            client.close()
    finally:
        for server in servers.values():
            server.stop()
    return out


def table(title: str, samples: Samples) -> str:
    lines = [[name, *(pct(v)[p] for p in ("p50", "p95", "p99"))] for name, v in samples.rows.items()]
    return f"{title}\n" + markdown(["ms", "p50", "p95", "p99"], lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspace", type=Path, required=True)
    parser.add_argument("--pool", type=int, default=200_000, help="the snapshot's pool (its queries' targets)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--link", type=int, default=0, help="link this many memories into the graph first")
    parser.add_argument("--settings", default="{}", help="settings overrides as JSON (load_settings keywords)")
    parser.add_argument("--http", action="store_true", help="also recall over HTTP")
    parser.add_argument("--before-src", type=Path, help="HTTP: a second server from this source tree, in turn")
    args = parser.parse_args()
    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    overrides = json.loads(args.settings)
    pool = dataset.memories(args.pool, args.seed)
    queries, fresh_queries = split(dataset.queries(pool, 2 * args.queries, args.seed), args.queries)
    targets = {q.target: normalize_content(pool[q.target].content).storage for q in queries if q.target is not None}
    svc = MemoryService(load_settings(args.workspace, **overrides))
    try:
        if args.link:
            link(svc, args.link, log)
        vectors = {q.text: svc.embed_query(q.text) for q in queries}
        load = [os.getloadavg()[0]]
        log("legs alone ...")
        alone = legs_alone(svc, queries, vectors)
        for q in queries[:WARMUP]:
            recall_memories(svc, RecallRequest(query=q.text))
        log("recall, query vectors cached ...")
        cached = recalls(svc, queries, targets, fresh=False)
        load.append(os.getloadavg()[0])
        log("recall, queries embedded ...")
        fresh = recalls(svc, queries, targets, fresh=True)
        for text, vec in vectors.items():  # put the cache back for the floor's vectors
            svc._query_cache[text] = vec
        log("floor ...")
        floor = Floor(args.workspace / DB_RELATIVE_PATH)
        try:
            low = floor_pass(floor, svc, queries, vectors)
        finally:
            floor.close()
        load.append(os.getloadavg()[0])
    finally:
        svc.close()
    served = None
    if args.http or args.before_src:
        log("HTTP ...")
        served = http(args.workspace, queries, fresh_queries, args.before_src)
        load.append(os.getloadavg()[0])
    kinds = ", ".join(f"{k} {n}" for k, n in _kinds(queries).items())
    print(f"{len(queries)} queries ({kinds}); settings {overrides or 'of the workspace'}; "
          f"load average (1 min) along the run: {', '.join(f'{x:.2f}' for x in load)}")
    print(table("\nlegs alone (query vector cached)", alone))
    print(table("\nrecall in process, query vector cached (stages from meta.timings)", cached))
    print(table("\nrecall in process, query embedded", fresh))
    print(table("\nfloor", low))
    hit = lambda s: round(float(np.mean(s.hits)), 3) if s.hits else float("nan")  # noqa: E731
    print(f"\nkeyword-query hit@10: {hit(cached)} (cached), {hit(fresh)} (embedded), {len(cached.hits)} queries")
    floor_p = {p: pct(low.rows["floor total (embed + FTS + numpy)"])[p] for p in ("p50", "p95")}
    fresh_p = pct(fresh.rows["recall"])
    print(f"recall incl. embedding p50 / p95 {fresh_p['p50']} / {fresh_p['p95']} ms; floor {floor_p['p50']} / "
          f"{floor_p['p95']} ms; ratio {fresh_p['p50'] / floor_p['p50']:.2f} / {fresh_p['p95'] / floor_p['p95']:.2f}")
    if served:
        print(table("\nrecall over HTTP (one keep-alive client per server)", served))


def split(queries: list[dataset.Query], n: int) -> tuple[list[dataset.Query], list[dataset.Query]]:
    """The first n (the scale bench's own queries: same seed, same order) and the rest."""
    return queries[:n], queries[n:]


def _kinds(queries: list[dataset.Query]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for q in queries:
        out[q.kind] += 1
    return dict(out)


if __name__ == "__main__":
    main()
