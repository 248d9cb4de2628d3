"""`signet eval locomo FILE [--url URL]`: remember every turn through the REST API (one private
agent per conversation, sourceId = dia_id, createdAt = session time), recall every question,
and score evidence recall per category — beside plain BM25, dense and alpha-blend baselines over
the same turns with the same embedder, in the same run.

Without --url a `signet serve` is started on a throw-away workspace with the default settings;
with --pipeline a `signet up` (API + Dagster), and the questions are asked once the pipeline has
drained its queue (extraction, classification, hints). A derived fact in the results stands for
the turn it was extracted from.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import numpy as np

from signet_eval import metrics
from signet_eval.baselines import TurnIndex
from signet_eval.locomo import Sample, load
from signet_eval.server import ApiServer
from signet_pipeline.config import CONFIG_FILE, EmbeddingConfig, SearchConfig, load_settings
from signet_pipeline.providers.embeddings import create_embedder
from signet_pipeline.service import MemoryService

K_MAX = max(metrics.KS)


def _agent(sample: Sample) -> str:
    return f"locomo-{sample.sample_id}"


def ingest(client: httpx.Client, sample: Sample, workers: int) -> dict[str, list[str]]:
    """Remember each turn; return memory id -> the dia_ids it stands for (dedup can merge turns)."""
    def one(turn):
        response = client.post("/api/memory/remember", json=turn.remember_body(_agent(sample)))
        response.raise_for_status()
        return response.json()["id"], turn.dia_id

    by_memory: dict[str, list[str]] = defaultdict(list)
    with ThreadPoolExecutor(workers) as pool:
        for memory_id, dia_id in pool.map(one, sample.turns):
            by_memory[memory_id].append(dia_id)
    return by_memory


def recall_questions(client: httpx.Client, sample: Sample, by_memory: dict[str, list[str]], extra: dict):
    """(ranked dia_ids per question, client ms, server ms) for questions that have evidence."""
    out = []
    for q in sample.questions:
        if not q.evidence:
            continue
        started = time.perf_counter()
        body = {"query": q.question, "limit": K_MAX, "agentId": _agent(sample), "min_score": 0, **extra}
        response = client.post("/api/memory/recall", json=body)
        wall = (time.perf_counter() - started) * 1000
        response.raise_for_status()
        body = response.json()
        ranked = [by_memory.get(r["id"]) or by_memory.get(r.get("source_memory_id") or "", []) for r in body["results"]]
        out.append((q, ranked, wall, body["meta"]["timings"]["totalMs"]))
    return out


def generate_hints(workspace: Path) -> int:
    """Drain the workspace's `prospective_index` jobs in process (the memory_hints step of a drain run)."""
    from signet_pipeline.providers.llm import create_llm
    from signet_pipeline.stages.hints import drain_hints

    settings = load_settings(workspace)
    svc = MemoryService(settings)
    try:
        return drain_hints(svc, create_llm(settings.pipeline.extraction))
    finally:
        svc.close()


def wait_drained(client: httpx.Client, timeout_s: float = 3600) -> float:
    """Seconds until no pipeline job is pending or leased."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout_s:
        backlog = client.get("/api/pipeline/status").json()["backlog"]["total"]
        if backlog["depth"] == 0:
            return time.perf_counter() - started
        time.sleep(2)
    raise TimeoutError(f"the pipeline did not drain its queue in {timeout_s:.0f} s")


def drain_through_up(workspace: Path) -> float:
    """Run `signet up` (API + Dagster) on a workspace until no pipeline job is pending or leased, then
    stop it; seconds from the start to an empty queue."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        server = ApiServer(workspace, Path(tmp) / "up.log", with_dagster=True)
        server.start()
        try:
            with httpx.Client(base_url=server.base_url, timeout=120) as client:
                wait_drained(client)
        finally:
            server.stop()
    return time.perf_counter() - started


def run(file: Path, *, url: str | None = None, out: Path | None = None, workers: int = 4,
        alphas: list[float] | None = None, min_scores: list[float] | None = None, hints: bool = False,
        pipeline: bool = False, log=print, progress: Callable[[str, int, int], None] | None = None) -> dict:
    """Extra recall passes over one ingest: `alphas` (reported as `signet a=X`) and `min_scores`
    (`signet min=X`; the main pass uses min_score 0 so that R@25 counts every candidate).
    `hints`: the throw-away workspace has hints on, and they are generated before recalling.
    `progress(step, done, total)` follows the conversations remembered and the questions asked."""
    progress = progress or (lambda step, done, total: None)
    if (hints or pipeline) and url:
        raise ValueError("--hints and --pipeline need the local throw-away server")
    samples = load(file)
    questions = sum(len([q for q in s.questions if q.evidence]) for s in samples)
    log(f"{file}: {len(samples)} conversations, {sum(len(s.turns) for s in samples)} turns, "
        f"{questions} questions with evidence")
    with tempfile.TemporaryDirectory(prefix="signet-eval-") as tmp:
        server: ApiServer | None = None
        if not url:
            server = ApiServer(Path(tmp) / "ws", Path(tmp) / "serve.log", with_dagster=pipeline)
            (Path(tmp) / "ws").mkdir()
            if hints:
                (Path(tmp) / "ws" / CONFIG_FILE).write_text("memory:\n  pipelineV2:\n    hints:\n      enabled: true\n")
            server.start()
            url = server.base_url
        try:
            passes = {"signet": {}, **{f"signet a={a:g}": {"alpha": a} for a in alphas or []},
                      **{f"signet min={m:g}": {"min_score": m} for m in min_scores or []}}
            ours: dict[str, list[metrics.Scored]] = defaultdict(list)
            walls, server_ms = [], []
            with httpx.Client(base_url=url, timeout=120) as client:
                started = time.perf_counter()
                maps = []
                for i, sample in enumerate(samples):
                    maps.append(ingest(client, sample, workers))
                    progress("remember conversations", i + 1, len(samples))
                ingest_s = time.perf_counter() - started
                log(f"remembered in {ingest_s:.1f} s")
                if pipeline:
                    log(f"pipeline drained its queue {wait_drained(client):.0f} s after the last remember")
                if hints:
                    started = time.perf_counter()
                    log(f"{generate_hints(Path(tmp) / 'ws')} hints in {time.perf_counter() - started:.1f} s")
                log("recalling ...")
                for name, extra in passes.items():
                    for sample, by_memory in zip(samples, maps):
                        for q, ranked, wall, srv in recall_questions(client, sample, by_memory, extra):
                            ours[name].append(metrics.score(ranked, q.evidence, q.category))
                            progress(f"recall ({name})", len(ours[name]), questions)
                            if name == "signet":
                                walls.append(wall)
                                server_ms.append(srv)
        finally:
            if server:
                server.stop()

    log("baselines (in process, same embedder) ...")
    embedder = create_embedder(EmbeddingConfig())
    alpha = SearchConfig().alpha
    base: dict[str, list[metrics.Scored]] = defaultdict(list)
    for sample in samples:
        index = TurnIndex([t.dia_id for t in sample.turns], [t.content for t in sample.turns], embedder)
        for q in sample.questions:
            if q.evidence:
                for method, ranked in index.rank_all(q.question, alpha, K_MAX).items():
                    base[method].append(metrics.score(ranked, q.evidence, q.category))

    results = {**{name: metrics.aggregate(s) for name, s in ours.items()},
               **{m: metrics.aggregate(s) for m, s in base.items()}}
    latency = {f"{side}_p{q}_ms": float(np.percentile(values, q))
               for side, values in (("client", walls), ("server", server_ms)) for q in (50, 95)}
    report = {"file": str(file), "url": url if server is None else "(local signet serve)", "alpha": alpha,
              "ingest_s": round(ingest_s, 1), "latency": latency, "results": results}
    log("\n" + metrics.table(results))
    log("recall latency (signet, HTTP): p50 {client_p50_ms:.1f} ms, p95 {client_p95_ms:.1f} ms "
        "(server-side p50 {server_p50_ms:.1f}, p95 {server_p95_ms:.1f})".format(**latency))
    if out:
        out.write_text(json.dumps(report, indent=2))
    return report
