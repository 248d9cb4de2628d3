"""A million memories: imported from a Parquet snapshot, then served.

    .venv/bin/python -m bench.scale_bench [--size 1000000] [--pool 200000] [--queries 300]

1. The snapshot (bench/scale_snapshot.py, cached) is imported with `signet import` into a new
   workspace, as a user would: wall time, rows/s and the importer's peak RSS.
2. The database by part (vectors, vec0, full text, the rest) and `signet export`.
3. `signet serve` starts on it twice (bench/scale_serve.py): first with no vector index file (time
   until /health, then until the worker has written the file), then as every later start does,
   mapping the file: time until /health, recall over HTTP with one client, every query once (the
   server embeds it) and again (its query LRU answers), the server's total and vector-search
   stage beside, and RSS after the queries. The floor: the same on an empty workspace.
4. In process: the vector search as the service opens it (the file, the sign-bit prefilter) at
   each candidate count, beside the exact float32 product, and the share of its top 10 / top 50
   the prefilter keeps; the query embedding alone (the embedding floor).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench import dataset
from bench.report import markdown
from bench.scale_serve import db_split, embed_floor, load, serve, vector_search
from bench.scale_snapshot import build
from bench.store import DATA_DIR
from signet_eval.server import proc_memory
from signet_pipeline.config import DB_RELATIVE_PATH


def _signet(*args: str) -> dict:
    """Run a signet command; its wall time and peak RSS. The peak is the child's own VmHWM, polled
    while it runs: wait4's ru_maxrss would include this (large) process's RSS at fork time."""
    signet = Path(sys.executable).parent / "signet"
    started = time.perf_counter()
    proc = subprocess.Popen([str(signet), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0.0
    while proc.poll() is None:
        try:
            peak = max(peak, proc_memory(proc.pid).get("VmHWM") or 0.0)
        except (FileNotFoundError, ProcessLookupError, ValueError):  # it ended between poll and read
            pass
        time.sleep(0.2)
    if proc.returncode != 0:
        raise RuntimeError(f"signet {' '.join(args)} failed ({proc.returncode})")
    return {"seconds": round(time.perf_counter() - started, 1), "peak_rss_mb": round(peak)}


def _import(snapshot: Path, workspace: Path, *, only: bool = False) -> dict:
    """`signet import` into a new workspace, between two runs of its floor: the same rows read
    from the same Parquet files (vectors as blobs) and inserted by bare executemany calls in one
    transaction into tables with no index, trigger or constraint, WAL and synchronous=NORMAL as
    the store, checkpointed. `only`: print the figures and stop there."""
    import resource

    import apsw
    import polars as pl

    from signet_pipeline.snapshots.incremental import vector_blobs
    from signet_pipeline.snapshots.manifest import MANIFEST, Manifest

    manifest = Manifest.model_validate_json((snapshot / MANIFEST).read_text())
    scratch = workspace.parent / f"{workspace.name}-floor.db"

    def floor() -> tuple[float, float]:
        for old in scratch.parent.glob(f"{scratch.name}*"):
            old.unlink()
        started, cpu = time.perf_counter(), time.process_time()
        conn = apsw.Connection(str(scratch))
        conn.execute("PRAGMA journal_mode=WAL").fetchall()
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("BEGIN IMMEDIATE")
        for entry in manifest.tables:
            cols = [c.name for c in entry.columns]
            conn.execute(f"CREATE TABLE {entry.table} ({', '.join(cols)})")
            insert = f"INSERT INTO {entry.table} VALUES ({', '.join('?' * len(cols))})"
            for batch in pl.scan_parquet(snapshot / entry.file).collect_batches(chunk_size=20_000):
                conn.executemany(insert, vector_blobs(batch).rows())
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        conn.close()
        for old in scratch.parent.glob(f"{scratch.name}*"):
            old.unlink()
        return time.perf_counter() - started, time.process_time() - cpu

    def cpu_of_children() -> float:  # CPU of the waited-for children: steadier than wall on a shared machine
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        return used.ru_utime + used.ru_stime

    loads = [Path("/proc/loadavg").read_text().split()[0]]
    floors = [floor()]
    shutil.rmtree(workspace, ignore_errors=True)
    cpu = cpu_of_children()
    out = _signet("--workspace", str(workspace), "import", str(snapshot))
    out["cpu_s"] = round(cpu_of_children() - cpu, 1)
    loads.append(Path("/proc/loadavg").read_text().split()[0])
    floors.append(floor())
    loads.append(Path("/proc/loadavg").read_text().split()[0])
    out["db_mb"] = round(sum(p.stat().st_size
                             for p in (workspace / DB_RELATIVE_PATH).parent.glob("memories.db*")) / 1e6)
    rows = manifest.total_rows
    wall, cpu = (sum(f[i] for f in floors) / len(floors) for i in (0, 1))
    out.update(rows=rows, floor_s=[round(f[0], 1) for f in floors], floor_cpu_s=[round(f[1], 1) for f in floors],
               loads=loads, ratio=round(out["seconds"] / wall, 2), cpu_ratio=round(out["cpu_s"] / cpu, 2))
    if only:
        print(markdown(["measure", "value"], [
            ["rows in the snapshot", f"{rows:,}"],
            ["`signet import`: wall s / rows/s / CPU s",
             f"{out['seconds']} / {round(rows / out['seconds']):,} / {out['cpu_s']}"],
            ["importer peak RSS MB / database size MB", f"{out['peak_rss_mb']} / {out['db_mb']}"],
            ["floor (bare executemany) before / after: wall s", " / ".join(map(str, out["floor_s"]))],
            ["floor before / after: CPU s", " / ".join(map(str, out["floor_cpu_s"]))],
            ["import / mean floor: wall, CPU", f"{out['ratio']}, {out['cpu_ratio']}"],
            ["load average before / between / after", " / ".join(loads)],
        ]))
        raise SystemExit(0)
    return out


def _export(workspace: Path) -> dict:
    target = workspace.parent / f"{workspace.name}-export"
    shutil.rmtree(target, ignore_errors=True)
    out = _signet("--workspace", str(workspace), "export", str(target))
    out["mb"] = round(sum(p.stat().st_size for p in target.iterdir()) / 1e6)
    shutil.rmtree(target, ignore_errors=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--pool", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--candidates", default="1000,2000,4000,8000",
                        help="prefilter candidate counts to compare (rescored exactly)")
    parser.add_argument("--import-only", action="store_true", help="run the import step (and its floor) alone")
    args = parser.parse_args()
    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    snapshot = build(args.size, args.pool, args.seed, log)
    workspace = DATA_DIR / f"scale-ws-{args.size}"
    log(f"importing {snapshot.name} ...")
    imported = _import(snapshot, workspace, only=args.import_only)
    log("exporting ...")
    exported = _export(workspace)
    pool = dataset.memories(args.pool, args.seed)
    queries = [q.text for q in dataset.queries(pool, args.queries, args.seed)]
    log("serving ...")
    served = serve(workspace, queries, log)
    split = db_split(workspace)  # the database as imported, and the index file the service wrote
    floor = served["floor"]
    log("vector search in process ...")
    vectors, embed_ms = embed_floor(queries[:100])
    pre = vector_search(workspace, vectors, [int(c) for c in args.candidates.split(",")])
    rows_imported = 3 * args.size  # memories, their vectors and their history rows

    def p(s: dict) -> str:
        return f"{s['p50']:.1f} / {s['p95']:.1f}"

    print(f"{args.size:,} memories; {os.cpu_count()} cores; query embedding by the offline model; load {load()}")
    print(markdown(["measure", "value"], [
        ["import (`signet import`), wall s", imported["seconds"]],
        ["import rows/s (memories + vectors + history)", round(rows_imported / imported["seconds"])],
        ["importer peak RSS MB", imported["peak_rss_mb"]],
        ["database size MB (after the import, WAL included)", imported["db_mb"]],
        ["export (`signet export`, Parquet), wall s / peak RSS MB / size MB",
         f"{exported['seconds']} / {exported['peak_rss_mb']} / {exported['mb']}"],
        ["first `signet serve` start until /health, s / until the index file is written, s",
         f"{served['first_startup_s']} / {served['index_file_s']}"],
        ["`signet serve` start-up until /health, s (floor: empty workspace)",
         f"{served['startup_s']} (floor {floor['startup_s']}, ratio {served['startup_s'] / floor['startup_s']:.2f})"],
        ["API RSS after the queries, MB: all / anonymous / file-backed (floor: all)",
         f"{served['rss']['VmRSS']} / {served['rss'].get('RssAnon')} / {served['rss'].get('RssFile')} "
         f"(floor {floor['rss']['VmRSS']})"],
        ["recall p50 / p95 ms over HTTP, query embedded (floor)",
         f"{p(served['fresh']['wall'])} ({p(floor['fresh']['wall'])})"],
        ["  server total / vector search stage / query embedding stage",
         f"{p(served['fresh']['server'])} / {p(served['fresh']['vector_search'])} / "
         f"{p(served['fresh']['query_embedding'])}"],
        ["recall p50 / p95 ms over HTTP, query vector cached (floor)",
         f"{p(served['cached']['wall'])} ({p(floor['cached']['wall'])})"],
        ["  server total / vector search stage",
         f"{p(served['cached']['server'])} / {p(served['cached']['vector_search'])}"],
        ["query embedding alone in process (embedding floor) p50 / p95 ms", p(embed_ms)],
        ["vector search alone, exact float32 product (floor) p50 / p95 ms", p(pre["exact"])],
        ["index open in process as the service opens it (vectors, s)", f"{pre['vectors']:,} in {pre['open_s']}"],
    ]))
    print()
    print(markdown(["database part", "MB"], [[k, v] for k, v in split.items()]))
    print()
    print(markdown(["prefilter candidates", "vector search p50 ms", "p95 ms", "ratio to exact p50",
                    "keeps exact top 10", "keeps top 50"],
                   [[c, round(r["fast"]["p50"], 1), round(r["fast"]["p95"], 1),
                     round(r["fast"]["p50"] / pre["exact"]["p50"], 2), r["recall10"], r["recall50"]]
                    for c, r in pre["runs"].items()]))


if __name__ == "__main__":
    main()
