"""Decision (spec memory-pipeline "Decision Stage"): for each extracted fact, ADD / UPDATE /
DELETE / NONE against its top-5 hybrid-search candidates (candidates.py finds them, for a
batch's facts at once).

No candidates -> `add` without an LLM call. Otherwise the LLM answers, for all of one memory's
facts that have candidates in one call (up to FACTS_PER_CALL facts, each listed with its own
candidates; the spec asks once per fact: with a model 300 ms away, a three-fact memory took four
calls, now two). A decision that names a target outside its fact's candidate set, lacks a target
for update/delete, has no reason, or does not parse is rejected with a warning (no proposal).
Decisions are proposals: applying them is the controlled-writes stage's job.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from signet_pipeline.models import ExtractedFact, RecallHit
from signet_pipeline.providers.llm import AnswersTasks, Llm
from signet_pipeline.providers.llm.output import extract_json
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.extraction.candidates import Lookup, find_candidates

ACTIONS = ("add", "update", "delete", "none")
NO_CANDIDATES_REASON = "no similar memory exists"

FACTS_PER_CALL = 8
PROMPT = """New facts were extracted from a memory. Decide what to do with each one, given the existing
memories listed under it.

{facts}

Answer with ONLY a JSON object: {{"decisions": [{{"fact": the fact's number,
"action": "add" | "update" | "delete" | "none", "targetId": id of the existing memory (required
for update and delete), "confidence": 0..1, "reason": why, in one sentence}}, ...]}}, one entry per fact.
- add: no existing memory covers this fact
- update: the fact refines or supersedes one existing memory
- delete: the fact shows one existing memory is no longer true
- none: an existing memory already says this
"""


class Decision(BaseModel):
    action: Literal["add", "update", "delete", "none"]
    target_id: str | None = None
    confidence: float = Field(ge=0.0, le=1.0)
    reason: str


def build_prompt(facts: list[tuple[ExtractedFact, list[RecallHit]]]) -> str:
    blocks = []
    for n, (fact, candidates) in enumerate(facts, 1):
        listed = "\n".join(f"  - id={c.id} type={c.type}: {c.content}" for c in candidates)
        blocks.append(f"Fact {n} ({fact.type}): {fact.content}\nExisting memories:\n{listed}")
    return PROMPT.format(facts="\n\n".join(blocks))


def _entries(reply: str | dict[str, Any] | list[Any], count: int) -> dict[int, Any] | None:
    """Fact number -> its decision object from a reply, or None when the reply has no decisions.
    A single decision object answers a single fact."""
    data = reply if isinstance(reply, (dict, list)) else extract_json(reply)
    if isinstance(data, dict) and "action" in data and count == 1:
        return {1: data}
    if isinstance(data, dict):
        data = data.get("decisions")
    if not isinstance(data, list):
        return None
    out: dict[int, Any] = {}
    for position, entry in enumerate(data, 1):
        number = entry.get("fact", position) if isinstance(entry, dict) else position
        try:
            out.setdefault(int(number), entry)
        except (TypeError, ValueError):
            continue
    return out


def parse_decision(reply: str | dict[str, Any], candidate_ids: set[str]) -> tuple[Decision | None, str | None]:
    """(decision, None) or (None, warning). Never raises."""
    data = reply if isinstance(reply, dict) else extract_json(reply)
    if not isinstance(data, dict):
        return None, "decision reply is not a JSON object"
    action = str(data.get("action", "")).strip().lower()
    if action not in ACTIONS:
        return None, f"unknown action {data.get('action')!r}"
    target = data.get("targetId", data.get("target_id"))
    target = str(target).strip() if target not in (None, "") else None
    if action in ("update", "delete"):
        if target is None:
            return None, f"{action} without a targetId"
        if target not in candidate_ids:
            return None, f"{action} names {target!r}, which is not one of the candidates"
    reason = str(data.get("reason") or "").strip()
    if not reason:
        return None, "decision without a reason"
    try:
        confidence = min(1.0, max(0.0, float(data.get("confidence", 0.5))))
    except (TypeError, ValueError):
        return None, f"confidence {data.get('confidence')!r} is not a number"
    return Decision(action=action, target_id=target if action in ("update", "delete") else None,
                    confidence=confidence, reason=reason), None


FactDecision = tuple[Decision | None, str | None, list[RecallHit]]


def _ask(llm: Llm, facts: list[tuple[ExtractedFact, list[RecallHit]]], timeout: float | None) -> list[FactDecision]:
    """One model call for these facts (each has candidates)."""
    if isinstance(llm, AnswersTasks):
        replies = [llm.decide(f.content, [(c.id, c.content) for c in cands]) for f, cands in facts]
        entries: dict[int, Any] | None = dict(enumerate(replies, 1))
    else:
        entries = _entries(llm.generate(build_prompt(facts), json=True, timeout=timeout), len(facts))
    out: list[FactDecision] = []
    for n, (_, candidates) in enumerate(facts, 1):
        if entries is None:
            out.append((None, "decision reply is not a JSON object with decisions", candidates))
        elif n not in entries:
            out.append((None, f"the reply has no decision for fact {n}", candidates))
        else:
            out.append((*parse_decision(entries[n], {c.id for c in candidates}), candidates))
    return out


def decide_facts(svc: MemoryService, llm: Llm, facts: list[ExtractedFact], *, agent_id: str = "default",
                 exclude: frozenset[str] = frozenset(), timeout: float | None = None,
                 candidates: list[list[RecallHit]] | None = None) -> list[FactDecision]:
    """(decision or None, warning or None, the candidates shown) per fact, in order. Facts without
    candidates are added without a call; the others are decided FACTS_PER_CALL at a time.
    `candidates`: each fact's, when found beforehand (a batch's at once, candidates.py).
    Raises ProviderError."""
    if candidates is None:
        candidates = find_candidates(svc, [Lookup(fact, agent_id, exclude) for fact in facts])
    found = list(zip(facts, candidates))
    asked = [pair for pair in found if pair[1]]
    answers: list[FactDecision] = []
    for start in range(0, len(asked), FACTS_PER_CALL):
        answers += _ask(llm, asked[start:start + FACTS_PER_CALL], timeout)
    answered = iter(answers)
    return [next(answered) if shown else
            (Decision(action="add", confidence=fact.confidence, reason=NO_CANDIDATES_REASON), None, [])
            for fact, shown in found]


def decide(svc: MemoryService, llm: Llm, fact: ExtractedFact, *, agent_id: str = "default",
           exclude: frozenset[str] = frozenset(), timeout: float | None = None) -> FactDecision:
    """One fact's decision (decide_facts for a single fact)."""
    return decide_facts(svc, llm, [fact], agent_id=agent_id, exclude=exclude, timeout=timeout)[0]
