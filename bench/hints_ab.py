"""`python -m bench.hints_ab [--sizes 10000]`: prospective hints' cost. On a working copy of the
bench's cached store: hints generated for every memory with the configured extraction provider
(rules by default; throughput reported), then recall with hints on vs off, alternating query by
query in one process (alternation cancels the machine's drift). Quality effect: `signet eval
locomo FILE --hints` vs without (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import shutil
import time

from bench import dataset, store
from bench.ab import alternate, print_table
from signet_pipeline.config import load_settings
from signet_pipeline.providers.embeddings import create_embedder
from signet_pipeline.providers.llm import create_llm
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.hints import drain_hints, enqueue_backfill
from signet_pipeline.store.queue import JobQueue

MODES = {"hints on": True, "hints off": False}


def generate_all(svc: MemoryService) -> tuple[int, int, float]:
    """(memories queued, hints written, seconds) for hints of every memory that has none."""
    queued = enqueue_backfill(svc, JobQueue(svc.db), 10_000_000)
    started = time.perf_counter()
    written = drain_hints(svc, create_llm(svc.settings.pipeline.extraction))
    return queued, written, time.perf_counter() - started


def run(size: int, seed: int, queries: int, embedder) -> tuple[list[tuple], tuple[int, int, float]]:
    mems = dataset.memories(size, seed)
    qs = dataset.queries(mems, queries, seed)
    cached, _ = store.ensure_store(size, seed, embedder, mems, print)
    ws = store.working_copy(cached, store.DATA_DIR / "run" / f"hints-ab-n{size}")
    services = {mode: MemoryService(load_settings(ws, memory={"pipelineV2": {"hints": {"enabled": on}}}),
                                    embedder=embedder) for mode, on in MODES.items()}
    try:
        generated = generate_all(services["hints on"])
        rows = alternate(services, qs, mems, size)
        return rows, generated
    finally:
        for svc in services.values():
            svc.close()
        shutil.rmtree(ws, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.hints_ab", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="10000")
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--seed", type=int, default=42)
    args = p.parse_args(argv)
    embedder = create_embedder(load_settings().embedding)
    results = [run(int(size), args.seed, args.queries, embedder) for size in args.sizes.split(",")]
    print("| size | memories hinted | hints | generation s | memories/s |")
    print("|---:|---:|---:|---:|---:|")
    for rows, (n, written, seconds) in results:
        print(f"| {rows[0][0]} | {n:,} | {written:,} | {seconds:.1f} | {n / seconds:,.0f} |")
    print()
    print_table([row for rows, _ in results for row in rows])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
