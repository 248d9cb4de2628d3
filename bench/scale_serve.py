"""The serving half of bench/scale_bench.py: what the store holds by part, `signet serve` on it
(start-up, recall over HTTP, RSS) beside the same on an empty workspace (the floor), and the
vector search in process against the exact float32 product."""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from pathlib import Path

import apsw
import httpx
import numpy as np

from bench.stats import Timer, summary
from signet_eval.server import ApiServer
from signet_pipeline.config import DB_RELATIVE_PATH, ONNX_DIMENSIONS, ONNX_MODEL, load_settings
from signet_pipeline.service import index_snapshot
from signet_pipeline.service.vectors import MatrixIndex
from signet_pipeline.store.db import Database

_PARTS = {"embeddings": "embeddings (vectors + hashes + indexes)", "vec_embeddings": "vec0 table",
          "memories_fts": "full text (FTS5)", "memory_hints_fts": "full text (FTS5)"}


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def db_split(workspace: Path) -> dict[str, float]:
    """MB of the database by part (dbstat: each table with its indexes and shadow tables), the WAL
    and the vector index file beside it."""
    db_path = workspace / DB_RELATIVE_PATH
    conn = apsw.Connection(str(db_path), flags=apsw.SQLITE_OPEN_READONLY)
    owner = dict(conn.execute("SELECT name, tbl_name FROM sqlite_master"))
    parts: Counter[str] = Counter()
    for name, size in conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
        table = owner.get(name, name)
        part = next((label for prefix, label in _PARTS.items() if table.startswith(prefix)), "everything else")
        parts[part] += size / 1e6
    conn.close()
    wal = db_path.with_name(db_path.name + "-wal")
    snapshot = index_snapshot.path_for(db_path)
    return {**{k: round(v) for k, v in parts.items()}, "database file": round(db_path.stat().st_size / 1e6),
            "WAL": round(wal.stat().st_size / 1e6) if wal.exists() else 0,
            "vector index file (beside it)": round(snapshot.stat().st_size / 1e6) if snapshot.exists() else 0}


def _rss(pid: int) -> dict[str, float]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "RssAnon", "RssFile"):
            out[key] = round(int(value.split()[0]) / 1024)
    return out


def _recall(client: httpx.Client, queries: list[str]) -> dict:
    """Every query once over HTTP: wall, server total, and the server's vector search and query
    embedding stages."""
    walls, totals, stages = [], [], {"vector_search": [], "query_embedding": []}
    for q in queries:
        with Timer() as t:
            response = client.post("/api/memory/recall", json={"query": q, "limit": 10})
        response.raise_for_status()
        walls.append(t.ms)
        timings = response.json()["meta"]["timings"]
        totals.append(timings["totalMs"])
        for stage in timings["stages"]:
            if stage["name"] in stages:
                stages[stage["name"]].append(stage["durationMs"])
    return {"wall": summary(walls), "server": summary(totals), **{k: summary(v) for k, v in stages.items()}}


def _served(workspace: Path, queries: list[str], log) -> dict:
    server = ApiServer(workspace, workspace / "serve.log")
    try:
        server.start()
        with httpx.Client(base_url=server.base_url, timeout=120.0) as client:
            client.post("/api/memory/recall", json={"query": "warm-up question about the login page"})
            fresh = _recall(client, queries)
            cached = _recall(client, queries)
        rss = _rss(server.proc.pid)
    finally:
        server.stop()
    log(f"  served: start-up {server.startup_s:.1f} s, load {load()}")
    return {"startup_s": round(server.startup_s, 2), "rss": rss, "fresh": fresh, "cached": cached}


def serve(workspace: Path, queries: list[str], log) -> dict:
    """The first start after the import (no index file yet: /health, then how long until the
    worker has written it), then a start as every later one (the file mapped), measured with the
    queries; and the floor: the same on an empty workspace."""
    snapshot = index_snapshot.path_for(workspace / DB_RELATIVE_PATH)
    snapshot.unlink(missing_ok=True)
    first = ApiServer(workspace, workspace / "serve-first.log")
    try:
        started = time.perf_counter()
        first.start()
        while not snapshot.exists() and time.perf_counter() - started < 1800:
            time.sleep(0.2)
        built_s = time.perf_counter() - started
    finally:
        first.stop()
    log(f"  first start: /health {first.startup_s:.1f} s, index file after {built_s:.1f} s, load {load()}")
    out = {"first_startup_s": round(first.startup_s, 2), "index_file_s": round(built_s, 1),
           **_served(workspace, queries, log)}
    with tempfile.TemporaryDirectory() as empty:
        out["floor"] = _served(Path(empty), queries, log)
    return out


def vector_search(workspace: Path, query_vectors: np.ndarray, candidates: list[int]) -> dict:
    """The index as the service opens it (the file, the configured prefilter) beside the exact
    float32 product over the same vectors read from the table: time and the share of the exact
    top 10 / top 50 kept, at each candidate count (a plain attribute of the index)."""
    db = Database(workspace / DB_RELATIVE_PATH)
    search = load_settings(workspace).search
    started = time.perf_counter()
    served = MatrixIndex(db, model=ONNX_MODEL, dimensions=ONNX_DIMENSIONS, prefilter_min=search.vector_prefilter_min,
                         prefilter_candidates=search.vector_prefilter_candidates,
                         snapshot=index_snapshot.path_for(db.path))
    served.sync()
    served.wait()
    open_s = time.perf_counter() - started
    exact = MatrixIndex(db, model=ONNX_MODEL, dimensions=ONNX_DIMENSIONS)  # float32 in memory, no file
    exact.sync()
    truths, exact_ms = [], []
    for q in query_vectors:
        with Timer() as t:
            truths.append([h for h, _ in exact.search(q, 50)])
        exact_ms.append(t.ms)
    del exact
    runs = {}
    for count in candidates:
        served.prefilter_candidates = count
        fast_ms, kept10, kept50 = [], [], []
        for q, truth in zip(query_vectors, truths):
            with Timer() as t:
                got = [h for h, _ in served.search(q, 50)]
            fast_ms.append(t.ms)
            kept10.append(len(set(truth[:10]) & set(got[:10])) / 10)
            kept50.append(len(set(truth) & set(got)) / 50)
        runs[count] = {"fast": summary(fast_ms), "recall10": round(float(np.mean(kept10)), 4),
                       "recall50": round(float(np.mean(kept50)), 4)}
    served.close()
    db.close()
    return {"vectors": len(served), "open_s": round(open_s, 2), "exact": summary(exact_ms), "runs": runs}


def embed_floor(queries: list[str]) -> tuple[np.ndarray, dict]:
    """The queries' vectors and what one query embedding costs in process (the embedding floor)."""
    from signet_pipeline.providers.embeddings.onnx import OnnxMiniLM

    embedder = OnnxMiniLM(threads=2)
    out, ms = [], []
    for q in queries:
        with Timer() as t:
            out.append(embedder.embed_one(q))
        ms.append(t.ms)
    return np.asarray(out, dtype=np.float32), summary(ms)
