"""Decision stage: candidates from the real recall, replies from a fake OpenAI-compatible server."""

import json

from signet_pipeline.memory.models import RememberRequest
from signet_pipeline.memory.remember import remember
from signet_pipeline.providers.llm.http import OpenAICompatibleLlm
from signet_pipeline.stages.decision import NO_CANDIDATES_REASON, decide, parse_decision
from signet_pipeline.stages.extraction import ExtractedFact
from tests.fakes import FakeServer

FACT = ExtractedFact(content="Maria's beagle Biscuit is now called Waffles", type="fact", confidence=0.8)


def chat(reply: dict | str):
    content = reply if isinstance(reply, str) else json.dumps(reply)
    return lambda path, body: (200, {"choices": [{"message": {"role": "assistant", "content": content}}]})


def test_no_candidates_means_add_without_calling_the_llm(svc):
    with FakeServer(chat({"action": "none"})) as server:
        decision, warning, candidates = decide(svc, OpenAICompatibleLlm(base_url=server.url, model="m"), FACT)
        assert (decision.action, decision.confidence, decision.reason) == ("add", 0.8, NO_CANDIDATES_REASON)
        assert warning is None and candidates == [] and server.requests == []


def test_update_of_a_real_candidate(svc):
    target = remember(svc, RememberRequest(content="Maria adopted a beagle named Biscuit")).id
    reply = {"action": "update", "targetId": target, "confidence": 0.9, "reason": "the dog was renamed"}
    with FakeServer(chat(reply)) as server:
        decision, warning, candidates = decide(svc, OpenAICompatibleLlm(base_url=server.url, model="m"), FACT)
        assert warning is None and decision.action == "update" and decision.target_id == target
        assert target in {c.id for c in candidates} and len(candidates) <= 5
        assert target in server.requests[0][1]["messages"][0]["content"]


def test_hallucinated_ids_missing_fields_and_garbage_are_rejected():
    ids = {"a", "b"}
    cases = [
        ({"action": "update", "targetId": "zzz", "confidence": 1, "reason": "r"}, "not one of the candidates"),
        ({"action": "delete", "confidence": 1, "reason": "r"}, "without a targetId"),
        ({"action": "none", "confidence": 1, "reason": "  "}, "without a reason"),
        ({"action": "merge", "confidence": 1, "reason": "r"}, "unknown action"),
        ({"action": "add", "confidence": "sure", "reason": "r"}, "not a number"),
    ]
    for reply, needle in cases:
        decision, warning = parse_decision(json.dumps(reply), ids)
        assert decision is None and needle in warning
    assert parse_decision("I think you should add it.", ids) == (None, "decision reply is not a JSON object")
    decision, _ = parse_decision('<think>x</think>{"action": "NONE", "targetId": "a", "confidence": 3, "reason": "dup"}', ids)
    assert (decision.action, decision.target_id, decision.confidence) == ("none", None, 1.0)
