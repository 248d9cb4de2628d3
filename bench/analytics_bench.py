"""`python -m bench.analytics_bench [--size 10000] [--rounds 400]`: what the analytics middleware
costs a request.

1. recall and remember through the ASGI app, with and without `AnalyticsMiddleware`: two apps
   over one MemoryService (a working copy of a cached bench store, which `python -m bench`
   builds; this benchmark never builds one), called alternately request by
   request (with, without, with, ...), each call a direct `await app(scope, receive, send)` (no
   HTTP server or client in the measurement). Recall query vectors are cached first, so the
   samples are search time, not embedding time.
2. the middleware alone: around a trivial ASGI endpoint, 20 blocks of 5,000 calls alternating
   with/without; per-request difference of the medians.
The machine is shared (2 cores, other processes running): compare the two columns, not runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import time
from types import SimpleNamespace

from bench import dataset, store
from bench.stats import summary
from signet_api.app import create_app
from signet_api.middleware import AnalyticsMiddleware
from signet_pipeline.analytics import Analytics
from signet_pipeline.config import load_settings
from signet_pipeline.providers.embeddings import create_embedder
from signet_pipeline.service import MemoryService

WARMUP = 20


def _scope(method: str, path: str, body: bytes) -> dict:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
            "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "state": {},
            "headers": [(b"host", b"bench"), (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()), (b"x-signet-actor", b"bench")],
            "client": ("127.0.0.1", 50000), "server": ("bench", 80)}


async def call(app, method: str, path: str, payload: dict | None = None) -> float:
    """One request straight into the ASGI app; wall ms. Raises on a non-200 answer."""
    body = json.dumps(payload).encode() if payload is not None else b""
    delivered = False
    status = 0

    async def receive() -> dict:
        nonlocal delivered
        if delivered:
            return {"type": "http.disconnect"}
        delivered = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    started = time.perf_counter()
    await app(_scope(method, path, body), receive, send)
    ms = (time.perf_counter() - started) * 1000
    if status != 200:
        raise RuntimeError(f"{method} {path} answered {status}")
    return ms


def apps(svc: MemoryService):
    """(with, without): the same create_app, the second with the analytics middleware removed
    before its middleware stack is built (on the first call)."""
    with_mw, without = create_app(service=svc), create_app(service=svc)
    without.user_middleware = [m for m in without.user_middleware if m.cls is not AnalyticsMiddleware]
    for app in (with_mw, without):
        app.state.service = svc  # what the lifespan would set
        app.state.shutting_down = False
    return with_mw, without


async def through_app(svc: MemoryService, queries: list[str], contents: list[str]) -> dict[str, list[float]]:
    with_mw, without = apps(svc)
    for q in queries[:WARMUP]:
        for app in (with_mw, without):
            await call(app, "POST", "/api/memory/recall", {"query": q})
    samples: dict[str, list[float]] = {"recall_with": [], "recall_without": [], "remember_with": [],
                                       "remember_without": []}
    for i, q in enumerate(queries):
        order = ((with_mw, "with"), (without, "without")) if i % 2 == 0 else ((without, "without"), (with_mw, "with"))
        for app, label in order:
            samples[f"recall_{label}"].append(await call(app, "POST", "/api/memory/recall", {"query": q}))
    for i in range(0, len(contents) - 1, 2):
        pair = ((with_mw, "with", contents[i]), (without, "without", contents[i + 1]))
        for app, label, text in pair if i % 4 == 0 else reversed(pair):
            samples[f"remember_{label}"].append(await call(app, "POST", "/api/memory/remember", {"content": text}))
    return samples


async def middleware_alone(blocks: int = 20, per_block: int = 5000) -> tuple[float, float]:
    """Median µs per request of a trivial endpoint with and without the middleware."""
    async def endpoint(scope, receive, send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    wrapped = AnalyticsMiddleware(endpoint, Analytics())
    route = SimpleNamespace(path="/api/memory/recall")  # what the router leaves in the scope

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        return None

    per: dict[str, list[float]] = {"with": [], "without": []}
    for b in range(blocks):
        for label, app in ((("with", wrapped), ("without", endpoint)) if b % 2 == 0
                           else (("without", endpoint), ("with", wrapped))):
            scope = _scope("POST", "/api/memory/recall", b"") | {"route": route}
            started = time.perf_counter()
            for _ in range(per_block):
                await app(scope, receive, send)
            per[label].append((time.perf_counter() - started) * 1e6 / per_block)
    return statistics.median(per["with"]), statistics.median(per["without"])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.analytics_bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--rounds", type=int, default=400, help="recall pairs (remember: half as many pairs)")
    args = p.parse_args(argv)
    cached = store.any_cached(args.size, args.seed)
    if cached is None:  # never build here: a build racing another one corrupts the shared cache
        p.error(f"no cached store of {args.size} memories (seed {args.seed}): run `python -m bench` first")
    embedder = create_embedder(load_settings().embedding)
    ws = store.working_copy(cached, store.DATA_DIR / "run" / "analytics")
    svc = MemoryService(load_settings(ws), embedder=embedder)
    try:
        queries = [q.text for q in dataset.queries(dataset.memories(args.size, args.seed), args.rounds, args.seed)]
        for q in queries:
            svc.embed_query(q)  # cached: measure search, not the embedder
        samples = asyncio.run(through_app(svc, queries, dataset.fresh_contents(args.rounds, args.seed)))
        alone_with, alone_without = asyncio.run(middleware_alone())
    finally:
        svc.close()
        shutil.rmtree(ws, ignore_errors=True)
    print(f"store: {cached.name}, {args.rounds} recall pairs, {args.rounds // 2} remember pairs, alternating\n")
    print("| request | middleware | n | p50 ms | p95 ms | mean ms |")
    print("|---|---|---:|---:|---:|---:|")
    for op in ("recall", "remember"):
        for label in ("with", "without"):
            s = summary(samples[f"{op}_{label}"])
            print(f"| {op} | {label} | {s['n']} | {s['p50']:.3f} | {s['p95']:.3f} | {s['mean']:.3f} |")
    for op in ("recall", "remember"):
        paired = [w - wo for w, wo in zip(samples[f"{op}_with"], samples[f"{op}_without"])]
        print(f"\n{op}: median paired difference (with − without, same query/pair) {statistics.median(paired):+.3f} ms")
    print(f"\nmiddleware alone (trivial endpoint, median of 10 blocks × 5,000): {alone_with:.2f} µs with, "
          f"{alone_without:.2f} µs without → {alone_with - alone_without:.2f} µs per request")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
