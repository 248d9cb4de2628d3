"""`python -m bench`: build or reuse the stores, run every benchmark, print the table.

    .venv/bin/python -m bench                       # sizes 10000,100000, 200 queries
    .venv/bin/python -m bench --quick               # 2000 memories, smoke run
    .venv/bin/python -m bench --out bench/.data/results.json
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

from bench import dataset, diagnostics, http_bench, recall_bench, report, store, write_bench
from bench.floor import Floor
from bench.stats import Timer
from signet_pipeline.config import DB_RELATIVE_PATH, load_settings
from signet_pipeline.providers.embeddings import create_embedder
from signet_pipeline.service import MemoryService
from signet_pipeline.timeutil import now_iso

WRITE_SIZE = 10_000  # remember and HTTP run on this store (on the smallest one if it is not in --sizes)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="10000,100000", help="comma-separated store sizes (default 10000,100000)")
    p.add_argument("--queries", type=int, default=None, help="queries per size (default 200; 60 with --quick)")
    p.add_argument("--writes", type=int, default=None, help="remember calls, in process and over HTTP "
                                                            "(default 300; 60 with --quick)")
    p.add_argument("--seed", type=int, default=42, help="data generator seed (default 42)")
    p.add_argument("--quick", action="store_true", help="smoke run: one store of 2000 memories")
    p.add_argument("--no-http", action="store_true", help="skip the HTTP benchmark")
    p.add_argument("--out", type=Path, help="also write all results as JSON to this path")
    args = p.parse_args(argv)
    args.size_list = [2000] if args.quick else sorted({int(s.replace("_", "")) for s in args.sizes.split(",") if s})
    args.queries = args.queries or (60 if args.quick else 200)
    args.writes = args.writes or (60 if args.quick else 300)
    return args


def log(message: str) -> None:
    print(message, flush=True)


def command_line() -> str:
    exe = Path(sys.executable)
    try:
        exe = exe.relative_to(Path.cwd())
    except ValueError:
        pass
    return " ".join([str(exe), "-m", "bench", *sys.argv[1:]])


def bench_size(size: int, args: argparse.Namespace, embedder, write_here: bool) -> dict:
    load = os.getloadavg()
    log(f"\n== {size:,} memories ==  (load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    mems = dataset.memories(size, args.seed)
    queries = dataset.queries(mems, args.queries, args.seed)
    cached_ws, info = store.ensure_store(size, args.seed, embedder, mems, log)
    run_dir = store.DATA_DIR / "run"
    ws = store.working_copy(cached_ws, run_dir / f"n{size}")
    result: dict = {"build": info.__dict__, "queries": len(queries), "load_before": load}
    try:
        with Timer() as t:
            svc = MemoryService(load_settings(ws), embedder=embedder)
        result["open_ms"] = round(t.ms, 1)
        try:
            svc_vec = MemoryService(load_settings(ws, search={"vector_backend": "sqlite-vec"}), embedder=embedder)
            svc_flat = MemoryService(load_settings(ws, memory={"pipelineV2": {"graph": {"enabled": False}}}),
                                     embedder=embedder)
            with Timer() as t:
                floor = Floor(ws / DB_RELATIVE_PATH)
            result["floor_load_ms"] = round(t.ms, 1)
            log(f"  service open {result['open_ms']:.0f} ms (index of {len(svc.vector_index()):,} vectors); "
                f"recall over {len(queries)} queries:")
            try:
                result["recall"] = recall_bench.run(svc, svc_vec, svc_flat, floor, queries, mems, log)
                result["diagnostics"] = diagnostics.run(svc, queries, mems, log)
            finally:
                floor.close()
                svc_vec.close()
                svc_flat.close()
            if write_here:
                contents = dataset.fresh_contents(2 * (args.writes + write_bench.WARMUP), args.seed)
                half = len(contents) // 2
                log(f"  remember() x {args.writes} on a copy of this store:")
                no_linker = MemoryService(load_settings(ws, memory={"pipelineV2": {"graphEnabled": False}}),
                                          embedder=embedder)
                try:
                    result["write"] = write_bench.run(svc, no_linker, contents[:half], log)
                finally:
                    no_linker.close()
        finally:
            svc.close()
        if write_here and not args.no_http:
            log(f"  HTTP API ({args.writes} remember, 2 x {len(queries)} recall):")
            result["http"] = http_bench.run(ws, run_dir / f"api-n{size}.log", contents[half:], queries, log)
    finally:
        shutil.rmtree(ws, ignore_errors=True)
    result["load_after"] = os.getloadavg()
    return result


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    info = report.machine()
    results: dict = {"command": command_line(), "date": now_iso(), "machine": info, "args": {
        "sizes": args.size_list, "queries": args.queries, "writes": args.writes, "seed": args.seed}, "sizes": {}}
    log(f"command: {results['command']}")
    for line in report.machine_lines(info):
        log(line)
    store.DATA_DIR.mkdir(parents=True, exist_ok=True)
    embed_cfg = load_settings(store.DATA_DIR / "run").embedding  # default settings
    embedder = create_embedder(embed_cfg)
    write_size = WRITE_SIZE if WRITE_SIZE in args.size_list else min(args.size_list)
    for size in args.size_list:
        results["sizes"][str(size)] = bench_size(size, args, embedder, write_here=size == write_size)

    results["runtime_s"] = round(time.perf_counter() - started, 1)
    lines = report.rows(results)
    log("\n" + "\n".join([f"command: {results['command']}", f"date: {results['date']}",
                          *report.machine_lines(info)]))
    log(f"embedder: {embedder.name}/{embedder.model} (default settings: threads={embed_cfg.threads}); "
        f"{args.queries} queries per size (40% keyword, 30% paraphrase, 30% frequent-term); "
        f"recall limit 10, candidate pool 50; floor k=50; times in ms.\n"
        "Stages are recall's meta.timings; stages may overlap (recall runs the vector leg on a worker thread "
        "beside FTS), so they need not add up to the total.\n")
    log(report.table(lines))
    log("")
    for line in report.quality_lines(results):
        log(line)
    load = os.getloadavg()
    results["load_after"] = load
    log(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (this machine has {info['nproc']} CPUs; "
        "anything above ~0.5 before a section means something else was running)")
    log(f"\ntotal runtime: {results['runtime_s']:.0f} s ({results['runtime_s'] / 60:.1f} min)")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2, default=str))
        log(f"results written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
