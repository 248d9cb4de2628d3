"""remember and recall over HTTP: `signet serve` in a subprocess, one keep-alive httpx client.

The server runs on a free loopback port with SIGNET_WORKSPACE pointing at a working copy of a
store. It is always stopped at the end (SIGTERM to its pid, SIGKILL after a grace period), also
when a measurement fails. The API process RSS is read from /proc/<pid>/status after the load.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from bench.dataset import Query
from bench.stats import Timer, summary

WARMUP = 10
READY_TIMEOUT_S = 120.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _proc_status(pid: int) -> dict[str, float]:
    """VmRSS / VmHWM of a process in MB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = round(int(value.split()[0]) / 1024, 1)
    return out


class ApiServer:
    def __init__(self, workspace: Path, log_file: Path):
        self.workspace = workspace
        self.log_file = log_file
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.startup_s = float("nan")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        signet = Path(sys.executable).parent / "signet"
        cmd = [str(signet), "--log-level", "warning", "serve", "--port", str(self.port)]
        env = {**os.environ, "SIGNET_WORKSPACE": str(self.workspace)}
        started = time.perf_counter()
        with open(self.log_file, "wb") as out:
            self.proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         cwd=str(self.workspace))
        deadline = started + READY_TIMEOUT_S
        while time.perf_counter() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"signet serve exited with {self.proc.returncode}: "
                                   f"{self.log_file.read_text(errors='replace')[-2000:]}")
            try:
                if httpx.get(self.base_url + "/health", timeout=1.0).status_code == 200:
                    self.startup_s = time.perf_counter() - started
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"signet serve not ready after {READY_TIMEOUT_S:.0f} s")

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


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
        memory = _proc_status(server.proc.pid)
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
