"""Decision (spec memory-pipeline "Decision Stage"): for each extracted fact, ADD / UPDATE /
DELETE / NONE against its top-5 hybrid-search candidates.

No candidates -> `add` without an LLM call. Otherwise the LLM answers; a reply that names a
target outside the candidate set, lacks a target for update/delete, has no reason, or does not
parse is rejected with a warning (no proposal). Decisions are proposals: applying them is the
controlled-writes stage's job.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from signet_pipeline.memory.models import RecallHit, RecallRequest
from signet_pipeline.memory.recall import RecallOptions, recall
from signet_pipeline.memory.service import MemoryService
from signet_pipeline.providers.llm import AnswersTasks, Llm
from signet_pipeline.providers.llm.output import extract_json
from signet_pipeline.stages.extraction import ExtractedFact

CANDIDATES = 5
# The candidate search looks for near-duplicates, not answers: a fact's neighbours share its rare
# words and nearly all of its meaning. So each leg keeps 15 candidates (top 5 are wanted, cost is
# linear in it), BM25 skips words so frequent that scoring them would touch more than 2,000 rows,
# and cosines stay raw (hubness correction ranks answers to questions; a near-duplicate hub is
# still a near-duplicate). No graph paths: they find related memories, not restatements.
# Candidate lookups are not memory accesses.
CANDIDATE_SEARCH = RecallOptions(track_access=False, pool=15, postings_budget=2000, hub_correction=False,
                                 graph=False)
ACTIONS = ("add", "update", "delete", "none")
NO_CANDIDATES_REASON = "no similar memory exists"

PROMPT = """A new fact was extracted. Decide what to do with it given the existing memories.

New fact ({fact_type}): {fact}

Existing memories:
{candidates}

Answer with ONLY a JSON object: {{"action": "add" | "update" | "delete" | "none",
"targetId": id of the existing memory (required for update and delete), "confidence": 0..1,
"reason": why, in one sentence}}.
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


def find_candidates(svc: MemoryService, fact: ExtractedFact, agent_id: str,
                    exclude: frozenset[str] = frozenset()) -> list[RecallHit]:
    """The focused hybrid search of the spec: the same recall as the API, top 5. `exclude` holds
    the memory the fact was extracted from: a fact is layered on its source, never judged
    against it (the source contains every fact it yields)."""
    req = RecallRequest(query=fact.content, limit=CANDIDATES + len(exclude), agentId=agent_id)
    hits = recall(svc, req, CANDIDATE_SEARCH).results
    return [h for h in hits if h.id not in exclude][:CANDIDATES]


def build_prompt(fact: ExtractedFact, candidates: list[RecallHit]) -> str:
    listed = "\n".join(f"{i}. id={c.id} type={c.type}: {c.content}" for i, c in enumerate(candidates, 1))
    return PROMPT.format(fact=fact.content, fact_type=fact.type, candidates=listed)


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


def decide(svc: MemoryService, llm: Llm, fact: ExtractedFact, *, agent_id: str = "default",
           exclude: frozenset[str] = frozenset(), timeout: float | None = None,
           ) -> tuple[Decision | None, str | None, list[RecallHit]]:
    """(decision or None, warning or None, the candidates shown). Raises ProviderError."""
    candidates = find_candidates(svc, fact, agent_id, exclude)
    if not candidates:
        return Decision(action="add", confidence=fact.confidence, reason=NO_CANDIDATES_REASON), None, []
    if isinstance(llm, AnswersTasks):
        reply: str | dict[str, Any] = llm.decide(fact.content, [(c.id, c.content) for c in candidates])
    else:
        reply = llm.generate(build_prompt(fact, candidates), json=True, timeout=timeout)
    decision, warning = parse_decision(reply, {c.id for c in candidates})
    return decision, warning, candidates
