"""Contradiction checks on UPDATE/DELETE proposals (spec "Semantic Contradiction Detection").

The syntactic check (text/contradiction.py) runs on every such proposal. The semantic check
asks the LLM, only for UPDATE proposals with at least 3 shared words that the syntactic check did
not flag, and only when `semanticContradictionEnabled`. It is advisory: a timeout, a provider
error or an unreadable reply means "no contradiction", never a blocked proposal.
"""

from __future__ import annotations

import logging

from pydantic import BaseModel

from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.llm import AnswersTasks, Llm
from signet_pipeline.providers.llm.output import extract_json
from signet_pipeline.text.contradiction import lexical_overlap, syntactic_contradiction

log = logging.getLogger("signet.contradiction")

SEMANTIC_MIN_OVERLAP = 3

PROMPT = """Do these two statements contradict each other (both cannot be true at the same time)?

A: {a}
B: {b}

Answer with ONLY a JSON object: {{"contradicts": true | false, "confidence": 0..1, "reasoning": one sentence}}.
"""


class ContradictionCheck(BaseModel):
    contradiction_risk: bool
    semantic: bool | None = None  # None: the semantic check did not run
    semantic_confidence: float | None = None
    reasoning: str | None = None


def semantic_contradiction(llm: Llm, fact: str, target: str, *, timeout: float) -> tuple[bool, float, str] | None:
    """(contradicts, confidence, reasoning), or None when the provider cannot say."""
    if isinstance(llm, AnswersTasks):
        return None  # the rules provider has no semantics beyond the syntactic check
    try:
        data = extract_json(llm.generate(PROMPT.format(a=target, b=fact), json=True, timeout=timeout))
    except ProviderError as exc:
        log.warning("semantic contradiction check failed, treated as no contradiction: %s", exc)
        return None
    if not isinstance(data, dict) or not isinstance(data.get("contradicts"), bool):
        return None
    try:
        confidence = min(1.0, max(0.0, float(data.get("confidence", 0.5))))
    except (TypeError, ValueError):
        confidence = 0.5
    return data["contradicts"], confidence, str(data.get("reasoning") or "")


def check(llm: Llm, action: str, fact: str, target: str, *, semantic_enabled: bool,
          timeout: float) -> ContradictionCheck:
    if syntactic_contradiction(fact, target):
        return ContradictionCheck(contradiction_risk=True)
    if not (semantic_enabled and action == "update" and lexical_overlap(fact, target) >= SEMANTIC_MIN_OVERLAP):
        return ContradictionCheck(contradiction_risk=False)
    verdict = semantic_contradiction(llm, fact, target, timeout=timeout)
    if verdict is None:
        return ContradictionCheck(contradiction_risk=False)
    contradicts, confidence, reasoning = verdict
    return ContradictionCheck(contradiction_risk=contradicts, semantic=contradicts,
                              semantic_confidence=confidence, reasoning=reasoning)
