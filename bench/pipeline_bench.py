"""`python -m bench.pipeline_bench`: extraction pipeline throughput and sensor-to-run latency.

    .venv/bin/python -m bench.pipeline_bench            # throughput + end-to-end through `signet up`
    .venv/bin/python -m bench.pipeline_bench --no-e2e   # throughput only (no Dagster daemon)

Throughput, in process, on a fresh store seeded with single-sentence memories so decisions have
candidates. Each job is one three-sentence memory; the pipeline leases in batches and runs lease
-> extract -> decide -> write until the queue is empty.
- rules provider (CPU-bound: jobs run one at a time): the embedder is the floor. Floor = the same facts (what rules extracts from the
  same memories) embedded by the same embedder in batches, timed in the same run, as jobs/s.
- fake OpenAI-compatible LLM on loopback with a fixed latency per call (the same fake server the
  tests use): jobs/s at several `worker.concurrency` values next to the LLM-bound estimate
  concurrency / (LLM calls per job x latency).
End to end: `signet up` (API + dagster-webserver + dagster-daemon, default instance) on a temp
workspace; each memory is remembered over HTTP, then the job is polled: remember -> leased is the
sensor tick + run launch, leased -> completed is the run, and the derived fact is then recalled.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

import httpx

from bench import dataset
from bench.report import machine, machine_lines
from bench.stats import summary
from signet_eval.server import ApiServer
from signet_pipeline.config import load_settings
from signet_pipeline.memory.models import RememberRequest
from signet_pipeline.memory.remember import remember_many
from signet_pipeline.memory.service import MemoryService
from signet_pipeline.pipeline.extraction import run_jobs, summarize
from signet_pipeline.pipeline.queue import JobQueue
from signet_pipeline.providers.embeddings import create_embedder
from signet_pipeline.providers.llm.http import OpenAICompatibleLlm
from signet_pipeline.providers.llm.rules import RulesLlm
from tests.fakes import FakeServer

SENTENCES_PER_JOB = 3


def log(message: str) -> None:
    print(message, flush=True)


def job_contents(count: int, seed: int) -> list[str]:
    sentences = dataset.fresh_contents(count * SENTENCES_PER_JOB, seed)
    return [" ".join(sentences[i:i + SENTENCES_PER_JOB]) for i in range(0, len(sentences), SENTENCES_PER_JOB)]


def fresh_service(root: Path, name: str, embedder, seed_memories: list[str], **overrides) -> MemoryService:
    svc = MemoryService(load_settings(root / name, **overrides), embedder=embedder)
    remember_many(svc, [RememberRequest(content=c) for c in seed_memories])
    with svc.db.write() as conn:  # the seed is context, not work
        conn.execute("DELETE FROM memory_jobs")
    return svc


def drain(svc: MemoryService, llm, batch_size: int) -> tuple[float, dict]:
    queue = JobQueue(svc.db)
    totals: dict[str, int] = {}
    started = time.perf_counter()
    while True:
        batch = run_jobs(svc, queue, llm, batch_size)
        if not batch.items:
            break
        for key, value in summarize(batch).items():
            if isinstance(value, int):
                totals[key] = totals.get(key, 0) + value
    return time.perf_counter() - started, totals


def throughput(root: Path, args: argparse.Namespace) -> dict:
    embedder = create_embedder(load_settings(root / "settings").embedding)
    seed = [m.content for m in dataset.memories(args.seed_memories, args.seed)]
    jobs = job_contents(args.jobs, args.seed)
    rules = RulesLlm()
    facts = [f["content"] for text in jobs for f in rules.extract(text)["facts"]]
    embedder.embed(facts[:32])  # warm
    started = time.perf_counter()
    embedder.embed(facts)
    floor_s = time.perf_counter() - started
    out: dict = {"jobs": args.jobs, "facts": len(facts), "seed_memories": args.seed_memories,
                 "embed_floor": {"seconds": round(floor_s, 3), "facts_per_s": round(len(facts) / floor_s, 1),
                                 "jobs_per_s": round(args.jobs / floor_s, 1)}, "rules": {}, "llm": {}}
    log(f"embedder floor: {len(facts)} facts in {floor_s:.2f} s = {args.jobs / floor_s:.1f} jobs/s")
    svc = fresh_service(root, "rules", embedder, seed)
    remember_many(svc, [RememberRequest(content=c) for c in jobs])
    seconds, totals = drain(svc, rules, args.batch_size)
    svc.close()
    out["rules"] = {"seconds": round(seconds, 3), "jobs_per_s": round(args.jobs / seconds, 1),
                    "ratio_to_floor": round(floor_s / seconds, 2), "written": totals.get("written", 0),
                    "deduped": totals.get("deduped", 0), "blocked": totals.get("blocked", 0)}
    log(f"rules: {args.jobs / seconds:.1f} jobs/s ({floor_s / seconds:.2f}x floor)")

    latency_s = args.llm_latency_ms / 1000

    def reply(path: str, body: dict) -> tuple[int, object]:
        time.sleep(latency_s)
        prompt = body["messages"][0]["content"]
        if "Extract durable knowledge" in prompt:
            content = rules.extract(prompt.rsplit("Memory:\n", 1)[1])
        else:
            content = {"action": "add", "confidence": 0.8, "reason": "new information"}
        return 200, {"choices": [{"message": {"role": "assistant", "content": json.dumps(content)}}]}

    llm_jobs = jobs[:args.llm_jobs]
    with FakeServer(reply) as server:
        for concurrency in (1, 4, 8):
            svc = fresh_service(root, f"llm-c{concurrency}", embedder, seed,
                                memory={"pipelineV2": {"worker": {"concurrency": concurrency}}})
            remember_many(svc, [RememberRequest(content=c) for c in llm_jobs])
            calls_before = len(server.requests)
            seconds, totals = drain(svc, OpenAICompatibleLlm(base_url=server.url, model="fake"), args.batch_size)
            svc.close()
            calls = len(server.requests) - calls_before
            per_job = calls / len(llm_jobs)
            bound = concurrency / (per_job * latency_s)
            out["llm"][concurrency] = {"seconds": round(seconds, 3), "jobs_per_s": round(len(llm_jobs) / seconds, 2),
                                       "llm_calls_per_job": round(per_job, 2), "llm_bound_jobs_per_s": round(bound, 2),
                                       "written": totals.get("written", 0)}
            log(f"fake LLM {args.llm_latency_ms} ms, concurrency {concurrency}: {len(llm_jobs) / seconds:.2f} jobs/s "
                f"(LLM-bound estimate {bound:.2f})")
    return out


def end_to_end(root: Path, args: argparse.Namespace) -> dict:
    workspace = root / "e2e"
    workspace.mkdir()
    server = ApiServer(workspace, root / "up.log", with_dagster=True)
    queued, run, visible = [], [], []
    try:
        server.start()
        log(f"signet up ready in {server.startup_s:.1f} s")
        with httpx.Client(base_url=server.base_url, timeout=60) as client:
            for i, text in enumerate(job_contents(args.e2e_memories, args.seed + 99)):
                started = time.perf_counter()
                body = client.post("/api/memory/remember", json={"content": text}).json()
                leased_at = None
                deadline = started + 180
                while time.perf_counter() < deadline:
                    job = client.get(f"/api/memory/jobs/{body['jobId']}").json()
                    if leased_at is None and job.get("status") in ("leased", "completed"):
                        leased_at = time.perf_counter()
                    if job.get("status") in ("completed", "dead"):
                        break
                    time.sleep(0.05)
                done = time.perf_counter()
                first_fact = text.split(". ")[0]
                hits = client.post("/api/memory/recall", json={"query": first_fact, "limit": 20}).json()["results"]
                derived = [h for h in hits if h.get("source_memory_id") == body["id"]]
                queued.append(((leased_at or done) - started) * 1000)
                run.append((done - (leased_at or done)) * 1000)
                visible.append((time.perf_counter() - started) * 1000 if derived else float("nan"))
                log(f"  memory {i}: leased after {queued[-1]:.0f} ms, run {run[-1]:.0f} ms, "
                    f"derived facts recalled: {len(derived)}")
    finally:
        server.stop()
    return {"startup_s": round(server.startup_s, 1), "remember_to_leased": summary(queued),
            "leased_to_completed": summary(run), "remember_to_recallable": summary(visible)}


def table(results: dict) -> str:
    lines = ["| measure | value | note |", "|---|---:|---|"]
    t = results["throughput"]
    f = t["embed_floor"]
    lines.append(f"| embedder floor (same {t['facts']} facts, batched) | {f['jobs_per_s']} jobs/s | "
                 f"{f['facts_per_s']} facts/s |")
    r = t["rules"]
    lines.append(f"| rules provider (jobs run one at a time) | {r['jobs_per_s']} jobs/s | {r['ratio_to_floor']}x floor; "
                 f"{r['written']} facts written, {r['deduped']} deduped, {r['blocked']} update/delete blocked |")
    for c, r in t["llm"].items():
        lines.append(f"| fake LLM {results['args']['llm_latency_ms']} ms/call, concurrency {c} | {r['jobs_per_s']} "
                     f"jobs/s | LLM-bound estimate {r['llm_bound_jobs_per_s']} ({r['llm_calls_per_job']} calls/job) |")
    if "e2e" in results:
        e = results["e2e"]
        for key, label in (("remember_to_leased", "remember -> job leased (sensor tick + run launch)"),
                           ("leased_to_completed", "job leased -> completed (the run)"),
                           ("remember_to_recallable", "remember -> derived fact recalled")):
            s = e[key]
            lines.append(f"| {label} | p50 {s['p50'] / 1000:.1f} s | p95 {s['p95'] / 1000:.1f} s, n={s['n']} |")
        lines.append(f"| `signet up` ready | {e['startup_s']} s | API + webserver + daemon |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.pipeline_bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--jobs", type=int, default=300, help="extract jobs for the rules throughput (default 300)")
    p.add_argument("--llm-jobs", type=int, default=60, help="extract jobs for the fake-LLM runs (default 60)")
    p.add_argument("--llm-latency-ms", type=int, default=200, help="fake LLM latency per call (default 200)")
    p.add_argument("--seed-memories", type=int, default=2000, help="memories in the store beforehand (default 2000)")
    p.add_argument("--batch-size", type=int, default=50, help="jobs leased per batch (default 50)")
    p.add_argument("--e2e-memories", type=int, default=5, help="memories sent through `signet up` (default 5)")
    p.add_argument("--no-e2e", action="store_true", help="skip the end-to-end run through signet up")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--out", type=Path, help="also write the results as JSON here")
    args = p.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="signet-pipeline-bench-"))
    try:
        results = {"args": vars(args) | {"out": str(args.out) if args.out else None}, "machine": machine(),
                   "throughput": throughput(root, args)}
        if not args.no_e2e:
            results["e2e"] = end_to_end(root, args)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("\n".join(machine_lines(results["machine"])))
    print(table(results))
    if args.out:
        args.out.write_text(json.dumps(results, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
