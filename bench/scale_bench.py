"""A million memories: imported from a Parquet snapshot, then served.

    .venv/bin/python -m bench.scale_bench [--size 1000000] [--pool 200000] [--queries 300]

1. The snapshot (bench/scale_snapshot.py, cached) is imported with `signet import` into a new
   workspace, as a user would: wall time, rows/s and the importer's peak RSS.
2. `signet serve` starts on it: time until /health answers (migrations, the vector index loaded),
   RSS once warm.
3. Recall over HTTP, one client: every query once (the server embeds it: p50/p95 including the
   query embedding) and again (its query LRU answers: excluding it), server-side totals beside.
4. In process, on the same store: the vector search alone, exact (the full float32 product) and
   with the sign-bit prefilter, and the share of the exact top 10 / top 50 the prefilter keeps.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import numpy as np

from bench import dataset
from bench.report import markdown
from bench.scale_snapshot import build
from bench.stats import Timer, summary
from bench.store import DATA_DIR
from signet_eval.server import ApiServer, proc_memory
from signet_pipeline.config import DB_RELATIVE_PATH, ONNX_DIMENSIONS, ONNX_MODEL
from signet_pipeline.service.vectors import MatrixIndex
from signet_pipeline.store.db import Database


def _signet(*args: str) -> dict:
    """Run a signet command; its wall time and peak RSS. The peak is the child's own VmHWM, polled
    while it runs: wait4's ru_maxrss would include this (large) process's RSS at fork time."""
    signet = Path(sys.executable).parent / "signet"
    started = time.perf_counter()
    proc = subprocess.Popen([str(signet), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0.0
    while proc.poll() is None:
        try:
            peak = max(peak, proc_memory(proc.pid).get("VmHWM") or 0.0)
        except (FileNotFoundError, ProcessLookupError, ValueError):  # it ended between poll and read
            pass
        time.sleep(0.2)
    if proc.returncode != 0:
        raise RuntimeError(f"signet {' '.join(args)} failed ({proc.returncode})")
    return {"seconds": round(time.perf_counter() - started, 1), "peak_rss_mb": round(peak)}


def _import(snapshot: Path, workspace: Path) -> dict:
    shutil.rmtree(workspace, ignore_errors=True)
    out = _signet("--workspace", str(workspace), "import", str(snapshot))
    out["db_mb"] = round(sum(p.stat().st_size for p in (workspace / DB_RELATIVE_PATH).parent.glob("memories.db*")) / 1e6)
    return out


def _export(workspace: Path) -> dict:
    target = workspace.parent / f"{workspace.name}-export"
    shutil.rmtree(target, ignore_errors=True)
    out = _signet("--workspace", str(workspace), "export", str(target))
    out["mb"] = round(sum(p.stat().st_size for p in target.iterdir()) / 1e6)
    shutil.rmtree(target, ignore_errors=True)
    return out


def _serve(workspace: Path, queries: list[str]) -> dict:
    server = ApiServer(workspace, workspace / "serve.log")
    try:
        server.start()
        with httpx.Client(base_url=server.base_url, timeout=120.0) as client:
            def recall_pass() -> tuple[list[float], list[float]]:
                walls, totals = [], []
                for q in queries:
                    with Timer() as t:
                        response = client.post("/api/memory/recall", json={"query": q, "limit": 10})
                    response.raise_for_status()
                    walls.append(t.ms)
                    totals.append(response.json()["meta"]["timings"]["totalMs"])
                return walls, totals

            client.post("/api/memory/recall", json={"query": "warm-up question about the login page"})
            fresh, fresh_server = recall_pass()
            cached, cached_server = recall_pass()
        memory = proc_memory(server.proc.pid)
    finally:
        server.stop()
    return {"startup_s": round(server.startup_s, 1), "rss_mb": memory.get("VmRSS"),
            "fresh": summary(fresh), "fresh_server": summary(fresh_server),
            "cached": summary(cached), "cached_server": summary(cached_server)}


def _prefilter(workspace: Path, query_vectors: np.ndarray, candidates: list[int]) -> dict:
    """The exact search beside the prefilter at each candidate count (one index: the count is a
    plain attribute)."""
    db = Database(workspace / DB_RELATIVE_PATH)
    started = time.perf_counter()
    index = MatrixIndex(db, model=ONNX_MODEL, dimensions=ONNX_DIMENSIONS)
    index.sync()
    load_s = time.perf_counter() - started
    truths, exact_ms = [], []
    for q in query_vectors:
        with Timer() as t:
            truths.append([h for h, _ in index.search(q, 50)])
        exact_ms.append(t.ms)
    index.prefilter_min = 1
    runs = {}
    for count in candidates:
        index.prefilter_candidates = count
        fast_ms, kept10, kept50 = [], [], []
        for q, truth in zip(query_vectors, truths):
            with Timer() as t:
                got = [h for h, _ in index.search(q, 50)]
            fast_ms.append(t.ms)
            kept10.append(len(set(truth[:10]) & set(got[:10])) / 10)
            kept50.append(len(set(truth) & set(got)) / 50)
        runs[count] = {"fast": summary(fast_ms), "recall10": round(float(np.mean(kept10)), 4),
                       "recall50": round(float(np.mean(kept50)), 4)}
    db.close()
    return {"vectors": len(index), "load_s": round(load_s, 1), "exact": summary(exact_ms), "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--pool", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--candidates", default="1000,2000,4000,8000",
                        help="prefilter candidate counts to compare (rescored exactly)")
    args = parser.parse_args()
    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    snapshot = build(args.size, args.pool, args.seed, log)
    workspace = DATA_DIR / f"scale-ws-{args.size}"
    log(f"importing {snapshot.name} ...")
    imported = _import(snapshot, workspace)
    log("exporting ...")
    exported = _export(workspace)
    pool = dataset.memories(args.pool, args.seed)
    queries = [q.text for q in dataset.queries(pool, args.queries, args.seed)]
    log("serving ...")
    served = _serve(workspace, queries)
    from signet_pipeline.providers.embeddings.onnx import OnnxMiniLM

    vectors = np.asarray(OnnxMiniLM(threads=2).embed(queries[:100]), dtype=np.float32)
    log("prefilter vs exact ...")
    pre = _prefilter(workspace, vectors, [int(c) for c in args.candidates.split(",")])
    rows_imported = 3 * args.size  # memories, their vectors and their history rows
    print(f"{args.size:,} memories; {os.cpu_count()} cores; query embedding by the offline model")
    print(markdown(["measure", "value"], [
        ["import (`signet import`), wall s", imported["seconds"]],
        ["import rows/s (memories + vectors + history)", round(rows_imported / imported["seconds"])],
        ["importer peak RSS MB", imported["peak_rss_mb"]],
        ["database size MB", imported["db_mb"]],
        ["export (`signet export`, Parquet), wall s / peak RSS MB / size MB",
         f"{exported['seconds']} / {exported['peak_rss_mb']} / {exported['mb']}"],
        ["`signet serve` start-up until /health, s", served["startup_s"]],
        ["API RSS after the queries, MB", served["rss_mb"]],
        ["recall p50 / p95 ms over HTTP, query embedded", f"{served['fresh']['p50']:.1f} / {served['fresh']['p95']:.1f}"],
        ["  server-side total p50 / p95", f"{served['fresh_server']['p50']:.1f} / {served['fresh_server']['p95']:.1f}"],
        ["recall p50 / p95 ms over HTTP, query vector cached", f"{served['cached']['p50']:.1f} / {served['cached']['p95']:.1f}"],
        ["  server-side total p50 / p95", f"{served['cached_server']['p50']:.1f} / {served['cached_server']['p95']:.1f}"],
        ["vector search alone, exact (full product) p50 / p95 ms",
         f"{pre['exact']['p50']:.1f} / {pre['exact']['p95']:.1f}"],
        ["index load in process (vectors, s)", f"{pre['vectors']:,} in {pre['load_s']}"],
    ]))
    print()
    print(markdown(["prefilter candidates", "vector search p50 ms", "p95 ms", "keeps exact top 10", "keeps top 50"],
                   [[c, round(r["fast"]["p50"], 1), round(r["fast"]["p95"], 1), r["recall10"], r["recall50"]]
                    for c, r in pre["runs"].items()]))


if __name__ == "__main__":
    main()
