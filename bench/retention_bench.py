"""`python -m bench.retention_bench [--size 100000]`: retention sweep cost on a populated store.

On a working copy of a cached bench store (any schema: opening it migrates it; built by `python
-m bench` if missing), it ages a share of every table past its window — tombstones (30 %), history
(half), completed (half the jobs) and dead jobs (a tenth) — then times one sweep at the default
batch limit (per step: rows, ms) and a full drain at batch limits 500 and 5000 (sweeps needed,
total time, the longest single step: how long the write lock is held at most).
"""

from __future__ import annotations

import argparse
import shutil

from bench import dataset, store
from bench.stats import Timer
from signet_pipeline.config import load_settings
from signet_pipeline.config_sections import RetentionConfig
from signet_pipeline.providers.embeddings import create_embedder
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.retention import sweep

AGE = "2020-01-01T00:00:00.000Z"  # past every default window


def age_rows(svc: MemoryService) -> dict[str, int]:
    """Push part of each table past its window (bench set-up, plain SQL on the working copy)."""
    with svc.db.write() as conn:
        conn.execute("UPDATE memories SET is_deleted = 1, deleted_at = ? WHERE rid % 10 < 3", (AGE,))
        conn.execute("UPDATE memory_history SET created_at = ? WHERE rowid % 2 = 0", (AGE,))
        conn.execute("UPDATE memory_jobs SET status = 'completed', completed_at = ? WHERE id % 2 = 0", (AGE,))
        conn.execute("UPDATE memory_jobs SET status = 'dead', failed_at = ? WHERE id % 10 = 1", (AGE,))
        return {name: conn.execute(sql).fetchall()[0][0] for name, sql in {
            "tombstones": "SELECT count(*) FROM memories WHERE is_deleted = 1",
            "history": f"SELECT count(*) FROM memory_history WHERE created_at = '{AGE}'",
            "completed_jobs": "SELECT count(*) FROM memory_jobs WHERE status = 'completed'",
            "dead_jobs": "SELECT count(*) FROM memory_jobs WHERE status = 'dead'",
        }.items()}


def drain(svc: MemoryService, batch_limit: int) -> tuple[int, float, float, int]:
    """Sweeps until nothing is purged: (sweeps, total ms, longest step ms, rows)."""
    cfg = RetentionConfig(batchLimit=batch_limit, changeLogKeep=100_000)
    sweeps, total_ms, longest, rows = 0, 0.0, 0.0, 0
    while True:
        with Timer() as t:
            report = sweep(svc.db, cfg)
        sweeps += 1
        total_ms += t.ms
        longest = max([longest, *(s.elapsed_ms for s in report.steps)])
        rows += report.total_rows
        if not report.backlog:
            return sweeps, total_ms, longest, rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.retention_bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=42)
    args = p.parse_args(argv)
    embedder = create_embedder(load_settings().embedding)
    cached = store.any_cached(args.size, args.seed)
    if cached is None:
        cached, _ = store.ensure_store(args.size, args.seed, embedder, dataset.memories(args.size, args.seed), print)
    print(f"store: {cached.name}")
    results = []
    for limit in (500, 5000):
        ws = store.working_copy(cached, store.DATA_DIR / "run" / f"retention-{limit}")
        svc = MemoryService(load_settings(ws), embedder=embedder)
        try:
            aged = age_rows(svc)
            if limit == 500:
                print(f"aged past their windows: {aged}")
                first = sweep(svc.db, RetentionConfig())
                print("\none sweep at the default batch limit (500):\n")
                print("| step | rows | ms |")
                print("|---|---:|---:|")
                for s in first.steps:
                    print(f"| {s.name} | {s.rows:,} | {s.elapsed_ms:.1f} |")
            results.append((limit, *drain(svc, limit)))
        finally:
            svc.close()
            shutil.rmtree(ws, ignore_errors=True)
    print("\nfull drain:\n")
    print("| batch limit | sweeps | total s | rows/s | longest step ms |")
    print("|---:|---:|---:|---:|---:|")
    for limit, sweeps, total_ms, longest, rows in results:
        print(f"| {limit} | {sweeps} | {total_ms / 1000:.1f} | {rows / (total_ms / 1000):,.0f} | {longest:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
