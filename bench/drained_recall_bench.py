"""`python -m bench.drained_recall_bench`: recall over HTTP on a drained store of conversation turns
(their derived facts included), as configured by default, beside the in-process floor, in one run.

    .venv/bin/python -m bench.drained_recall_bench                 # 10,000 turns; ~6 min the first time
    .venv/bin/python -m bench.drained_recall_bench --turns 20000 --queries 500
    .venv/bin/python -m bench.drained_recall_bench --mode store-stats=SIGNET_SEARCH__AGENT_TERM_STATS=false

The store (bench/.data/drained-<turns>, kept for the next run): real-length turns of evalsets.turns
(seed 5, ten conversations, one private agent each) remembered in process, then drained through
`signet up` (API + Dagster: extraction, decisions, graph, hints) until no job is pending. Queries: the
first eight words of randomly chosen turns, asked as their conversation's agent, and (a third as many
of each) questions naming both of a conversation's speakers ("What do Ana and Ben both say about ...?")
and yes/no questions about one speaker ("Would Ana enjoy ...?"), timed apart. `signet serve` on that
store is asked over a keep-alive client, then the same queries in process, kind by kind, each asked
once before it is timed (every query vector cached: the floor). With --mode, a second server and service
read their settings with that environment, and each query is asked of both in turn.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path

import httpx

from bench.stats import Timer, summary
from evalsets import turns
from signet_eval.harness import drain_through_up
from signet_eval.server import ApiServer
from signet_pipeline.config import load_settings
from signet_pipeline.models import RecallRequest, RememberRequest
from signet_pipeline.recall.search import SEARCH, recall_memories
from signet_pipeline.service import MemoryService
from signet_pipeline.write.remember import remember_many

ROOT = Path(__file__).parent / ".data"


def drained_store(count: int, seed: int) -> Path:
    ws = ROOT / f"drained-{count}"
    if (ws / "drained").exists():
        return ws
    ws.mkdir(parents=True, exist_ok=True)
    svc = MemoryService(load_settings(ws))
    try:
        remember_many(svc, [RememberRequest(**b) for b in turns.remember_bodies(count, seed)])
    finally:
        svc.close()
    print(f"{count:,} turns drained in {drain_through_up(ws):.0f} s through signet up (start included)")
    (ws / "drained").touch()
    return ws


def queries(found: list[turns.Turn], seed: int, n: int) -> list[dict]:
    rng = random.Random(seed + 1)
    return [{"query": " ".join(t.text.split()[:8]), "agentId": t.agent_id, "limit": 10}
            for t in rng.sample(found, n)]


def _topic(t: turns.Turn) -> str:
    return " ".join(t.text.rstrip(".!?").split()[-3:])


def pair_questions(found: list[turns.Turn], seed: int, n: int) -> list[dict]:
    """Questions naming both speakers of a conversation, about a few words of one of its turns."""
    rng = random.Random(seed + 2)
    speakers: dict[str, list[str]] = {}
    for t in found:
        if t.speaker not in speakers.setdefault(t.agent_id, []):
            speakers[t.agent_id].append(t.speaker)
    asked = []
    for t in rng.sample(found, n):
        first, second = speakers[t.agent_id][:2]
        asked.append({"query": f"What do {first} and {second} both say about {_topic(t)}?", "agentId": t.agent_id,
                      "limit": 10})
    return asked


def person_questions(found: list[turns.Turn], seed: int, n: int) -> list[dict]:
    """Yes/no questions about a turn's speaker, about a few words of that turn."""
    rng = random.Random(seed + 3)
    return [{"query": f"Would {t.speaker} enjoy {_topic(t)}?", "agentId": t.agent_id, "limit": 10}
            for t in rng.sample(found, n)]


def _service(ws: Path, env: dict[str, str]) -> MemoryService:
    """A service reading its settings with this extra environment (a mode's SIGNET_* variables)."""
    saved = {var: os.environ.get(var) for var in env}
    os.environ.update(env)
    try:
        return MemoryService(load_settings(ws))
    finally:
        for var, value in saved.items():
            if value is None:
                os.environ.pop(var)
            else:
                os.environ[var] = value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--mode", action="append", default=[], metavar="NAME=VAR=VALUE",
                        help="a second server with this environment, asked turn about with the default one "
                             "(e.g. store-stats=SIGNET_SEARCH__AGENT_TERM_STATS=false)")
    args = parser.parse_args()
    ws = drained_store(args.turns, args.seed)
    found = turns.turns(args.turns, args.seed)
    kinds = {"turn words": queries(found, args.seed, args.queries),
             "two names": pair_questions(found, args.seed, args.queries // 3),
             "one person": person_questions(found, args.seed, args.queries // 3)}
    asked = [(kind, body) for kind, bodies in kinds.items() for body in bodies]
    random.Random(args.seed).shuffle(asked)  # the kinds interleaved: neither runs on a warmer machine
    modes: dict[str, dict[str, str]] = {"default": {}}
    for spec in args.mode:
        name, var, value = spec.split("=", 2)
        modes.setdefault(name, {})[var] = value
    times: dict[tuple[str, str], list[float]] = {(f"HTTP, {m}", k): [] for m in modes for k in kinds}
    with tempfile.TemporaryDirectory() as tmp:
        servers = {m: ApiServer(ws, Path(tmp) / f"serve-{i}.log", env=env) for i, (m, env) in enumerate(modes.items())}
        for server in servers.values():
            server.start()
        try:
            clients = {m: httpx.Client(base_url=s.base_url, timeout=60) for m, s in servers.items()}
            for _, body in asked[:20]:  # warm-up: the first reads of each word's counts, the models
                for client in clients.values():
                    client.post("/api/memory/recall", json=body).raise_for_status()
            for kind, body in asked:
                for mode, client in clients.items():
                    started = time.perf_counter()
                    client.post("/api/memory/recall", json=body).raise_for_status()
                    times[(f"HTTP, {mode}", kind)].append((time.perf_counter() - started) * 1000)
        finally:
            for server in servers.values():
                server.stop()
    services = {mode: _service(ws, env) for mode, env in modes.items()}
    try:
        rows = services["default"].db.reader().execute(
            "SELECT count(*), count(source_memory_id) FROM memories WHERE is_deleted = 0")
        total, derived = next(iter(rows))
        # Kind by kind, each asked once untimed first: a kind's query vectors fit the query cache.
        # The modes take turns query by query, as over HTTP.
        for kind in kinds:
            mine = [RecallRequest(**body) for k, body in asked if k == kind]
            for req in mine:
                recall_memories(services["default"], req, SEARCH)
            for req in mine:
                for mode, svc in services.items():
                    with Timer() as t:
                        recall_memories(svc, req, SEARCH)
                    times.setdefault((f"in process, {mode}", kind), []).append(t.ms)
    finally:
        for svc in services.values():
            svc.close()
    print(f"\n{args.turns:,} turns drained: {total:,} live memories, {derived:,} of them derived facts; "
          + ", ".join(f"{len(bodies)} queries of {kind}" for kind, bodies in kinds.items()))
    print("| path | queries | p50 ms | p95 ms | p99 ms | p50 / in process |")
    print("|---|---|---:|---:|---:|---:|")
    for (name, kind), values in sorted(times.items(), key=lambda item: item[0][1], reverse=True):
        s = summary(values)
        p99 = sorted(values)[int(len(values) * 0.99) - 1]
        base = summary(times[("in process, default", kind)])["p50"]
        print(f"| {name} | {kind} | {s['p50']:.1f} | {s['p95']:.1f} | {p99:.1f} | {s['p50'] / base:.2f} |")


if __name__ == "__main__":
    main()
