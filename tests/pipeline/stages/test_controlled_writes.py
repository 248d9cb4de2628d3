"""Extraction jobs through the real store: pipeline modes, gates, audit trail, supersession,
failures and re-runs (rules provider unless a fake LLM server is the point)."""

import json

from signet_pipeline.models import ExtractedFact, RecallRequest, RememberRequest
from signet_pipeline.providers.llm.http import OpenAICompatibleLlm
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.recall.reads import get_memory, memory_history
from signet_pipeline.recall.search import recall_memories
from signet_pipeline.stages.extraction.batch import (
    batch_for_memories,
    decide_batch,
    extract_batch,
    run_jobs,
    summarize,
    write_batch,
)
from signet_pipeline.stages.extraction.decision import Decision
from signet_pipeline.stages.extraction.writes import Proposal, apply_proposals
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.write.remember import remember
from tests.fakes import FakeServer

RULES = RulesLlm()
TWO_FACTS = "Nicholai prefers tabs over spaces. We decided to use PostgreSQL for Signet. Maybe try Redis later."


def mode(**flags):
    return {"memory": {"pipelineV2": flags}}


def process(svc, llm=RULES, limit=50):
    return summarize(run_jobs(svc, JobQueue(svc.db, max_attempts=svc.settings.pipeline.worker.max_retries), llm, limit))


def derived(svc, source_id):
    return svc.db.reader().execute(
        "SELECT content, who, why, source_memory_id, type, agent_id, embedding_model FROM memories "
        "WHERE source_memory_id = ? ORDER BY rid", (source_id,)).fetchall()


def test_controlled_mode_writes_facts_with_provenance_and_audits_every_proposal(make_service):
    svc = make_service()
    source = remember(svc, RememberRequest(content=TWO_FACTS, agentId="agent-a"))
    assert get_memory(svc, source.id, agent_id="agent-a")["extraction_status"] == "pending"
    counts = process(svc)
    assert (counts["completed"], counts["written"], counts["skipped"]) == (1, 2, {"low_fact_confidence": 1})
    rows = derived(svc, source.id)
    assert [(r[0], r[1], r[2], r[4], r[5]) for r in rows] == [
        ("Nicholai prefers tabs over spaces.", "pipeline-v2", "extracted-fact", "preference", "agent-a"),
        ("We decided to use PostgreSQL for Signet.", "pipeline-v2", "extracted-fact", "decision", "agent-a"),
    ]
    assert all(r[6] == svc.embedder.model for r in rows)  # embedded before the write tx, stored with it
    detail = get_memory(svc, source.id, agent_id="agent-a")
    assert (detail["extraction_status"], detail["extraction_model"]) == ("completed", "rules-v1")
    history = memory_history(svc, source.id, limit=100, agent_id="agent-a")["history"]
    skipped = [h for h in history if h["event"] == "skipped"]
    assert len(skipped) == 1 and skipped[0]["reason"] == "low_fact_confidence"
    meta = skipped[0]["metadata"]
    assert meta["sourceMemoryId"] == source.id and meta["factCount"] == 3 and meta["extractionModel"] == "rules-v1"
    hit = recall_memories(svc, RecallRequest(query="which database did we decide on", agentId="agent-a")).results[0]
    assert hit.content == "We decided to use PostgreSQL for Signet." and hit.source_memory_id == source.id
    job = job_store.get(svc.db.reader(), source.jobId)
    assert job["status"] == "completed" and json.loads(job["result"])["created"] == 2


def test_a_single_sentence_memory_dedupes_against_itself(make_service):
    svc = make_service()
    source = remember(svc, RememberRequest(content="The API listens on port 3850"))
    counts = process(svc)
    assert (counts["written"], counts["deduped"]) == (0, 1)
    deduped = [h for h in memory_history(svc, source.id, limit=10)["history"] if h["event"] == "deduped"]
    assert deduped[0]["metadata"]["existingId"] == source.id
    # The reason says what happened, not the add decision's "no candidate states ... this fact".
    assert deduped[0]["reason"] == "the memory it was extracted from already says exactly this"
    assert deduped[0]["metadata"]["decisionReason"]  # what the decision said stays in the record


def test_a_fact_another_memory_already_states_names_that_memory(make_service):
    """The decision saw no candidate stating the fact (its reason says so), the write finds one."""
    svc = make_service()
    existing = remember(svc, RememberRequest(content="The backup job runs at 02:00 every night"))
    source = remember(svc, RememberRequest(content="Ops notes: the backup job runs at 02:00 every night, logs rotate"))
    add = Proposal(fact=ExtractedFact(content="The backup job runs at 02:00 every night", type="fact", confidence=0.9),
                   decision=Decision(action="add", confidence=0.8,
                                     reason="no candidate states or contradicts this fact"))
    report = apply_proposals(svc, mem_store.get(svc.db.reader(), source.id), [add], model="rules-v1", fact_count=1,
                             entity_count=0)
    assert report.deduped == 1
    [event] = [h for h in memory_history(svc, source.id, limit=20)["history"] if h["event"] == "deduped"]
    assert event["reason"] == f"memory {existing.id} already says exactly this"
    assert event["metadata"]["decisionReason"] == "no candidate states or contradicts this fact"


def test_shadow_and_frozen_modes_write_nothing_but_proposals(make_service):
    writer = make_service()
    first = remember(writer, RememberRequest(content=TWO_FACTS))
    for runs, flags in enumerate(({"shadowMode": True}, {"mutationsFrozen": True}), start=1):
        shadow = make_service(**mode(**flags))
        before = shadow.db.reader().execute("SELECT count(*) FROM memories").fetchone()[0]
        counts = process(shadow)
        assert (counts["written"], counts["shadow"]) == (0, 3)
        assert shadow.db.reader().execute("SELECT count(*) FROM memories").fetchone()[0] == before
        proposed = [h for h in memory_history(shadow, first.id, limit=100)["history"] if h["event"] == "proposed"]
        assert len(proposed) == 3 * runs and {h["changedBy"] for h in proposed} == {"pipeline-shadow"}
        assert get_memory(shadow, first.id)["extraction_status"] == "completed"
        # Next mode: the same memory goes through the queue again.
        JobQueue(writer.db).enqueue("extract", memory_id=first.id)


CACHE_ON = "The staging cache is enabled for all regions."
CACHE_OFF = "The staging cache is disabled for all regions now. Deploys happen on Fridays after lunch."


def test_destructive_proposals_are_blocked_unless_allowed_and_flag_contradictions(make_service):
    svc = make_service()
    old = remember(svc, RememberRequest(content=CACHE_ON))
    process(svc)
    new = remember(svc, RememberRequest(content=CACHE_OFF))
    counts = process(svc)
    assert (counts["blocked"], counts["review_needed"], counts["superseded"]) == (1, 1, 0)
    blocked = [h for h in memory_history(svc, new.id, limit=100)["history"] if h["event"] == "blocked"][0]
    assert blocked["reason"] == "destructive_mutations_disabled"
    assert blocked["metadata"]["targetId"] == old.id
    assert blocked["metadata"]["contradictionRisk"] is True and blocked["metadata"]["reviewNeeded"] is True
    assert get_memory(svc, old.id)["superseded_by"] is None


def test_full_mode_supersedes_the_target_without_deleting_it(make_service):
    svc = make_service(**mode(allowUpdateDelete=True))
    old = remember(svc, RememberRequest(content=CACHE_ON))
    process(svc)
    remember(svc, RememberRequest(content=CACHE_OFF))
    counts = process(svc)
    assert counts["superseded"] == 1
    kept = get_memory(svc, old.id)
    replacement = kept["superseded_by"]
    assert kept["content"] == CACHE_ON and replacement and kept["version"] == 2
    assert get_memory(svc, replacement)["content"] == "The staging cache is disabled for all regions now."
    assert [e for e in memory_history(svc, old.id, limit=10)["history"] if e["event"] == "superseded"]
    found = [h.id for h in recall_memories(svc, RecallRequest(query="staging cache regions")).results]
    family = {replacement, get_memory(svc, replacement)["source_memory_id"]}  # a fact and its source are one result
    assert old.id not in found and family & set(found)


def test_an_older_memory_never_supersedes_a_newer_one(make_service):
    svc = make_service(**mode(allowUpdateDelete=True))
    old = remember(svc, RememberRequest(content=CACHE_ON, createdAt="2020-01-01T00:00:00Z"))
    no_jobs = make_service(**mode(enabled=False))  # only the old memory's job runs, after the newer exists
    newer = remember(no_jobs, RememberRequest(content="The staging cache is disabled for all regions."))
    counts = process(svc)
    assert counts["superseded"] == 0 and counts["blocked"] == 1
    assert get_memory(svc, newer.id)["superseded_by"] is None
    blocked = [h for h in memory_history(svc, old.id, limit=10)["history"] if h["event"] == "blocked"]
    assert blocked[0]["reason"] == "target_newer_than_source"


def test_provider_failures_retry_then_mark_extraction_failed(make_service):
    svc = make_service(**mode(worker={"maxRetries": 2}))
    source = remember(svc, RememberRequest(content=TWO_FACTS))
    with FakeServer(lambda path, body: (500, {"error": "model not loaded"})) as server:
        llm = OpenAICompatibleLlm(base_url=server.url, model="m")
        assert process(svc, llm)["retry"] == 1
        job = job_store.get(svc.db.reader(), source.jobId)
        assert job["status"] == "pending" and job["not_before"] and "500" in job["error"]
        assert get_memory(svc, source.id)["extraction_status"] == "pending"
        with svc.db.write() as conn:
            conn.execute("UPDATE memory_jobs SET not_before = NULL WHERE id = ?", (source.jobId,))
        assert process(svc, llm)["dead"] == 1
    assert job_store.get(svc.db.reader(), source.jobId)["status"] == "dead"
    assert get_memory(svc, source.id)["extraction_status"] == "failed"


def test_hallucinated_targets_from_an_llm_are_dropped_with_a_warning(make_service):
    svc = make_service()
    remember(svc, RememberRequest(content="Maria adopted a beagle named Biscuit"))
    process(svc)
    remember(svc, RememberRequest(content="Maria's beagle Biscuit was renamed to Waffles last spring."))

    def reply(path, body):
        prompt = body["messages"][0]["content"]
        if "Extract durable knowledge" in prompt:
            content = {"facts": [{"content": "Maria's beagle is now called Waffles", "type": "fact",
                                  "confidence": 0.9}], "entities": []}
        else:
            content = {"action": "update", "targetId": "not-a-candidate", "confidence": 0.9, "reason": "renamed"}
        return 200, {"choices": [{"message": {"role": "assistant", "content": json.dumps(content)}}]}

    with FakeServer(reply) as server:
        batch = run_jobs(svc, JobQueue(svc.db), OpenAICompatibleLlm(base_url=server.url, model="m"), 10)
    assert summarize(batch)["proposals"] == 0
    assert any("not one of the candidates" in w for w in batch.warnings())


def test_reextraction_is_idempotent_and_recorded(make_service):
    svc = make_service()
    source = remember(svc, RememberRequest(content=TWO_FACTS))
    process(svc)
    before = len(derived(svc, source.id))
    for _ in range(2):
        batch = write_batch(svc, None, decide_batch(svc, RULES, extract_batch(
            svc, RULES, batch_for_memories(svc, RULES, [source.id]))))
        assert summarize(batch)["written"] == 0
    assert len(derived(svc, source.id)) == before == 2
    assert [e["event"] for e in memory_history(svc, source.id, limit=100)["history"]].count("reextracted") == 2


BILLING_OLD = "The team runs the billing service on PostgreSQL"
BILLING_NEW = "The team moved the billing service to MongoDB last month"


def scripted_llm(target_id, semantic_reply):
    """Fake OpenAI-compatible server answering the three prompts of the pipeline."""
    def reply(path, body):
        prompt = body["messages"][0]["content"]
        if "Extract durable knowledge" in prompt:
            content = {"facts": [{"content": BILLING_NEW, "type": "fact", "confidence": 0.9}], "entities": []}
        elif "contradict each other" in prompt:
            if semantic_reply is None:
                return 500, {"error": "overloaded"}
            content = semantic_reply
        else:
            content = {"action": "update", "targetId": target_id, "confidence": 0.8, "reason": "database changed"}
        return 200, {"choices": [{"message": {"role": "assistant", "content": json.dumps(content)}}]}
    return reply


def semantic_prompts(server):
    return [r for r in server.requests if "contradict each other" in r[1]["messages"][0]["content"]]


def test_semantic_contradiction_check_runs_only_behind_its_flag_and_never_blocks(make_service):
    verdict = {"contradicts": True, "confidence": 0.85, "reasoning": "moved off PostgreSQL"}
    for enabled, semantic_reply, expected in ((False, verdict, None), (True, verdict, True), (True, None, None)):
        svc = make_service(**mode(semanticContradictionEnabled=enabled))
        agent = f"agent-{enabled}-{expected}"  # one store for the three cases, one agent each
        old = remember(svc, RememberRequest(content=BILLING_OLD, agentId=agent))
        JobQueue(svc.db).lease(["extract"])  # the old memory needs no extraction here
        new = remember(svc, RememberRequest(content=BILLING_NEW + ". More later.", agentId=agent))
        with FakeServer(scripted_llm(old.id, semantic_reply)) as server:
            counts = process(svc, OpenAICompatibleLlm(base_url=server.url, model="m"))
            assert len(semantic_prompts(server)) == (1 if enabled else 0)
        assert counts["blocked"] == 1  # advisory: the check never changes what is applied
        history = memory_history(svc, new.id, limit=20, agent_id=agent)["history"]
        meta = next(h for h in history if h["event"] == "blocked")["metadata"]
        assert meta.get("semanticContradiction") == expected
        assert meta["reviewNeeded"] is bool(expected)
