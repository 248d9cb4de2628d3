"""Recall A/B on one store: the same queries through several services (modes), alternating query
by query in one process, so the machine's drift hits every mode alike (separate passes do not).
Query vectors are cached first: this prices the modes, not the embedder."""

from __future__ import annotations

from bench import dataset
from bench.stats import Timer, summary
from signet_pipeline.models import RecallRequest
from signet_pipeline.recall.search import RecallOptions, recall_memories
from signet_pipeline.service import MemoryService

NO_ACCESS = RecallOptions(track_access=False)  # every mode reads the same rows: keep them identical
WARMUP = 20


def alternate(services: dict[str, MemoryService], qs: list[dataset.Query], mems: list[dataset.Memory],
              size: int) -> list[tuple]:
    """(size, mode, latency summary, keyword-query hit@10) per mode."""
    for svc in services.values():
        for q in qs:
            svc.embed_query(q.text)
        for q in qs[:WARMUP]:
            recall_memories(svc, RecallRequest(query=q.text), NO_ACCESS)
    times: dict[str, list[float]] = {mode: [] for mode in services}
    hits = {mode: 0 for mode in services}
    keyword = [q for q in qs if q.kind == "keyword"]
    for q in qs:
        for mode, svc in services.items():
            with Timer() as t:
                result = recall_memories(svc, RecallRequest(query=q.text), NO_ACCESS)
            times[mode].append(t.ms)
            if q.kind == "keyword":
                hits[mode] += mems[q.target].content in {h.content for h in result.results}
    return [(f"{size:,}", mode, summary(times[mode]), hits[mode] / len(keyword)) for mode in services]


def print_table(rows: list[tuple]) -> None:
    print("| size | mode | recall p50 ms | p95 ms | keyword hit@10 |")
    print("|---:|---|---:|---:|---:|")
    for size, mode, s, hit in rows:
        print(f"| {size} | {mode} | {s['p50']:.2f} | {s['p95']:.2f} | {hit:.3f} |")
