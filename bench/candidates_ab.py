"""`python -m bench.candidates_ab`: the decision stage's candidate search, one recall per fact (as
before issue 26) against stages/extraction/candidates.py (a batch's facts at once), at three
BM25 postings budgets, on two independently generated inputs.

    .venv/bin/python -m bench.candidates_ab                      # ~4 min
    .venv/bin/python -m bench.candidates_ab --memories 8000 --drained 4000

Per input: --memories turns remembered in process (real-length turns of evalsets.turns, ten
agents; LoCoMo-format turns of evalsets.generate), the first --drained extract jobs done so the
store holds derived facts, then the next --jobs jobs' facts searched both ways. Reported: wall and
CPU ms per fact, and against the per-fact recall, how many facts get the same top 5 and the same
rules decision (action and target): what the search is for.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.report import machine, machine_lines
from evalsets import generate, turns
from signet_pipeline.config import load_settings
from signet_pipeline.models import RecallRequest, RememberRequest
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.recall.search import RecallOptions, recall_memories
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.extraction import candidates
from signet_pipeline.stages.extraction.batch import extract_batch, lease_batch, run_jobs
from signet_pipeline.stages.extraction.decision import decide_facts
from signet_pipeline.stages.structural import run_structural_jobs
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.text.content import normalize_content
from signet_pipeline.write.remember import embed_missing, remember_many

# The per-fact search the decision stage ran before: recall tuned for near-duplicates.
PER_FACT = RecallOptions(track_access=False, pool=candidates.POOL, postings_budget=2000, hub_correction=False,
                         graph=False, context=False)
BUDGETS = (2000, 1000, 500)


def store(root: Path, bodies: list[dict], drained: int) -> MemoryService:
    svc = MemoryService(load_settings(root))
    remember_many(svc, [RememberRequest(**b) for b in bodies])
    queue, llm, done = JobQueue(svc.db), RulesLlm(), 0
    while done < drained and (batch := run_jobs(svc, queue, llm, 50).items):
        done += len(batch)
        while run_structural_jobs(svc, queue, llm, 50).leased:
            pass
    return svc


def _timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def compare(svc: MemoryService, jobs: int) -> list[dict]:
    llm = RulesLlm()
    items = [i for i in extract_batch(svc, llm, lease_batch(svc, JobQueue(svc.db), llm, jobs)).items if i.extraction]
    lookups = []
    for item in items:
        for fact in item.extraction.facts:
            fact.content = normalize_content(fact.content).storage
            lookups.append(candidates.Lookup(fact, item.source["agent_id"], frozenset({item.memory_id})))
    vectors, _ = embed_missing(svc, [lookup.fact.content for lookup in lookups])
    for lookup in lookups:  # the per-fact recall finds the batch's vectors in the query cache, as it did
        if (vector := vectors.get(normalize_content(lookup.fact.content).content_hash)) is not None:
            svc.cache_query_vector(lookup.fact.content, vector)

    def per_fact() -> list:
        return [[h for h in recall_memories(svc, RecallRequest(query=lk.fact.content, limit=candidates.CANDIDATES + 1,
                                                      agentId=lk.agent_id), PER_FACT).results
                 if h.id not in lk.exclude][:candidates.CANDIDATES] for lk in lookups]

    def decisions(found: list) -> list:
        shown, out = iter(found), []
        for item in items:
            facts = item.extraction.facts
            decided = decide_facts(svc, llm, facts, agent_id=item.source["agent_id"],
                                   candidates=[next(shown) for _ in facts])
            out += [(d.action, d.target_id) if d else None for d, _, _ in decided]
        return out

    base, wall, cpu = _timed(per_fact)
    base_ids, base_decisions = [[h.id for h in hs] for hs in base], decisions(base)
    rows = [{"search": "recall per fact, 2,000 postings", "facts": len(lookups),
             "ms": 1000 * wall / len(lookups), "cpu_ms": 1000 * cpu / len(lookups),
             "same_top5": len(lookups), "same_decision": len(lookups)}]
    for budget in BUDGETS:
        candidates.POSTINGS_BUDGET = budget
        found, wall, cpu = _timed(lambda: candidates.find_candidates(svc, lookups, vectors))
        rows.append({"search": f"batch, {budget:,} postings", "facts": len(lookups),
                     "ms": 1000 * wall / len(lookups), "cpu_ms": 1000 * cpu / len(lookups),
                     "same_top5": sum([h.id for h in hs] == ids for hs, ids in zip(found, base_ids)),
                     "same_decision": sum(a == b for a, b in zip(decisions(found), base_decisions))})
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.candidates_ab", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--memories", type=int, default=4000)
    p.add_argument("--drained", type=int, default=2000, help="extract jobs done before the comparison")
    p.add_argument("--jobs", type=int, default=400, help="extract jobs whose facts are searched both ways")
    args = p.parse_args(argv)
    budget = candidates.POSTINGS_BUDGET
    inputs = {"real-length turns (evalsets.turns, seed 5)": turns.remember_bodies(args.memories, 5),
              "LoCoMo-format turns (evalsets.generate, seed 11)": generate.remember_bodies(args.memories, 11)}
    lines = ["| input | search | facts | ms/fact | CPU ms/fact | same top 5 | same decision |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for name, bodies in inputs.items():
        with tempfile.TemporaryDirectory(prefix="signet-candidates-ab-") as tmp:
            svc = store(Path(tmp), bodies, args.drained)
            try:
                for row in compare(svc, args.jobs):
                    lines.append(f"| {name} | {row['search']} | {row['facts']} | {row['ms']:.2f} | "
                                 f"{row['cpu_ms']:.2f} | {row['same_top5']} | {row['same_decision']} |")
                    print(lines[-1], flush=True)
            finally:
                svc.close()
                candidates.POSTINGS_BUDGET = budget
    print("\n".join(machine_lines(machine())))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
