"""The knowledge graph and session history MCP tools through POST /mcp in team mode, with two
agents (agent tokens ana and bob) that both know an "Atlas": each tool answers from the caller's
own graph and memories, and nothing private of the other agent comes back, whatever the caller
names (an id, a session key, an agent_id argument)."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_api.mcp.protocol import INSTRUCTIONS
from signet_api.mcp.tools import TOOLS
from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret
from signet_pipeline.sessions import inject
from tests.api.mcp_calls import call, ok
from tests.conftest import settle
from tests.knowledge_graph import post, seed_graph

NEW_TOOLS = {"knowledge_tree", "knowledge_list_entities", "knowledge_get_entity", "knowledge_list_aspects",
             "knowledge_list_groups", "knowledge_list_claims", "knowledge_list_attributes", "knowledge_expand",
             "knowledge_expand_session", "lcm_expand", "session_search"}
ANA_ONLY = ("Thursdays", "Priya", "Helm")  # words of ana's private memories, graph and transcript
BOB_ONLY = ("Oslo",)
PATH = {"entity": "Atlas", "aspect": "deployment", "group": "schedule"}


@pytest.fixture
def agents(make_service):
    """ana: Atlas's deploy graph, a summarized session and its facts, all private; bob: his own
    Atlas (an office), also private, and a session of his own."""
    svc = make_service(auth={"mode": "team"})
    secret = load_or_create_secret(svc.settings.auth_secret_path)

    def token(sub: str, role: str = "agent") -> dict:
        return {"authorization": f"Bearer {issue(secret, sub=sub, role=role, scope=TokenScope(), ttl_s=600)[0]}"}

    ana, bob = token("ana"), token("bob")
    with TestClient(create_app(service=svc)) as client:
        summary = seed_graph(client, svc, headers=ana, session="s-ana", visibility="private")
        office = {"entityName": "Atlas", "aspect": "offices", "attributes": [{"content": "The Oslo office"}]}
        post(client, "/api/memory/remember", {"content": "Atlas ships from the Oslo office", "visibility": "private",
                                              "structured": {"aspects": [office]}}, bob)
        post(client, "/api/hooks/session-end", {"harness": "codex", "sessionKey": "s-bob", "visibility": "private",
                                                "transcript": "user: The Oslo office ships Atlas builds."}, bob)
        settle(svc)
        yield client, {"ana": ana, "bob": bob, "admin": token("root", "admin")}, summary


def text(client, name: str, arguments: dict, headers: dict) -> tuple[bool, str]:
    """tools/call -> (isError, the raw text the agent reads)."""
    failed, body = call(client, name, arguments, headers=headers)
    return failed, body if failed else json.dumps(body)


def test_every_new_tool_is_served_and_the_guides_name_only_served_tools():
    assert NEW_TOOLS <= TOOLS.keys()
    for guide in (INSTRUCTIONS, inject.GUIDE):
        named = {word.strip("`.,;:()") for word in guide.split() if word.strip("`.,;:()").startswith(
            ("memory_", "knowledge_", "lcm_", "session_search"))}
        assert named and named <= TOOLS.keys(), named - TOOLS.keys()


def test_each_tool_reads_the_callers_graph_and_nothing_private_of_another_agent(agents):
    client, tokens, summary = agents
    calls = [("knowledge_tree", {"entity": "Atlas"}), ("knowledge_tree", {}), ("knowledge_list_entities", {}),
             ("knowledge_get_entity", {"name": "Atlas"}), ("knowledge_list_aspects", {"entity": "Atlas"}),
             ("knowledge_list_groups", {"entity": "Atlas", "aspect": "deployment"}),
             ("knowledge_list_claims", PATH), ("knowledge_list_attributes", {**PATH, "claim": "deploy_day",
                                                                             "status": "all"}),
             ("knowledge_expand", {"entity_name": "Atlas"}), ("knowledge_expand_session", {"entity_name": "Atlas"}),
             ("lcm_expand", {"id": summary}), ("lcm_expand", {"id": "s-ana"}),
             ("session_search", {"query": "Atlas Thursdays Oslo"}), ("session_search", {"query": "s-ana"})]
    assert {name for name, _ in calls} == NEW_TOOLS
    for name, arguments in calls:
        for caller, theirs in (("ana", BOB_ONLY), ("bob", ANA_ONLY)):
            failed, answer = text(client, name, arguments, tokens[caller])
            leaked = [word for word in theirs if word in answer]
            assert not leaked, f"{name} as {caller} shows the other agent's {leaked}: {answer[:300]}"
            # Asking for the other agent's graph changes nothing: an agent token reads its own.
            other = "bob" if caller == "ana" else "ana"
            assert text(client, name, {**arguments, **({"agent_id": other} if name != "session_search" else {})},
                        tokens[caller]) == (failed, answer)


def test_the_owner_gets_the_whole_answer(agents):
    client, tokens, summary = agents
    ana = tokens["ana"]
    tree = ok(client, "knowledge_tree", {"entity": "atlas"}, headers=ana)
    claims = [c for item in tree["items"] for g in item["groups"] for c in g["claims"]]
    assert any(c["preview"] == "Atlas deploys on Thursdays" for c in claims)
    assert ok(client, "knowledge_tree", {"max_aspects": 1}, headers=ana)["limit"] == 1  # no entity: the entities
    history = ok(client, "knowledge_list_attributes", {**PATH, "claim": "deploy_day", "status": "all"}, headers=ana)
    assert [a["status"] for a in history["items"]] == ["active", "superseded"]
    assert ok(client, "knowledge_list_claims", {**PATH, "limit": 1}, headers=ana)["hasMore"] is True
    expanded = ok(client, "knowledge_expand", {"entity_name": "Atlas", "question": "when does it deploy?"}, headers=ana)
    assert any("Mondays" in c["content"] for c in expanded["constraints"]) and expanded["memories"]
    sessions = ok(client, "knowledge_expand_session", {"entity_name": "Priya Sharma"}, headers=ana)
    assert [s["id"] for s in sessions["summaries"]] == [summary]
    lineage = ok(client, "lcm_expand", {"id": summary}, headers=ana)
    assert lineage["transcript"]["sessionKey"] == "s-ana" and lineage["children"]
    found = ok(client, "session_search", {"query": "Helm Thursdays"}, headers=ana)
    assert [h["sessionKey"] for h in found["hits"]] == ["s-ana"]
    # An admin reads any agent's graph by naming it; bob's token cannot.
    assert "Oslo" in json.dumps(ok(client, "knowledge_expand", {"entity_name": "Atlas", "agent_id": "bob"},
                                   headers=tokens["admin"]))
    bob_view = call(client, "knowledge_list_groups", {"entity": "Atlas", "aspect": "deployment"}, headers=tokens["bob"])
    assert bob_view[0] and "404" in bob_view[1] and "aspect_not_found" in bob_view[1]
    assert call(client, "lcm_expand", {"id": summary}, headers=tokens["bob"])[0]


def test_a_global_summary_is_readable_by_policy_but_its_session_stays_its_agents(agents):
    client, tokens, _ = agents
    shared = seed_graph(client, client.app.state.service, headers=tokens["ana"], session="s-ana-2",
                        transcript="user: Ana rotates the Atlas signing keys every month.")
    mine = ok(client, "lcm_expand", {"id": shared}, headers=tokens["ana"])
    theirs = ok(client, "lcm_expand", {"id": shared}, headers=tokens["bob"])
    assert theirs["node"] == mine["node"] and mine["transcript"] and mine["session"]["startedAt"]
    assert theirs["transcript"] is None and theirs["session"]["startedAt"] is None
    assert "user:" not in json.dumps(theirs)


def test_tool_arguments_are_checked_before_any_call(agents):
    client, tokens, _ = agents
    for name, arguments in [("knowledge_tree", {"entity": "Atlas", "depth": 4}), ("knowledge_get_entity", {}),
                            ("knowledge_list_attributes", {**PATH, "claim": "c", "status": "old"}),
                            ("knowledge_expand", {"entity_name": "Atlas", "max_tokens": 0}),
                            ("lcm_expand", {"id": "x", "transcript_char_limit": 10}),
                            ("session_search", {"query": ""}), ("session_search", {"query": "x", "agent": "ana"})]:
        reply = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                          "params": {"name": name, "arguments": arguments}}, headers=tokens["ana"])
        error = reply.json()["error"]
        assert error["code"] == -32602 and f"invalid arguments for {name}" in error["message"], (name, error)
