"""`python -m bench.recall_quality_ab SET.json... --mode NAME=JSON...`: evidence recall per category
of several recall settings on the same stores, in process, to try a ranking mechanism in minutes.

Each set is remembered once (in process, the bodies `signet eval locomo` sends over REST) into
bench/.data/quality-ws/<set name>, kept for the next run; every mode then opens that workspace with
its settings overrides (a JSON object of settings sections, e.g. '{"search": {"candidatePool": 100}}')
and asks every question. The figures to report still come from `signet eval locomo` (REST, and
`--pipeline` for a drained store); this is for deciding what is worth that run.

    .venv/bin/python -m bench.recall_quality_ab bench/.data/locomo-seed7.json --mode pool100='{"search": {"candidatePool": 100}}'
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from signet_eval import metrics
from signet_eval.harness import K_MAX, _agent
from signet_eval.locomo import Sample, load
from signet_pipeline.config import load_settings
from signet_pipeline.models import RecallRequest, RememberRequest
from signet_pipeline.recall.search import SEARCH, RecallOptions, recall
from signet_pipeline.service import MemoryService
from signet_pipeline.write.remember import remember_many

ROOT = Path(__file__).parent / ".data" / "quality-ws"
ASK = RecallOptions(track_access=False, temporal=SEARCH.temporal)  # every mode reads the same rows


def ensure_store(file: Path, samples: list[Sample]) -> tuple[Path, list[dict[str, list[str]]]]:
    """The set's workspace (remembered on first use) and, per sample, memory id -> its dia_ids."""
    ws = ROOT / file.stem
    maps_file = ws / "by-memory.json"
    if maps_file.exists():
        return ws, json.loads(maps_file.read_text())
    ws.mkdir(parents=True, exist_ok=True)
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


def ask_all(svc: MemoryService, samples: list[Sample], maps: list[dict[str, list[str]]]) -> list[tuple]:
    """(question, scored, ranked dia_ids) for every question with evidence."""
    out = []
    for sample, by_memory in zip(samples, maps):
        for q in sample.questions:
            if not q.evidence:
                continue
            req = RecallRequest(query=q.question, limit=K_MAX, agentId=_agent(sample), min_score=0)
            hits = recall(svc, req, ASK).results
            ranked = [by_memory.get(h.id) or by_memory.get(h.source_memory_id or "", []) for h in hits]
            out.append((q, metrics.score(ranked, q.evidence, q.category), ranked))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path)
    parser.add_argument("--mode", action="append", default=[], help="NAME=JSON settings overrides")
    parser.add_argument("--dump", type=Path, help="write every question's ranked turns per set and mode here")
    args = parser.parse_args()
    modes = {"base": {}, **{m.split("=", 1)[0]: json.loads(m.split("=", 1)[1]) for m in args.mode}}
    dump: dict = {}
    for file in args.sets:
        samples = load(file)
        ws, maps = ensure_store(file, samples)
        results = {}
        for name, overrides in modes.items():
            svc = MemoryService(load_settings(ws, **overrides))
            try:
                asked = ask_all(svc, samples, maps)
            finally:
                svc.close()
            results[name] = metrics.aggregate([s for _, s, _ in asked])
            dump.setdefault(file.stem, {})[name] = [
                {"q": q.question, "cat": q.category, "gold": sorted(q.evidence), "ranked": ranked} for q, _, ranked in asked]
        print(f"\n{file.stem}")
        cats = ["overall", "multi-hop", "temporal", "open-domain", "single-hop", "adversarial"]
        print("| mode | " + " | ".join(cats) + " |")
        print("|---|" + "---:|" * len(cats))
        for name, by_cat in results.items():
            print(f"| {name} | " + " | ".join(f"{by_cat[c]['R@10']:.3f}" if c in by_cat else "" for c in cats) + " |")
    if args.dump:
        args.dump.write_text(json.dumps(dump))


if __name__ == "__main__":
    main()
