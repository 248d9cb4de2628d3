"""`python -m bench.session_start_bench [--size 10000] [--sessions 200]`: what session-start costs.

    .venv/bin/python -m bench.session_start_bench      # ~1 min: build 10k, 200 sessions in process and over HTTP

A store of about `size` memories from the realistic generator of tests/pipeline/sessions/realistic_store.py (three
projects and the user's standing knowledge over six months; types, tags, pinned memories, rules)
is built in process with remember_many (embeddings and the inline entity linker, default
settings), with the identity files and a MEMORY.md in its workspace. Then, for `sessions` new
sessions (a new session key each, the three projects in turn, default budget 48,000 characters):
- in process: `hooks.session_start` as the route calls it (it records the session, what it was
  given and the ledger): the floor of the HTTP figure; its two parts beside it, the candidate pool
  (pinned, graph walk, hybrid search, the project's and the newest memories, ranked) and the
  composition of the text;
- with a context: the same with a new `context` each session (its query embedding is not cached);
- over HTTP: POST /api/hooks/session-start to `signet serve` in a subprocess (one keep-alive
  client, after 10 warm-up calls), and GET /health as the HTTP floor (the request path, no work).
The budget is p95 under 100 ms at 10k memories.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx

from bench.report import machine, machine_lines
from bench.stats import summary
from signet_eval.server import ApiServer
from signet_pipeline.config import load_settings
from signet_pipeline.service import MemoryService
from signet_pipeline.sessions import hooks, identity, inject
from signet_pipeline.sessions.hooks import SessionStartRequest
from signet_pipeline.store import memories as mem_store
from signet_pipeline.write.remember import remember_many
from tests.pipeline.sessions.realistic_store import PROJECTS, path, realistic_store, write_workspace

BUDGET_P95_MS = 100.0
WARMUP = 10
STANDING = 250  # the user's standing memories; the rest is split among the three projects


def build(workspace: Path, size: int, seed: int) -> tuple[int, float]:
    svc = MemoryService(load_settings(workspace))
    started = time.perf_counter()
    reqs = realistic_store(seed=seed, per_project=int((size - STANDING) / len(PROJECTS) * 1.04), standing=STANDING)
    for start in range(0, len(reqs), 4096):
        remember_many(svc, reqs[start:start + 4096], pipeline_jobs=False)
    write_workspace(svc)
    stored = mem_store.count_live(svc.db.reader())
    svc.close()
    return stored, time.perf_counter() - started


def request(i: int, prefix: str, context: bool) -> SessionStartRequest:
    project = list(PROJECTS)[i % len(PROJECTS)]
    return SessionStartRequest(harness="claude-code", project=path(project), sessionKey=f"{prefix}-{i}",
                               context=f"continue the {project} work from ticket {i}" if context else None)


def _ms(fn) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def in_process(workspace: Path, sessions: int) -> dict:
    svc = MemoryService(load_settings(workspace))
    out: dict[str, list[float]] = {"session_start": [], "pool": [], "compose": [], "with_context": []}
    sizes: list[int] = []
    try:
        for i in range(WARMUP):
            hooks.session_start(svc, request(i, "warm", False))
        for i in range(sessions):
            req = request(i, "proc", False)
            found: dict = {}
            out["pool"].append(_ms(lambda: found.update(pool=hooks._pool(svc, req, set(), True))))
            memories, constraints = found["pool"]
            files = [*identity.injected_files(svc, req.agent_id),
                     (*hooks.working_memory(svc, req), identity.WORKING_MEMORY_CHARS)]
            out["compose"].append(_ms(lambda: inject.compose(
                svc.settings.hooks.session_start_budget_chars, now=datetime.now(UTC), files=files,
                memories=memories, constraints=constraints)))
            out["session_start"].append(_ms(lambda: sizes.append(len(hooks.session_start(svc, req).inject))))
            context = request(i, "ctx", True)
            out["with_context"].append(_ms(lambda: hooks.session_start(svc, context)))
    finally:
        svc.close()
    return {**{k: summary(v) for k, v in out.items()}, "inject_chars": statistics.median(sizes)}


def over_http(workspace: Path, root: Path, sessions: int) -> dict:
    out: dict[str, list[float]] = {"session_start": [], "health": []}
    with ApiServer(workspace, root / "serve.log") as server:
        with httpx.Client(base_url=server.base_url, timeout=60) as client:
            def post(req: SessionStartRequest) -> float:
                body = {"harness": req.harness, "project": req.project, "sessionKey": req.session_key}
                return _ms(lambda: client.post("/api/hooks/session-start", json=body).raise_for_status())

            for i in range(WARMUP):
                post(request(i, "http-warm", False))
            for i in range(sessions):
                out["session_start"].append(post(request(i, "http", False)))
                out["health"].append(_ms(lambda: client.get("/health").raise_for_status()))
    return {k: summary(v) for k, v in out.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.session_start_bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", type=int, default=10_000, help="memories in the store (about; default 10000)")
    p.add_argument("--sessions", type=int, default=200, help="sessions started per row (default 200)")
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="signet-session-start-bench-"))
    try:
        workspace = root / "ws"
        stored, seconds = build(workspace, args.size, args.seed)
        print(f"built {stored:,} memories in {seconds:.0f} s", flush=True)
        proc = in_process(workspace, args.sessions)
        print(f"in process: session-start p50 {proc['session_start']['p50']:.2f} ms, p95 "
              f"{proc['session_start']['p95']:.2f} ms", flush=True)
        http = over_http(workspace, root, args.sessions)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("\n".join(machine_lines(machine())))
    print(f"store: {stored:,} memories; inject median {proc['inject_chars']:,.0f} characters; "
          f"{args.sessions} sessions a row; budget p95 < {BUDGET_P95_MS:.0f} ms")
    print("| session-start | p50 | p95 | max |")
    print("|---|---:|---:|---:|")
    for label, s in [("in process (floor of HTTP)", proc["session_start"]),
                     ("- of which the candidate pool", proc["pool"]), ("- of which the composition", proc["compose"]),
                     ("in process, a new context each session", proc["with_context"]),
                     ("HTTP through `signet serve`", http["session_start"]),
                     ("HTTP floor (GET /health)", http["health"])]:
        print(f"| {label} | {s['p50']:.2f} ms | {s['p95']:.2f} ms | {s['max']:.2f} ms |")
    return 0 if http["session_start"]["p95"] < BUDGET_P95_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
