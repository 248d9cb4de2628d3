"""`python -m bench.refresh_bench [--size 2000] [--repeats 2]`: embedding refresh throughput after a
model switch, against the raw embedder on the same texts.

On a working copy of a cached bench store (built by `python -m bench` if missing), every vector is
marked as made by a retired model (a switch to a model of the same dimension: vec0 is rebuilt
empty, every live memory needs a vector), then one refresh run re-embeds all of them with the real
ONNX embedder at provider-call sizes 8, 32 and 64. Beside each, the embedder alone embeds the same
texts in the same chunks. overhead = raw rows/s / refresh rows/s: what the store adds (candidate
query, per-batch write transaction, vec0 and change-log upkeep). "outside embed %" is the share of
the run not spent in provider calls, measured within the run itself, so it is the figure that
survives a noisy machine. Best of `--repeats`; compare rows side by side rather than across runs.

Then the detection queries on the cached store of `--query-size` memories (read-only: a switch is
simulated by asking for another model's vectors): the sensor's has-work probe, the backlog count
and the candidate query of one run, with no backlog and with every memory needing a vector.
"""

from __future__ import annotations

import argparse
import shutil

from bench import dataset, store
from bench.stats import Timer, summary
from signet_pipeline.config import DB_RELATIVE_PATH, load_settings
from signet_pipeline.providers.embeddings import EmbeddingProvider, create_embedder
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.embedding_refresh import MAX_ROWS, RefreshReport, run_refresh
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store.db import Database

BATCH_SIZES = (8, 32, 64)


def raw_rate(embedder: EmbeddingProvider, texts: list[str], batch: int) -> float:
    """Texts per second through the embedder alone, in provider calls of `batch`."""
    with Timer() as t:
        for start in range(0, len(texts), batch):
            embedder.embed(texts[start:start + batch])
    return len(texts) / (t.ms / 1000)


def refresh_once(cached, embedder: EmbeddingProvider, batch: int) -> tuple[RefreshReport, list[str]]:
    """One full refresh after a simulated model switch on a fresh working copy; (report, texts)."""
    ws = store.working_copy(cached, store.DATA_DIR / "run" / f"refresh-{batch}")
    try:
        svc = MemoryService(load_settings(ws), embedder=embedder)
        try:
            with svc.db.write() as conn:
                conn.execute("UPDATE embeddings SET model = 'retired-model'")
            texts = [r[0] for r in svc.db.reader().execute(
                "SELECT content FROM memories WHERE is_deleted = 0 ORDER BY updated_at DESC, rid DESC")]
            report = run_refresh(svc, batch_size=batch, max_rows=len(texts) + 1, time_budget_s=3600)
            if report.remaining or report.failed:
                raise RuntimeError(f"refresh incomplete: {report.summary()}")
            return report, texts
        finally:
            svc.close()
    finally:
        shutil.rmtree(ws, ignore_errors=True)


def query_costs(cached, model: str, dims: int, repeats: int = 5) -> None:
    db = Database(cached / DB_RELATIVE_PATH)  # reads only: the cache is never modified
    try:
        conn = db.reader()
        queries = {
            "sensor probe (has_backlog)": lambda m: emb_store.has_backlog(conn, model=m, dimensions=dims),
            "backlog count (refresh_backlog)": lambda m: emb_store.refresh_backlog(conn, model=m, dimensions=dims),
            f"candidates, limit {MAX_ROWS} (stale_memories)":
                lambda m: emb_store.stale_memories(conn, model=m, dimensions=dims, limit=MAX_ROWS),
        }
        print("| query | no backlog p50 ms | every memory stale p50 ms |")
        print("|---|---:|---:|")
        for name, query in queries.items():
            cells = []
            for m in (model, "some-new-model"):
                times = []
                for _ in range(repeats):
                    with Timer() as t:
                        query(m)
                    times.append(t.ms)
                cells.append(summary(times)["p50"])
            print(f"| {name} | {cells[0]:.1f} | {cells[1]:.1f} |")
    finally:
        db.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.refresh_bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", type=int, default=2000)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--query-size", type=int, default=100_000, help="store size for the query costs (0: skip)")
    args = p.parse_args(argv)
    embedder = create_embedder(load_settings().embedding)
    cached = store.any_cached(args.size, args.seed)
    if cached is None:
        cached, _ = store.ensure_store(args.size, args.seed, embedder, dataset.memories(args.size, args.seed), print)
    print(f"store: {cached.name}; embedder {embedder.name}/{embedder.model}, "
          f"{load_settings().embedding.threads} onnxruntime threads\n")
    print("| batch | refresh rows/s | raw embedder rows/s | overhead | embed s | write s | outside embed % "
          "| batches | elapsed s |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for batch in BATCH_SIZES:
        best: RefreshReport | None = None
        raw = 0.0
        for _ in range(args.repeats):  # alternate ours and raw, keep the best of each
            report, texts = refresh_once(cached, embedder, batch)
            best = report if best is None or report.rows_per_s > best.rows_per_s else best
            raw = max(raw, raw_rate(embedder, texts, batch))
        assert best is not None
        print(f"| {batch} | {best.rows_per_s:,.0f} | {raw:,.0f} | {raw / best.rows_per_s:.2f}x | "
              f"{best.embed_ms / 1000:.2f} | {best.write_ms / 1000:.2f} | "
              f"{100 * (1 - best.embed_ms / 1000 / best.elapsed_s):.1f} | {best.batches} | {best.elapsed_s:.2f} |")
    big = store.any_cached(args.query_size, args.seed) if args.query_size else None
    if args.query_size and big is None:
        print(f"\nno cached store of {args.query_size:,} memories: run `python -m bench` first for the query costs")
    elif big is not None:
        print(f"\ndetection queries on {big.name}:\n")
        query_costs(big, embedder.model, embedder.dimensions)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
