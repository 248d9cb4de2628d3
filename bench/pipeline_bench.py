"""`python -m bench.pipeline_bench`: the pipeline draining a backlog as a user runs it (`signet up`),
beside the in-process floor of the same stages in the same run; one memory on an idle service; and
the pipeline against a model 300 ms away.

    .venv/bin/python -m bench.pipeline_bench --out bench/.data/pipeline.json     # ~10 min
    .venv/bin/python -m bench.pipeline_bench --memories 500 --no-llm             # ~3 min

The memories are the turns of generated conversations (signet_eval.generate), remembered as the
LoCoMo harness does: "Speaker: text", the session's time, one private agent per conversation.
1. Floor, in process: the memories remembered one by one through the service (no HTTP), then every
   queue drained in this process with the same stages (extract, structural, hints) until empty.
2. `signet up` (API + dagster-webserver + dagster-daemon, the shipped dagster.yaml): the same
   memories over HTTP from 4 client threads while the sensors launch drain runs. End to end =
   first remember -> no job of any type pending or leased. Ratio = its memories/s over the floor's.
   Dagster runs, their launch cost (created -> started) and duplicate derived facts are counted.
3. Idle: then one memory at a time with no run in flight: remember -> job completed -> its derived
   fact returned by recall.
4. LLM: a fake OpenAI-compatible server answering like the rules provider after --llm-latency-ms:
   extract jobs/s in process at extraction.concurrency 1, 4, 8; then all job types through
   `signet up` at concurrency 4.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import apsw
import httpx

from bench import dagster_runs
from bench.report import machine, machine_lines
from bench.stats import summary
from signet_eval.generate import remember_bodies
from signet_eval.server import ApiServer
from signet_pipeline.config import DB_RELATIVE_PATH, load_settings
from signet_pipeline.models import RememberRequest
from signet_pipeline.providers.llm.http import OpenAICompatibleLlm
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.extraction.batch import run_jobs
from signet_pipeline.stages.hints import run_hint_jobs
from signet_pipeline.stages.structural import run_structural_jobs
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.write.remember import remember, remember_many
from tests.fakes import FakeServer, RulesModel

CLIENTS = 4


def log(message: str) -> None:
    print(message, flush=True)


def drain_in_process(svc: MemoryService, llm) -> int:
    """Every queue until nothing is due, with the stages the drain runs use; returns the jobs done."""
    queue, done = JobQueue(svc.db), 0
    while True:
        n = len(run_jobs(svc, queue, llm, 50).items) + run_structural_jobs(svc, queue, llm, 50).leased \
            + run_hint_jobs(svc, queue, llm, 50).leased
        if not n:
            return done
        done += n


def floor(root: Path, bodies: list[dict]) -> dict:
    svc = MemoryService(load_settings(root / "floor"))
    started = time.perf_counter()
    for body in bodies:
        remember(svc, RememberRequest(**body))
    ingest_s = time.perf_counter() - started
    jobs = drain_in_process(svc, RulesLlm())
    total_s = time.perf_counter() - started
    svc.close()
    out = {"memories": len(bodies), "ingest_s": round(ingest_s, 1), "drain_s": round(total_s - ingest_s, 1),
           "total_s": round(total_s, 1), "jobs": jobs, "memories_per_s": round(len(bodies) / total_s, 1),
           "drain_jobs_per_s": round(jobs / (total_s - ingest_s), 1)}
    log(f"floor (in process): {out}")
    return out


def _queues_empty(client: httpx.Client) -> tuple[bool, dict]:
    status = client.get("/api/pipeline/status").json()
    queues = status["queues"]
    return not any(s.get("pending", 0) or s.get("leased", 0) for s in queues.values()), queues


def backlog_through_up(server: ApiServer, bodies: list[dict], timeout_s: float = 3600) -> dict:
    """Remember `bodies` over HTTP (CLIENTS threads), then wait for every queue to empty."""
    with httpx.Client(base_url=server.base_url, timeout=60) as client:
        started = time.perf_counter()
        with ThreadPoolExecutor(CLIENTS) as pool:
            codes = list(pool.map(lambda b: client.post("/api/memory/remember", json=b).status_code, bodies))
        ingest_s = time.perf_counter() - started
        while time.perf_counter() - started < timeout_s:
            empty, queues = _queues_empty(client)
            if empty:
                break
            time.sleep(0.5)
        total_s = time.perf_counter() - started
    jobs = sum(s.get("completed", 0) for s in queues.values())
    return {"memories": len(bodies), "errors": sum(c != 200 for c in codes), "ingest_s": round(ingest_s, 1),
            "total_s": round(total_s, 1), "drained": empty, "jobs": jobs, "jobs_by_type": queues,
            "memories_per_s": round(len(bodies) / total_s, 1), "jobs_per_s": round(jobs / total_s, 1)}


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
        i = up.get("idle")
        if i:
            lines.append(f"| idle: remember -> job completed | p50 {i['remember_to_completed']['p50'] / 1000:.1f} s | "
                         f"p95 {i['remember_to_completed']['p95'] / 1000:.1f} s, n={i['n']} |")
            lines.append(f"| idle: remember -> derived fact recalled | p50 {i['remember_to_recalled']['p50'] / 1000:.1f}"
                         f" s | p95 {i['remember_to_recalled']['p95'] / 1000:.1f} s, recalled {i['recalled']}/{i['n']} |")
    for c, r in results.get("llm", {}).items():
        lines.append(f"| fake LLM {results['args']['llm_latency_ms']} ms, concurrency {c}, in process | "
                     f"{r['jobs_per_s']} extract jobs/s | LLM-bound {r['llm_bound_jobs_per_s']} "
                     f"({r['calls_per_job']} calls/job, {r['max_in_flight']} in flight) |")
    if "llm_up" in results:
        r = results["llm_up"]
        lines.append(f"| fake LLM, concurrency 4, `signet up`, {r['memories']} memories | {r['jobs_per_s']} jobs/s | "
                     f"{r['memories_per_s']} memories/s; {r['dagster']['runs']} runs; calls {r['calls']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.pipeline_bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--memories", type=int, default=2000, help="backlog size (default 2000)")
    p.add_argument("--idle", type=int, default=8, help="memories sent one at a time to an idle service (default 8)")
    p.add_argument("--llm-latency-ms", type=int, default=300, help="fake LLM latency per call (default 300)")
    p.add_argument("--llm-seed", type=int, default=500, help="memories in the store before the LLM jobs (500)")
    p.add_argument("--llm-jobs", type=int, default=60, help="extract jobs per in-process LLM run (default 60)")
    p.add_argument("--llm-up-memories", type=int, default=150, help="backlog through signet up with the LLM (150)")
    p.add_argument("--no-up", action="store_true", help="in-process floor only")
    p.add_argument("--no-llm", action="store_true", help="skip the fake-LLM runs")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--out", type=Path, help="also write the results as JSON here")
    args = p.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="signet-pipeline-bench-"))
    bodies = remember_bodies(max(args.memories, args.llm_seed + args.llm_jobs), args.seed)
    results: dict = {"args": vars(args) | {"out": str(args.out) if args.out else None}, "machine": machine()}
    try:
        results["floor"] = floor(root, bodies[:args.memories])
        if not args.no_up:
            workspace = root / "up"
            workspace.mkdir()
            with ApiServer(workspace, root / "up.log", with_dagster=True) as server:
                log(f"signet up ready in {server.startup_s:.1f} s")
                backlog = backlog_through_up(server, bodies[:args.memories])
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
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
