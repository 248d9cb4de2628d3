"""`python -m bench.graph_ab [--sizes 10000,100000]`: recall with the graph paths on vs off,
alternating query by query in one process on the bench's cached stores (built by `python -m
bench` if missing). Alternation cancels the machine's drift, which separate passes do not.

Both services open the same working copy; query vectors are cached first (this prices the graph
paths, not the embedder). Prints p50/p95 per mode and the keyword-query hit@10 of each.
"""

from __future__ import annotations

import argparse
import shutil

from bench import dataset, store
from bench.ab import alternate, print_table
from signet_pipeline.config import load_settings
from signet_pipeline.providers.embeddings import create_embedder
from signet_pipeline.service import MemoryService

MODES = {"graph on (defaults)": {}, "graph off": {"graph": {"enabled": False}}}


def run(size: int, seed: int, queries: int, embedder) -> list[tuple]:
    mems = dataset.memories(size, seed)
    qs = dataset.queries(mems, queries, seed)
    cached, _ = store.ensure_store(size, seed, embedder, mems, print)
    ws = store.working_copy(cached, store.DATA_DIR / "run" / f"graph-ab-n{size}")
    services = {mode: MemoryService(load_settings(ws, memory={"pipelineV2": over}), embedder=embedder)
                for mode, over in MODES.items()}
    try:
        return alternate(services, qs, mems, size)
    finally:
        for svc in services.values():
            svc.close()
        shutil.rmtree(ws, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.graph_ab", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="10000,100000")
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--seed", type=int, default=42)
    args = p.parse_args(argv)
    embedder = create_embedder(load_settings().embedding)
    rows = [r for size in args.sizes.split(",") for r in run(int(size), args.seed, args.queries, embedder)]
    print_table(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
