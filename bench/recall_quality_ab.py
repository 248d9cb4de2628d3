"""`python -m bench.recall_quality_ab SET.json... --mode NAME=JSON...`: evidence recall per category
of several recall settings on the same stores, in process, to try a ranking mechanism in minutes.

Each set is remembered once (in process, the bodies `signet eval locomo` sends over REST) into
bench/.data/quality-ws/<set name>, kept for the next run; every mode then opens that workspace with
its settings overrides (a JSON object of settings sections, e.g. '{"search": {"candidatePool": 100}}')
and asks every question. With --drained, a copy of each store is first drained by `signet up` (API +
Dagster, as a user runs it: extraction, decisions, graph, hints), once, and the modes ask there.
With --embedding e5 the stores are embedded by that provider (stores of their own).
The figures to report still come from `signet eval locomo` (REST, and
`--pipeline` for a drained store); this is for deciding what is worth that run.

    .venv/bin/python -m bench.recall_quality_ab bench/.data/locomo-seed7.json \\
        --mode pool100='{"search": {"candidatePool": 100}}'
"""

from __future__ import annotations

import argparse
import json
import shutil
from collections import defaultdict
from pathlib import Path

from bench.stats import Timer, summary
from signet_eval import metrics
from signet_eval.harness import K_MAX, _agent, drain_through_up
from signet_eval.locomo import Sample, load
from signet_pipeline.config import load_settings
from signet_pipeline.models import RecallRequest, RememberRequest
from signet_pipeline.recall.search import SEARCH, RecallOptions, recall_memories
from signet_pipeline.service import MemoryService
from signet_pipeline.write.remember import remember_many

ROOT = Path(__file__).parent / ".data" / "quality-ws"
ASK = RecallOptions(track_access=False, temporal=SEARCH.temporal)  # every mode reads the same rows


def ensure_store(file: Path, samples: list[Sample],
                 embedding: str | None = None) -> tuple[Path, list[dict[str, list[str]]]]:
    """The set's workspace (remembered on first use) and, per sample, memory id -> its dia_ids.
    `embedding`: a store of its own embedded by that provider (its agent.yaml says so, for `signet up` too)."""
    ws = ROOT / (file.stem + (f"-{embedding}" if embedding else ""))
    maps_file = ws / "by-memory.json"
    if maps_file.exists():
        return ws, json.loads(maps_file.read_text())
    ws.mkdir(parents=True, exist_ok=True)
    if embedding:
        (ws / "agent.yaml").write_text(f"embedding:\n  provider: {embedding}\n")
    svc = MemoryService(load_settings(ws))
    maps = []
    try:
        for sample in samples:
            results = remember_many(svc, [RememberRequest(**t.remember_body(_agent(sample))) for t in sample.turns])
            by_memory: dict[str, list[str]] = defaultdict(list)
            for result, turn in zip(results, sample.turns):
                by_memory[result.id].append(turn.dia_id)
            maps.append(by_memory)
    finally:
        svc.close()
    maps_file.write_text(json.dumps(maps))
    return ws, maps


def drained_copy(ws: Path) -> Path:
    """A copy of the store drained once through `signet up` (kept for the next run)."""
    drained = ws.with_name(ws.name + "-drained")
    if (drained / "drained").exists():
        return drained
    shutil.rmtree(drained, ignore_errors=True)
    shutil.copytree(ws, drained)
    print(f"{ws.name}: drained in {drain_through_up(drained):.0f} s through signet up (start included)")
    (drained / "drained").touch()
    return drained


def ask_all(services: dict[str, MemoryService], samples: list[Sample], maps: list[dict[str, list[str]]]) -> dict:
    """mode -> [(question, scored, ranked dia_ids, ms, which hits are derived facts)] for every question
    with evidence, the modes taking turns question by question (the machine's drift hits each alike);
    query vectors cached."""
    out: dict[str, list[tuple]] = {name: [] for name in services}
    for sample, by_memory in zip(samples, maps):
        for q in sample.questions:
            if not q.evidence:
                continue
            req = RecallRequest(query=q.question, limit=K_MAX, agentId=_agent(sample), min_score=0)
            for name, svc in services.items():
                svc.embed_query(q.question)
                with Timer() as t:
                    hits = recall_memories(svc, req, ASK).results
                ranked = [by_memory.get(h.id) or by_memory.get(h.source_memory_id or "", []) for h in hits]
                out[name].append((q, metrics.score(ranked, q.evidence, q.category), ranked, t.ms,
                                  [h.source_memory_id is not None for h in hits]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path)
    parser.add_argument("--mode", action="append", default=[], help="NAME=JSON settings overrides")
    parser.add_argument("--drained", action="store_true", help="ask on a copy drained through signet up")
    parser.add_argument("--dump", type=Path, help="write every question's ranked turns per set and mode here")
    parser.add_argument("--embedding", help="embed the stores with this provider (e.g. e5), in stores of their own")
    args = parser.parse_args()
    modes = {"base": {}, **{m.split("=", 1)[0]: json.loads(m.split("=", 1)[1]) for m in args.mode}}
    cats = ["overall", "multi-hop", "temporal", "open-domain", "single-hop", "adversarial"]
    dump: dict = {}
    for file in args.sets:
        samples = load(file)
        ws, maps = ensure_store(file, samples, args.embedding)
        if args.drained:
            ws = drained_copy(ws)
        services = {name: MemoryService(load_settings(ws, **overrides)) for name, overrides in modes.items()}
        try:
            asked = ask_all(services, samples, maps)
        finally:
            for svc in services.values():
                svc.close()
        print(f"\n{file.stem}{' (drained)' if args.drained else ''}: R@10 per category, recall ms in process")
        print("| mode | " + " | ".join(cats) + " | p50 ms | p95 ms |")
        print("|---|" + "---:|" * (len(cats) + 2))
        for name, rows in asked.items():
            by_cat = metrics.aggregate([s for _, s, *_ in rows])
            ms = summary([m for *_, m, _ in rows])
            print(f"| {name} | " + " | ".join(f"{by_cat[c]['R@10']:.3f}" if c in by_cat else "" for c in cats)
                  + f" | {ms['p50']:.1f} | {ms['p95']:.1f} |")
            dump.setdefault(file.stem, {})[name] = [
                {"q": q.question, "cat": q.category, "gold": sorted(q.evidence), "ranked": ranked, "facts": facts}
                for q, _, ranked, _, facts in rows]
    if args.dump:
        args.dump.write_text(json.dumps(dump))


if __name__ == "__main__":
    main()
