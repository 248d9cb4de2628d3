"""Continuity scoring at session end: how well the injected memories served the session, judged
by the session summary job (rules provider offline, a model through a fake OpenAI-compatible
server), validated replies, agent scoping, and the analytics endpoints."""

from __future__ import annotations

import json

import pytest

from signet_pipeline.providers.llm.http import OpenAICompatibleLlm
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.stages.continuity import parse_score
from signet_pipeline.stages.session_summary import run_session_jobs
from signet_pipeline.store.queue import JobQueue
from tests.conftest import remember
from tests.fakes import FakeServer
from tests.pipeline.sessions.session_end import end, openai, user_turns


def test_the_summary_job_scores_how_well_the_injected_memories_served_the_session(client, svc):
    used = remember(client, "The billing service deploys with Helm charts")["id"]
    unused = remember(client, "Ana waters the office plants on Mondays")["id"]
    started = client.post("/api/hooks/session-start", json={"harness": "claude-code", "sessionKey": "s-20",
                                                             "project": "/repo/billing",
                                                             "context": "billing service Helm office plants"})
    assert {m["id"] for m in started.json()["memories"]} >= {used, unused}
    end(client, "s-20", user_turns("Let us bump the Helm charts for the billing service deploys."))
    (report,) = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports
    relevance = dict(svc.db.reader().execute("SELECT memory_id, relevance_score FROM session_memories "
                                             "WHERE session_key = 's-20'").fetchall())
    assert relevance[used] > 0.5 > relevance[unused]
    scores = client.get("/api/analytics/continuity", params={"project": "/repo/billing"}).json()
    (row,) = scores["scores"]
    assert row["sessionKey"] == "s-20" and row["memoriesUsed"] >= 1 and row["score"] == report.continuity_score
    latest = client.get("/api/analytics/continuity/latest").json()
    assert [s["project"] for s in latest["scores"]] == ["/repo/billing"]


def test_a_models_continuity_reply_is_validated_and_resolved_to_memories(client, svc):
    memory = remember(client, "The staging cluster runs Kubernetes 1.29")["id"]
    client.post("/api/hooks/session-start", json={"harness": "h", "sessionKey": "s-21", "context": "staging cluster"})
    end(client, "s-21", user_turns("What version does the staging cluster run?"))

    def handler(path, body):
        prompt = body["messages"][-1]["content"]
        if "Judge how useful" not in prompt:
            return openai(["The staging cluster question came up again."])(path, body)
        reply = {"score": 1.7, "confidence": "high", "memories_used": 9, "reasoning": "asked directly",
                 "per_memory": [{"id": memory[:8], "relevance": 0.9}, {"id": "zzzzzzzz", "relevance": 1}]}
        status, payload = openai(None)(path, body)
        payload["choices"][0]["message"]["content"] = "```json\n" + json.dumps(reply) + "\n```"  # fenced
        return status, payload

    with FakeServer(handler) as server:
        (report,) = run_session_jobs(svc, JobQueue(svc.db), OpenAICompatibleLlm(base_url=server.url, model="m"),
                                     10).reports
    row = client.get("/api/analytics/continuity").json()["scores"][0]
    assert (row["score"], row["confidence"], row["memoriesUsed"]) == (1.0, 0.0, 1)  # clamped, bad value zeroed
    assert any("zzzzzzzz" in w for w in report.warnings)
    (relevance,) = svc.db.reader().execute("SELECT relevance_score FROM session_memories WHERE session_key = 's-21' "
                                           "AND memory_id = ?", (memory,)).fetchall()[0]
    assert relevance == 0.9


@pytest.mark.parametrize("reply", [
    {"per_memory": 1, "score": 0.5}, {"memories_used": 1e999}, {"novel_context_count": 1e20},
    {"score": float("nan"), "confidence": "x"}, "no json", [], {"per_memory": [None, 3, {"id": None}]},
])
def test_malformed_continuity_replies_never_raise_and_stay_in_range(reply):
    result = parse_score(reply if isinstance(reply, str) else json.dumps(reply), ["abcdefgh-1"])
    assert 0 <= result.score <= 1 and 0 <= result.confidence <= 1
    assert 0 <= result.memories_used <= 1 and 0 <= result.novel_context_count <= 10_000


def test_a_failing_continuity_call_costs_the_score_not_the_summary(client, svc):
    remember(client, "The staging cluster runs Kubernetes 1.29")
    client.post("/api/hooks/session-start", json={"harness": "h", "sessionKey": "s-22", "context": "staging cluster"})
    end(client, "s-22", user_turns("The staging cluster moves to Kubernetes 1.30 next week."))

    def handler(path, body):
        if "Judge how useful" in body["messages"][-1]["content"]:
            return 503, {"error": {"message": "overloaded"}}
        return openai(["The staging cluster moves to Kubernetes 1.30 next week."])(path, body)

    with FakeServer(handler) as server:
        batch = run_session_jobs(svc, JobQueue(svc.db), OpenAICompatibleLlm(base_url=server.url, model="m"), 10)
    (report,) = batch.reports
    assert not batch.failed and len(report.memory_ids) == 1 and report.continuity_score is None
    assert any("continuity not scored" in w for w in report.warnings)
    assert client.get("/api/analytics/continuity").json()["scores"] == []


def test_another_agents_injection_under_the_same_key_is_not_judged(client, svc):
    mine = remember(client, "Ana deploys the billing service with Helm", agentId="ana")["id"]
    theirs = remember(client, "Bob keeps private notes on the billing service", agentId="bob",
                      visibility="private")["id"]
    for agent in ("ana", "bob"):
        client.post("/api/hooks/session-start", json={"harness": "h", "sessionKey": "s-23", "agentId": agent,
                                                       "context": "billing service"})
    end(client, "s-23", user_turns("Deploy the billing service with Helm today."), agentId="ana")
    (report,) = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports
    rows = dict(svc.db.reader().execute("SELECT memory_id, relevance_score FROM session_memories "
                                        "WHERE session_key = 's-23'").fetchall())
    assert rows[mine] is not None and theirs not in rows  # ana's session: bob's injection is not recorded
    (score,) = client.get("/api/analytics/continuity", params={"agentId": "ana"}).json()["scores"]
    assert score["memoriesRecalled"] == 1
