"""`python -m bench.pipeline_bench`: the pipeline draining a backlog as a user runs it (`signet up`),
beside the in-process floor of the same stages in the same run; one memory on an idle service; and
the pipeline against a model 300 ms away.

    .venv/bin/python -m bench.pipeline_bench --memories 6000 --agents 10 --idle 0 --no-llm   # ~15 min
    .venv/bin/python -m bench.pipeline_bench --turns locomo --memories 2000 --out F          # the 0.3 figures
    .venv/bin/python -m bench.pipeline_bench --memories 2000 --base bench/.data/scale-ws-1000000 --no-llm --idle 0
                                                                   # into a store of a million (scale_bench's)

The memories are conversation turns, remembered as the LoCoMo harness does: "Speaker: text", the
session's time, one private agent per conversation. `--turns real-length` (default): turns as long
as real ones (evalsets.turns: ~23 words, most of two or three clauses, `--agents` conversations
interleaved in time); `--turns locomo`: the shorter turns of evalsets.generate.
1. Floor, in process: the memories remembered one by one through the service (no HTTP), then every
   queue drained in this process with the same stages in the drain run's order (extract first,
   then structural, then hints) until empty.
2. `signet up` (API + dagster-webserver + dagster-daemon, the shipped dagster.yaml): the same
   memories over HTTP from 4 client threads while the sensors launch drain runs. End to end =
   first remember -> no job of any type pending or leased. Ratio = its memories/s over the floor's.
   Dagster runs, their launch cost (created -> started) and duplicate derived facts are counted.
   Both paths: jobs/s per 1,000 completed jobs with the store's size, time per job type, the
   extraction's time per stage, and CPU seconds per 1,000 memories (for `signet up` per process:
   API, drain runs, daemon, code servers), which external load does not move as it moves wall time
   (bench/drain_timeline.py); and the vectors the embedding refresh wrote during the backlog.
3. Idle: then one memory at a time with no run in flight: remember -> job completed -> its derived
   fact returned by recall.
4. LLM: a fake OpenAI-compatible server answering like the rules provider after --llm-latency-ms:
   extract jobs/s in process at extraction.concurrency 1, 4, 8; then all job types through
   `signet up` at concurrency 4.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import apsw
import httpx

from bench import dagster_runs, drain_timeline
from bench.report import machine, machine_lines
from bench.stats import summary
from evalsets import generate, turns
from signet_eval.server import ApiServer
from signet_pipeline.config import DB_RELATIVE_PATH, load_settings
from signet_pipeline.models import RememberRequest
from signet_pipeline.providers.llm.http import OpenAICompatibleLlm
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.extraction.batch import run_jobs
from signet_pipeline.stages.hints import run_hint_jobs
from signet_pipeline.stages.structural import run_structural_jobs
from signet_pipeline.store.queue import EXTRACT, JOB_TYPES, PROSPECTIVE_INDEX, STRUCTURAL_CLASSIFY, JobQueue
from signet_pipeline.write.remember import remember, remember_many
from tests.fakes import FakeServer, RulesModel

CLIENTS = 4


def log(message: str) -> None:
    print(message, flush=True)


def drain_in_process(svc: MemoryService, llm) -> dict:
    """Every queue until nothing is due, with the stages the drain runs use, in their order
    (defs/extraction/assets.py): jobs and seconds per job type, the extraction's seconds per stage."""
    queue = JobQueue(svc.db)
    jobs, seconds, cpu, stages = Counter(), Counter(), Counter(), Counter()

    def extract() -> int:
        batch = run_jobs(svc, queue, llm, 50)
        stages.update(batch.timings_ms)
        return len(batch.items)

    steps = [(EXTRACT, extract), (STRUCTURAL_CLASSIFY, lambda: run_structural_jobs(svc, queue, llm, 50).leased),
             (PROSPECTIVE_INDEX, lambda: run_hint_jobs(svc, queue, llm, 50).leased)]
    while True:
        for job_type, step in steps:
            started, used = time.perf_counter(), time.process_time()
            leased = step()
            seconds[job_type] += time.perf_counter() - started
            cpu[job_type] += time.process_time() - used
            if leased:
                jobs[job_type] += leased
                break
        else:
            return {"jobs": sum(jobs.values()), "stages_s": {k: round(v / 1000, 1) for k, v in stages.items()},
                    "by_type": {t: {"jobs": jobs[t], "s": round(seconds[t], 1),
                                    "ms_per_job": round(1000 * seconds[t] / jobs[t], 2),
                                    "cpu_ms_per_job": round(1000 * cpu[t] / jobs[t], 2)} for t in jobs}}


def workspace_from(base: Path | None, target: Path) -> Path:
    """A new workspace at `target`: empty, or a copy of `base` (a large store the backlog lands in)."""
    if base is None:
        target.mkdir()
    else:
        shutil.copytree(base, target, ignore=shutil.ignore_patterns("dagster", "logs", "*.log"))
    return target


def floor(root: Path, bodies: list[dict], base: Path | None = None) -> dict:
    svc = MemoryService(load_settings(workspace_from(base, root / "floor")))
    started, cpu = time.perf_counter(), time.process_time()
    for body in bodies:
        remember(svc, RememberRequest(**body))
    ingest_s, ingest_cpu = time.perf_counter() - started, time.process_time() - cpu
    drain_started = time.time()
    drained = drain_in_process(svc, RulesLlm())
    total_s, total_cpu = time.perf_counter() - started, time.process_time() - cpu
    svc.close()
    jobs = drained["jobs"]
    out = {"memories": len(bodies), "ingest_s": round(ingest_s, 1), "drain_s": round(total_s - ingest_s, 1),
           "total_s": round(total_s, 1), "jobs": jobs, "memories_per_s": round(len(bodies) / total_s, 1),
           "drain_jobs_per_s": round(jobs / (total_s - ingest_s), 1), "by_type": drained["by_type"],
           "stages_s": drained["stages_s"],
           "cpu_s": {"ingest": round(ingest_cpu, 1), "drain": round(total_cpu - ingest_cpu, 1)},
           "blocks": drain_timeline.blocks(drain_timeline.read(root / "floor"), drain_started)}
    log(f"floor (in process): {out}")
    return out


def _queues_empty(client: httpx.Client) -> tuple[bool, dict]:
    status = client.get("/api/pipeline/status").json()
    queues = status["queues"]
    return not any(s.get("pending", 0) or s.get("leased", 0) for s in queues.values()), queues


def backlog_through_up(server: ApiServer, bodies: list[dict], timeout_s: float = 3600) -> dict:
    """Remember `bodies` over HTTP (CLIENTS threads), then wait for every queue to empty."""
    with httpx.Client(base_url=server.base_url, timeout=60) as client, drain_timeline.StackCpu(server.proc.pid) as cpu:
        epoch, started = time.time(), time.perf_counter()
        with ThreadPoolExecutor(CLIENTS) as pool:
            codes = list(pool.map(lambda b: client.post("/api/memory/remember", json=b).status_code, bodies))
        ingest_s = time.perf_counter() - started
        while time.perf_counter() - started < timeout_s:
            empty, queues = _queues_empty(client)
            if empty:
                break
            time.sleep(0.5)
        total_s = time.perf_counter() - started
        deadline = time.perf_counter() + 120  # the runs report their stage timings when they end
        while dagster_runs.in_flight(server.dagster_url) and time.perf_counter() < deadline:
            time.sleep(1)
    queues = {t: q for t, q in queues.items() if t in JOB_TYPES}  # not the aggregates (memory, summary)
    jobs = sum(s.get("completed", 0) for s in queues.values())
    timeline = drain_timeline.read(server.workspace)
    return {"memories": len(bodies), "errors": sum(c != 200 for c in codes), "ingest_s": round(ingest_s, 1),
            "total_s": round(total_s, 1), "drained": empty, "jobs": jobs, "jobs_by_type": queues,
            "memories_per_s": round(len(bodies) / total_s, 1), "jobs_per_s": round(jobs / total_s, 1),
            "by_type": drain_timeline.by_type(timeline, epoch), "blocks": drain_timeline.blocks(timeline, epoch),
            "stages_s": drain_timeline.stage_seconds(server.dagster_url), "cpu_s": cpu.by_role(),
            "refreshed": drain_timeline.refreshed(server.dagster_url)}


def run_report(server: ApiServer, memories: int) -> dict:
    found = dagster_runs.runs(server.dagster_url)
    launch = [r.launch_s for r in found if r.launch_s is not None]
    body = [r.body_s for r in found if r.body_s is not None]
    by_job: dict[str, int] = {}
    for r in found:
        by_job[r.job] = by_job.get(r.job, 0) + 1
    return {"runs": len(found), "per_1000_memories": round(1000 * len(found) / memories, 1), "by_job": by_job,
            "launch_s": summary(x * 1000 for x in launch), "launch_total_s": round(sum(launch), 1),
            "run_s": summary(x * 1000 for x in body)}


def duplicates(workspace: Path) -> int:
    conn = apsw.Connection(str(workspace / DB_RELATIVE_PATH), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        return conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM memories WHERE source_memory_id IS NOT NULL AND is_deleted = 0 "
            "GROUP BY source_memory_id, normalized_content HAVING count(*) > 1)").fetchone()[0]
    finally:
        conn.close()


# Statements unlike each other (a near-restatement of an earlier one is decided NONE: no new fact).
IDLE_FACTS = ["Zofia Brandt manages the grain warehouse in Tallinn.", "Oskar Lind repairs ferry engines in Turku.",
              "Mirela Voss teaches a pottery course in Ghent.", "Teodor Hale runs the night market in Porto.",
              "Amara Quist restores violins near Bergen.", "Lucian Ferro coaches the rowing club of Bled.",
              "Hedda Korsgaard breeds alpacas outside Aarhus.", "Rafael Montes builds kayaks for the Lisbon regatta.",
              "Ingrid Sola translates Icelandic sagas in Reykjavik.", "Kofi Mensah roasts coffee beans in Accra."]


def idle_latency(server: ApiServer, count: int) -> dict:
    done_ms, recalled_ms = [], []
    with httpx.Client(base_url=server.base_url, timeout=60) as client:
        for i in range(count):
            deadline = time.perf_counter() + 120
            while dagster_runs.in_flight(server.dagster_url) and time.perf_counter() < deadline:
                time.sleep(0.5)
            fact = IDLE_FACTS[i % len(IDLE_FACTS)]
            started = time.perf_counter()
            body = client.post("/api/memory/remember", json={"content": fact + " It opens at dawn."}).json()
            while time.perf_counter() - started < 120:
                if client.get(f"/api/memory/jobs/{body['jobId']}").json().get("status") in ("completed", "dead"):
                    break
                time.sleep(0.05)
            done_ms.append((time.perf_counter() - started) * 1000)
            hits = client.post("/api/memory/recall", json={"query": fact, "limit": 20}).json()["results"]
            derived = any(h.get("source_memory_id") == body["id"] for h in hits)
            recalled_ms.append((time.perf_counter() - started) * 1000 if derived else float("nan"))
            log(f"  idle memory {i}: job done after {done_ms[-1]:.0f} ms, derived fact recalled: {derived}")
    return {"remember_to_completed": summary(done_ms),
            "remember_to_recalled": summary(x for x in recalled_ms if x == x),
            "recalled": sum(x == x for x in recalled_ms), "n": count}


def llm_in_process(root: Path, bodies: list[dict], args: argparse.Namespace) -> dict:
    seed_bodies, job_bodies = bodies[:args.llm_seed], bodies[args.llm_seed:args.llm_seed + args.llm_jobs]
    out = {}
    model = RulesModel(latency_s=args.llm_latency_ms / 1000)
    with FakeServer(model.handler()) as server:
        for concurrency in (1, 4, 8):
            svc = MemoryService(load_settings(root / f"llm-c{concurrency}", memory={"pipelineV2": {
                "extraction": {"concurrency": concurrency}}}))
            remember_many(svc, [RememberRequest(**b) for b in seed_bodies])
            with svc.db.write() as conn:  # the seed is context (decision candidates), not work
                conn.execute("DELETE FROM memory_jobs")
            remember_many(svc, [RememberRequest(**b) for b in job_bodies])
            model.calls.clear()
            model.max_in_flight = 0
            llm = OpenAICompatibleLlm(base_url=server.url, model="fake")
            queue, jobs = JobQueue(svc.db), 0
            started = time.perf_counter()
            while batch := run_jobs(svc, queue, llm, 50).items:
                jobs += len(batch)
            seconds = time.perf_counter() - started
            svc.close()
            calls = sum(model.calls.values())
            bound = concurrency / ((calls / jobs) * args.llm_latency_ms / 1000)
            out[concurrency] = {"jobs": jobs, "seconds": round(seconds, 2), "jobs_per_s": round(jobs / seconds, 2),
                                "calls_per_job": round(calls / jobs, 2), "llm_bound_jobs_per_s": round(bound, 2),
                                "max_in_flight": model.max_in_flight}
            log(f"fake LLM {args.llm_latency_ms} ms, concurrency {concurrency}: {out[concurrency]}")
    return out


def llm_through_up(root: Path, bodies: list[dict], args: argparse.Namespace) -> dict:
    model = RulesModel(latency_s=args.llm_latency_ms / 1000)
    with FakeServer(model.handler()) as fake:
        env = {"SIGNET_MEMORY__PIPELINEV2__EXTRACTION__PROVIDER": "openai",
               "SIGNET_MEMORY__PIPELINEV2__EXTRACTION__BASE_URL": fake.url,
               "SIGNET_MEMORY__PIPELINEV2__EXTRACTION__MODEL": "fake",
               "SIGNET_MEMORY__PIPELINEV2__EXTRACTION__CONCURRENCY": "4"}
        workspace = root / "up-llm"
        workspace.mkdir()
        with ApiServer(workspace, root / "up-llm.log", with_dagster=True, env=env) as server:
            result = backlog_through_up(server, bodies[:args.llm_up_memories])
            result["dagster"] = run_report(server, len(bodies[:args.llm_up_memories]))
    result["calls"] = dict(model.calls)
    log(f"fake LLM through signet up, concurrency 4: {result}")
    return result


def table(results: dict) -> str:
    lines = ["| measure | value | note |", "|---|---:|---|"]
    f, up = results["floor"], results.get("up")
    lines.append(f"| in-process floor, {f['memories']} memories | {f['memories_per_s']} memories/s | remember "
                 f"{f['ingest_s']} s + drain {f['drain_s']} s ({f['jobs']} jobs, {f['drain_jobs_per_s']} jobs/s) |")
    if up:
        b, d = up["backlog"], up["dagster"]
        lines.append(f"| `signet up`, same memories, {CLIENTS} clients | {b['memories_per_s']} memories/s | "
                     f"{round(b['memories_per_s'] / f['memories_per_s'], 2)}x the floor; ingest {b['ingest_s']} s, "
                     f"queue empty at {b['total_s']} s; {b['jobs']} jobs = {b['jobs_per_s']} jobs/s; "
                     f"{b['errors']} errors |")
        lines.append(f"| Dagster runs | {d['per_1000_memories']} per 1,000 memories | {d['runs']} runs {d['by_job']}; "
                     f"launch (created -> started) p50 {d['launch_s']['p50'] / 1000:.1f} s, total "
                     f"{d['launch_total_s']} s |")
        lines.append(f"| duplicate derived facts | {up['duplicates']} | |")
        lines.append(f"| vectors written by embedding_refresh during the backlog | {b.get('refreshed', '-')} | "
                     "memories the API's write-behind had not embedded yet, embedded again |")
        i = up.get("idle")
        if i:
            lines.append(f"| idle: remember -> job completed | p50 {i['remember_to_completed']['p50'] / 1000:.1f} s | "
                         f"p95 {i['remember_to_completed']['p95'] / 1000:.1f} s, n={i['n']} |")
            lines.append(f"| idle: remember -> derived fact recalled | "
                         f"p50 {i['remember_to_recalled']['p50'] / 1000:.1f} s | "
                         f"p95 {i['remember_to_recalled']['p95'] / 1000:.1f} s, recalled {i['recalled']}/{i['n']} |")
    for c, r in results.get("llm", {}).items():
        lines.append(f"| fake LLM {results['args']['llm_latency_ms']} ms, concurrency {c}, in process | "
                     f"{r['jobs_per_s']} extract jobs/s | LLM-bound {r['llm_bound_jobs_per_s']} "
                     f"({r['calls_per_job']} calls/job, {r['max_in_flight']} in flight) |")
    if "llm_up" in results:
        r = results["llm_up"]
        lines.append(f"| fake LLM, concurrency 4, `signet up`, {r['memories']} memories | {r['jobs_per_s']} jobs/s | "
                     f"{r['memories_per_s']} memories/s; {r['dagster']['runs']} runs; calls {r['calls']} |")
    return "\n".join(lines)


def _per_job(row: dict | None) -> str:
    return f"{row['jobs']} | {row['s']} | {row.get('ms_per_job', '')}" if row else "- | - | -"


def profile_table(results: dict) -> str:
    """Where the time went on both paths: per job type, per extraction stage, per 1,000 jobs."""
    f, b = results["floor"], results.get("up", {}).get("backlog", {})
    lines = [f"load average: floor {results['load']['floor']}, signet up {results['load'].get('up', '-')}", "",
             "| job type | floor jobs | floor s | floor ms/job | floor CPU ms/job | up jobs | up s | up ms/job |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    up_types = b.get("by_type", {})
    for job_type in dict.fromkeys([*f["by_type"], *up_types]):
        row = f["by_type"].get(job_type)
        lines.append(f"| {job_type} | {_per_job(row)} | {row['cpu_ms_per_job'] if row else '-'} | "
                     f"{_per_job(up_types.get(job_type))} |")
    per_k = 1000 / f["memories"]
    up_cpu = b.get("cpu_s", {})
    lines += ["", "| CPU s per 1,000 memories (load-independent) | floor | `signet up` |", "|---|---:|---:|",
              f"| total | {sum(f['cpu_s'].values()) * per_k:.1f} | {sum(up_cpu.values()) * per_k:.1f} |"]
    lines += [f"| {k} | {f['cpu_s'][k] * per_k:.1f} | |" for k in f["cpu_s"]]
    lines += [f"| {k} | | {v * per_k:.1f} |" for k, v in up_cpu.items()]
    lines += ["", "| extraction stage (decide includes candidates) | floor s | up s (sum over runs) |",
              "|---|---:|---:|"]
    for stage in ("extract", "embed", "candidates", "decide", "write"):
        lines.append(f"| {stage} | {f['stages_s'].get(stage, '-')} | {b.get('stages_s', {}).get(stage, '-')} |")
    lines += ["", "| jobs done | floor: store memories | jobs/s | extract jobs/s | up: store memories | jobs/s | "
                  "extract jobs/s |", "|---:|---:|---:|---:|---:|---:|---:|"]
    fb, ub = f["blocks"], b.get("blocks", [])
    done = 0
    for i in range(max(len(fb), len(ub))):
        done += (fb[i] if i < len(fb) else ub[i])["jobs"]
        cells = [f"{x['store_memories']} | {x['jobs_per_s']} | {x['extract_per_s'] or '-'}" if x else "- | - | -"
                 for x in (fb[i] if i < len(fb) else None, ub[i] if i < len(ub) else None)]
        lines.append(f"| {done} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.pipeline_bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--memories", type=int, default=6000, help="backlog size (default 6000)")
    p.add_argument("--turns", choices=["real-length", "locomo"], default="real-length",
                   help="real-length: evalsets.turns (default); locomo: the shorter evalsets.generate turns")
    p.add_argument("--agents", type=int, default=10, help="conversations (one agent each) of real-length turns (10)")
    p.add_argument("--idle", type=int, default=8, help="memories sent one at a time to an idle service (default 8)")
    p.add_argument("--llm-latency-ms", type=int, default=300, help="fake LLM latency per call (default 300)")
    p.add_argument("--llm-seed", type=int, default=500, help="memories in the store before the LLM jobs (500)")
    p.add_argument("--llm-jobs", type=int, default=60, help="extract jobs per in-process LLM run (default 60)")
    p.add_argument("--llm-up-memories", type=int, default=150, help="backlog through signet up with the LLM (150)")
    p.add_argument("--no-up", action="store_true", help="in-process floor only")
    p.add_argument("--no-llm", action="store_true", help="skip the fake-LLM runs")
    p.add_argument("--seed", type=int, default=None, help="generator seed (default 5 real-length, 11 locomo)")
    p.add_argument("--out", type=Path, help="also write the results as JSON here")
    p.add_argument("--base", type=Path, help="start both paths from a copy of this workspace (e.g. scale_bench's 1M)")
    args = p.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="signet-pipeline-bench-"))
    count = max(args.memories, args.llm_seed + args.llm_jobs)
    if args.turns == "real-length":
        bodies = turns.remember_bodies(count, 5 if args.seed is None else args.seed, args.agents)
    else:
        bodies = generate.remember_bodies(count, 11 if args.seed is None else args.seed)
    results: dict = {"args": vars(args) | {"out": str(args.out) if args.out else None}, "machine": machine(),
                     "load": {}}
    try:
        load = os.getloadavg()
        results["floor"] = floor(root, bodies[:args.memories], args.base)
        results["load"]["floor"] = f"{load[0]:.2f} -> {os.getloadavg()[0]:.2f}"
        if not args.no_up:
            workspace = workspace_from(args.base, root / "up")
            with ApiServer(workspace, root / "up.log", with_dagster=True) as server:
                log(f"signet up ready in {server.startup_s:.1f} s")
                load = os.getloadavg()
                backlog = backlog_through_up(server, bodies[:args.memories])
                results["load"]["up"] = f"{load[0]:.2f} -> {os.getloadavg()[0]:.2f}"
                log(f"signet up backlog: {backlog}")
                up = {"backlog": backlog, "dagster": run_report(server, args.memories),
                      "duplicates": duplicates(workspace)}
                up["idle"] = idle_latency(server, args.idle) if args.idle else None
            results["up"] = up
        if not args.no_llm:
            results["llm"] = llm_in_process(root, bodies, args)
            if not args.no_up:
                results["llm_up"] = llm_through_up(root, bodies, args)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("\n".join(machine_lines(results["machine"])))
    print(table(results))
    print(profile_table(results))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
