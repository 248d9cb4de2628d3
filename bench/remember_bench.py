"""`python -m bench.remember_bench`: remember over HTTP on a busy store, many memories per entity.

    .venv/bin/python -m bench.remember_bench                          # 4,000 over HTTP, then 10k (~4 min)
    .venv/bin/python -m bench.remember_bench --sizes 10000,100000     # + 100k (the build takes ~10 min)

The workload of issue 14's comparison with the reference daemon: templated memories about ten
people and ten systems (deploys, stack choices, preferences, decisions, on-call weeks, alerts), so
every entity collects hundreds of attributes and the inline linker's sibling supersession, the
FTS and the entity tables work on busy rows. `signet serve` in a subprocess, one sequential
keep-alive client:
- grow: memories 0 -> 4,000 through HTTP; remember p50/p95 over 2,500 -> 4,000 (the issue's window);
- sizes: a store of N such memories built in process (remember_many), then 300 more through HTTP.
Remember answers once the row is committed; its vector is written behind (embedding.writeBehind)
and every other request waits for it. So each iteration is: POST remember (timed), GET /health
(waits for the vector: remember + this = when a next read sees it), GET /health again (the HTTP
floor: the request path with no work), then the same text embedded in this process with the
server idle (the embedding floor). The reference
TypeScript daemon's p50 on the grow workload, 13.9 ms (issue 14; same MiniLM model, it also
embeds before answering), is quoted, not re-measured here.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import time
from pathlib import Path

import httpx

from bench.report import machine, machine_lines
from bench.stats import summary
from signet_eval.server import ApiServer
from signet_pipeline.config import load_settings
from signet_pipeline.models import RememberRequest
from signet_pipeline.providers.embeddings import create_embedder
from signet_pipeline.service import MemoryService
from signet_pipeline.write.remember import remember_many

REFERENCE_P50_MS = 13.9
PEOPLE = ["Alice Moreau", "Bruno Keller", "Chiara Rossi", "Dmitri Volkov", "Esme Lindqvist", "Farid Haddad",
          "Greta Novak", "Hiro Tanaka", "Ines Duarte", "Jonas Weber"]
SYSTEMS = ["Atlas", "Beacon", "Cobalt", "Delta", "Ember", "Falcon", "Granite", "Harbor", "Iris", "Juniper"]
STORES = ["Postgres", "SQLite", "Redis", "Kafka", "MySQL", "DynamoDB"]


def memories(count: int, seed: int) -> list[str]:
    r = random.Random(seed)
    pick = r.choice
    templates = [
        lambda: f"{pick(PEOPLE)} deployed {pick(SYSTEMS)} version {r.randint(1, 40)}.{r.randint(0, 9)} to the "
                f"{pick(['staging', 'production', 'eu-west', 'us-east'])} cluster.",
        lambda: f"{pick(SYSTEMS)} now uses {pick(STORES)} for "
                f"{pick(['sessions', 'billing events', 'audit logs', 'the search index', 'caching'])}.",
        lambda: f"{pick(PEOPLE)} prefers {pick(['dark mode', 'tabs', 'vim', 'short standups', 'written RFCs'])} "
                f"when working on {pick(SYSTEMS)}.",
        lambda: f"We decided that {pick(SYSTEMS)} must not call {pick(SYSTEMS)} directly; use the "
                f"{pick(['queue', 'gateway', 'event bus'])} instead.",
        lambda: f"{pick(PEOPLE)} is on call for {pick(SYSTEMS)} in week {r.randint(1, 52)} of {r.randint(2024, 2027)}.",
        lambda: f"The {pick(SYSTEMS)} {pick(['latency', 'error rate', 'memory use', 'queue depth'])} alert fires "
                f"above {r.randint(2, 900)} {pick(['ms', 'percent', 'MB', 'jobs'])}.",
    ]
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < count:
        text = pick(templates)()
        if text not in seen:  # new content each call: no dedup hit
            seen.add(text)
            out.append(text)
    return out


def timed_loop(server: ApiServer, embedder, texts: list[str]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"remember": [], "visible": [], "health": [], "embed": []}

    def ms(started: float) -> float:
        return (time.perf_counter() - started) * 1000

    with httpx.Client(base_url=server.base_url, timeout=60) as client:
        for text in texts:
            started = time.perf_counter()
            client.post("/api/memory/remember", json={"content": text}).raise_for_status()
            out["remember"].append(ms(started))
            client.get("/health")  # waits for the vector written behind the answer
            out["visible"].append(ms(started))
            started = time.perf_counter()
            client.get("/health")
            out["health"].append(ms(started))
            started = time.perf_counter()
            embedder.embed_one(text)
            out["embed"].append(ms(started))
    return out


def row(label: str, samples: dict[str, list[float]]) -> dict:
    out = {k: summary(v) for k, v in samples.items()}
    out["label"] = label
    out["vs_reference"] = round(out["remember"]["p50"] / REFERENCE_P50_MS, 2)
    print(f"{label}: remember p50 {out['remember']['p50']:.2f} ms p95 {out['remember']['p95']:.2f} "
          f"({out['vs_reference']}x the reference's {REFERENCE_P50_MS}); vector visible p50 "
          f"{out['visible']['p50']:.2f}; /health p50 {out['health']['p50']:.2f}; embed p50 {out['embed']['p50']:.2f}",
          flush=True)
    return out


def grow(root: Path, embedder, texts: list[str], window: tuple[int, int]) -> dict:
    workspace = root / "grow"
    workspace.mkdir()
    with ApiServer(workspace, root / "grow.log") as server:
        with httpx.Client(base_url=server.base_url, timeout=60) as client:
            for text in texts[:window[0]]:
                client.post("/api/memory/remember", json={"content": text}).raise_for_status()
        return row(f"grow {window[0]:,} -> {window[1]:,}", timed_loop(server, embedder, texts[window[0]:window[1]]))


def at_size(root: Path, embedder, size: int, extra: int, seed: int) -> dict:
    workspace = root / f"n{size}"
    texts = memories(size + extra, seed)
    svc = MemoryService(load_settings(workspace), embedder=embedder)
    started = time.perf_counter()
    for start in range(0, size, 4096):
        remember_many(svc, [RememberRequest(content=t) for t in texts[start:min(start + 4096, size)]],
                      pipeline_jobs=False)
    build_s = time.perf_counter() - started
    svc.close()
    print(f"built {size:,} memories in {build_s:.0f} s ({size / build_s:.0f}/s)", flush=True)
    with ApiServer(workspace, root / f"n{size}.log") as server:
        out = row(f"{size:,} memories", timed_loop(server, embedder, texts[size:]))
    out["build_s"] = round(build_s, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.remember_bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="10000", help="store sizes built in process, comma-separated (default 10000)")
    p.add_argument("--extra", type=int, default=300, help="remembers timed per size (default 300)")
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--out", type=Path)
    args = p.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="signet-remember-bench-"))
    embedder = create_embedder(load_settings(root / "settings").embedding)
    results: dict = {"machine": machine(), "reference_p50_ms": REFERENCE_P50_MS}
    try:
        results["grow"] = grow(root, embedder, memories(4000, args.seed), (2500, 4000))
        results["sizes"] = [at_size(root, embedder, int(s), args.extra, args.seed + 1)
                            for s in args.sizes.split(",") if s]
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("\n".join(machine_lines(results["machine"])))
    print("| store | remember p50 | p95 | vs reference p50 13.9 ms | vector visible p50 | HTTP floor (/health) p50 "
          "| embed p50 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in [results["grow"], *results["sizes"]]:
        print(f"| {r['label']} | {r['remember']['p50']:.2f} ms | {r['remember']['p95']:.2f} ms | {r['vs_reference']}x "
              f"| {r['visible']['p50']:.2f} ms | {r['health']['p50']:.2f} ms | {r['embed']['p50']:.2f} ms |")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
