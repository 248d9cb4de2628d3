"""Decision stage: candidates from the real recall, replies from a fake OpenAI-compatible server."""

import json

from signet_pipeline.models import ExtractedFact, RememberRequest
from signet_pipeline.providers.llm.http import OpenAICompatibleLlm
from signet_pipeline.stages.extraction.decision import NO_CANDIDATES_REASON, decide, parse_decision
from signet_pipeline.write.remember import remember
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
    decision, _ = parse_decision('<think>x</think>{"action": "NONE", "targetId": "a", "confidence": 3, '
                                 '"reason": "dup"}', ids)
    assert (decision.action, decision.target_id, decision.confidence) == ("none", None, 1.0)


def test_one_call_decides_all_of_a_memorys_facts_each_against_its_own_candidates(svc):
    from signet_pipeline.stages.extraction.decision import decide_facts

    dog = remember(svc, RememberRequest(content="Maria adopted a beagle named Biscuit")).id
    db = remember(svc, RememberRequest(content="The billing service stores invoices in PostgreSQL")).id
    facts = [FACT, ExtractedFact(content="The billing service now stores invoices in SQLite", type="fact",
                                 confidence=0.9),
             ExtractedFact(content="Maria walks Biscuit the beagle every morning", type="fact", confidence=0.8),
             ExtractedFact(content="Quarterly zebra migration forecasts", type="fact", confidence=0.8)]
    reply = {"decisions": [{"fact": 2, "action": "update", "targetId": db, "confidence": 0.8, "reason": "moved"},
                           {"fact": 1, "action": "update", "targetId": db, "confidence": 0.9, "reason": "renamed"}]}
    with FakeServer(chat(reply)) as server:
        decided = decide_facts(svc, OpenAICompatibleLlm(base_url=server.url, model="m"), facts)
        asked = [f for f, (_, _, cands) in zip(facts, decided) if cands]
        assert len(server.requests) == 1  # every fact with candidates, one call
        prompt = server.requests[0][1]["messages"][0]["content"]
        assert all(f"Fact {n} " in prompt for n in range(1, len(asked) + 1)) and dog in prompt
    by_fact = dict(zip((f.content for f in facts), decided))
    first, warning, candidates = by_fact[FACT.content]
    assert first is None and "not one of the candidates" in warning  # db is not among the dog fact's candidates
    second, warning, _ = by_fact["The billing service now stores invoices in SQLite"]
    assert warning is None and (second.action, second.target_id) == ("update", db)
    third, warning, candidates = by_fact["Maria walks Biscuit the beagle every morning"]
    assert candidates and third is None and warning == "the reply has no decision for fact 3"
    fourth, warning, candidates = by_fact["Quarterly zebra migration forecasts"]  # nothing alike: no question
    assert (fourth.action, fourth.reason, candidates) == ("add", NO_CANDIDATES_REASON, [])
    assert "zebra" not in prompt and len(asked) == 3


def test_a_batchs_candidates_match_recalls_per_query_vector_leg_and_stay_within_the_agent(svc, monkeypatch):
    """stages/extraction/candidates.py: the vector leg of a batch is one product over what each
    agent may read; past BATCH_SCAN_MAX the per-query leg of recall. Both find the same memories,
    never another agent's private ones, never the fact's own source."""
    from signet_pipeline.stages.extraction import candidates

    texts = ["Maria adopted a beagle named Biscuit", "Maria walks Biscuit along the river every morning",
             "The billing service stores invoices in PostgreSQL", "Maria's sister Ana moved to Porto in May",
             "Biscuit the beagle hates the vacuum cleaner", "The invoices are archived every Friday"]
    mine = [remember(svc, RememberRequest(content=t, agentId="ada", visibility="private")).id for t in texts]
    theirs = [remember(svc, RememberRequest(content=t, agentId="bob", visibility="private")).id for t in texts]
    lookups = [candidates.Lookup(ExtractedFact(content=c, type="fact", confidence=0.8), "ada", frozenset({mine[0]}))
               for c in ("Maria's beagle is called Biscuit", "The billing service keeps invoices in PostgreSQL")]
    batched = candidates.find_candidates(svc, lookups)
    monkeypatch.setattr(candidates, "BATCH_SCAN_MAX", 0)  # every agent "reads too much": recall's per-query leg
    per_query = candidates.find_candidates(svc, lookups)
    assert [[h.id for h in hs] for hs in batched] == [[h.id for h in hs] for hs in per_query]
    found = {h.id for hs in batched for h in hs}
    assert found and found <= set(mine) - {mine[0]} and not found & set(theirs)
    assert batched[0][0].id == mine[4] or batched[0][0].id == mine[1]  # the beagle's own memories lead
    assert batched[1][0].id == mine[2]
