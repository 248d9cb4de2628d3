"""`python -m bench.abuse_bench [--src DIR] [--memories 3000]`: what a hostile or careless caller
costs a team-mode `signet serve` (issue 23), probed from outside over HTTP as the reports did:

- a 15 MB JSON body of nested arrays, no token, to POST /api/memory/remember (three in a row), while
  another client polls /health: the time to the answer, the worst /health latency, the API's RSS;
- a 20 MB string as content, with an agent token;
- 10,000 tags, with an agent token;
- GET /memory/search with the same word 2,500 times on `--memories` memories, with a readonly token.

`--src` serves another source tree (an older checkout: `git worktree add /tmp/before <commit>`) with
this virtualenv, so a before/after pair runs the same probes on the same machine.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time
from pathlib import Path

import httpx

from signet_eval.server import ApiServer, proc_memory
from signet_pipeline.auth.tokens import issue, load_or_create_secret

MB = 1 << 20


class HealthWatch:
    """Polls /health every 50 ms on its own connection; the worst latency seen while it ran."""

    def __init__(self, url: str):
        self.url, self.worst_ms, self._stop = url, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with httpx.Client(timeout=60) as http:
            while True:  # at least one call, however short the probe
                started = time.perf_counter()
                http.get(self.url)
                self.worst_ms = max(self.worst_ms, (time.perf_counter() - started) * 1000)
                if self._stop.wait(0.05):
                    return

    def __enter__(self) -> HealthWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def _probe(server: ApiServer, name: str, send) -> tuple:
    rss_before = proc_memory(server.proc.pid)["VmRSS"]
    with HealthWatch(server.base_url + "/health") as watch:
        started = time.perf_counter()
        status = send()
        seconds = time.perf_counter() - started
    rss_after = proc_memory(server.proc.pid)["VmRSS"]
    return (name, status, f"{seconds:.3f}", f"{watch.worst_ms:.0f}", f"{rss_before:.0f} -> {rss_after:.0f}")


def run(src: Path | None, memories: int) -> list[tuple]:
    workspace = Path(tempfile.mkdtemp(prefix="abuse-bench-"))
    (workspace / "agent.yaml").write_text("auth:\n  mode: team\n")
    secret = load_or_create_secret(workspace / "auth.secret")
    agent = {"authorization": "Bearer " + issue(secret, sub="a1", role="agent", ttl_s=3600)[0]}
    readonly = {"authorization": "Bearer " + issue(secret, sub="r1", role="readonly", ttl_s=3600)[0]}
    env = {"PYTHONPATH": str(src)} if src else {}
    nested = json.dumps([[i, i + 1] for i in range(885_000)]).encode()  # 15 MB of nested arrays, as reported
    huge_content = json.dumps({"content": "x" * (20 * MB)}).encode()
    rows: list[tuple] = []
    with ApiServer(workspace, workspace / "serve.log", env=env) as server, \
            httpx.Client(base_url=server.base_url, timeout=300) as http:
        json_type = {"content-type": "application/json"}
        for i in range(3):
            rows.append(_probe(server, f"15 MB nested arrays, no token ({i + 1})", lambda: http.post(
                "/api/memory/remember", content=nested, headers=json_type).status_code))
        rows.append(_probe(server, "20 MB content string, agent token", lambda: http.post(
            "/api/memory/remember", content=huge_content, headers={**json_type, **agent}).status_code))
        rows.append(_probe(server, "10,000 tags, agent token", lambda: http.post(
            "/api/memory/remember", json={"content": "tagged", "tags": [f"t{i}" for i in range(10_000)]},
            headers=agent).status_code))
        for i in range(memories):
            http.post("/api/memory/remember", headers=agent,
                      json={"content": f"Note {i}: the quick brown fox {i % 97} jumped over fence {i % 13}."})
        query = " ".join(["fox"] * 2500)
        rows.append(_probe(server, f"/memory/search 'fox' x 2,500 on {memories:,}, readonly", lambda: http.get(
            "/memory/search", params={"q": query}, headers=readonly).status_code))
    return rows


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench.abuse_bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--src", type=Path, help="serve this source tree instead of the installed one")
    p.add_argument("--memories", type=int, default=3000, help="memories for the search probe (default 3000)")
    args = p.parse_args(argv)
    rows = run(args.src.resolve() if args.src else None, args.memories)
    print(f"source: {args.src or 'this checkout'}; load average {os.getloadavg()[0]:.2f}")
    print("| probe | status | seconds | worst /health ms | API RSS MB |")
    print("|---|---:|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")


if __name__ == "__main__":
    main()
