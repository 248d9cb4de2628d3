"""remember and recall over HTTP: `signet serve` in a subprocess, one keep-alive httpx client.

The server runs on a free loopback port with SIGNET_WORKSPACE pointing at a working copy of a
store. It is always stopped at the end (SIGTERM to its pid, SIGKILL after a grace period), also
when a measurement fails. The API process RSS is read from /proc/<pid>/status after the load.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx

from bench.dataset import Query
from bench.stats import Timer, summary
from signet_eval.server import ApiServer, proc_memory

WARMUP = 10


def run(workspace: Path, log_file: Path, contents: list[str], queries: list[Query],
        log: Callable[[str], None]) -> dict:
    server = ApiServer(workspace, log_file)
    try:
        server.start()
        log(f"    signet serve ready on port {server.port} in {server.startup_s:.1f} s (pid {server.proc.pid})")
        with httpx.Client(base_url=server.base_url, timeout=60.0) as client:
            def post(path: str, body: dict) -> tuple[float, dict]:
                with Timer() as t:
                    response = client.post(path, json=body)
                response.raise_for_status()
                return t.ms, response.json()

            for i, text in enumerate(contents[:WARMUP]):
                post("/api/memory/remember", {"content": text})
                post("/api/memory/recall", {"query": f"warm-up question {i} about the login page"})

            remember_ms = [post("/api/memory/remember", {"content": text})[0] for text in contents[WARMUP:]]

            def recall_pass() -> tuple[list[float], list[float]]:
                walls, server_ms = [], []
                for q in queries:
                    ms, body = post("/api/memory/recall", {"query": q.text})
                    walls.append(ms)
                    server_ms.append(body["meta"]["timings"]["totalMs"])
                return walls, server_ms

            fresh_wall, fresh_server = recall_pass()  # the server has never embedded these texts
            cached_wall, cached_server = recall_pass()  # same texts again: its query LRU answers
        memory = proc_memory(server.proc.pid)
    finally:
        server.stop()
    out = {
        "remember": summary(remember_ms),
        "recall_fresh": summary(fresh_wall), "recall_fresh_server_total": summary(fresh_server),
        "recall_cached": summary(cached_wall), "recall_cached_server_total": summary(cached_server),
        "rss_mb": memory.get("VmRSS"), "peak_rss_mb": memory.get("VmHWM"),
        "startup_s": round(server.startup_s, 2),
    }
    log(f"    HTTP: remember p50 {out['remember']['p50']:.2f} ms, recall p50 {out['recall_fresh']['p50']:.2f} ms "
        f"(cached vector {out['recall_cached']['p50']:.2f} ms), API RSS {out['rss_mb']} MB")
    return out
