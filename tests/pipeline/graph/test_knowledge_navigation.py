"""The graph navigation and expansion reads over the real API (the reference's
/api/knowledge/navigation/*, /api/knowledge/expand, /api/knowledge/expand/session and
/api/sessions/summaries/expand): a graph written through remember's structured payload and the
inline linker, a session summarized by the summary job and its facts extracted by the pipeline
(rules provider, offline). The MCP tools over them, across two agents: tests/api/test_mcp_knowledge.py."""

from __future__ import annotations

import json

from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.stages.session_summary import run_session_jobs
from signet_pipeline.store.queue import JobQueue
from tests.knowledge_graph import TRANSCRIPT, post, seed_graph


def get(client, path: str, headers: dict | None = None, expect: int = 200, **params) -> dict:
    response = client.get(path, params=params, headers=headers)
    assert response.status_code == expect, response.text
    return response.json()


def test_the_tree_and_the_steps_down_to_a_claims_history(client, svc):
    seed_graph(client, svc)
    entity = get(client, "/api/knowledge/navigation/entity", name="atl")  # a prefix finds it
    assert entity["entity"]["name"] == "Atlas" and entity["entity"]["entityType"] == "project"
    assert (entity["outgoingDependencyCount"], entity["constraintCount"]) == (1, 2)
    assert entity["structuralDensity"]["aspectCount"] == entity["aspectCount"] >= 2
    assert get(client, f"/api/knowledge/entities/{entity['entity']['id']}")["entity"] == entity["entity"]

    tree = get(client, "/api/knowledge/navigation/tree", entity="Atlas")
    rooms = {item["aspect"]["name"]: item for item in tree["items"]}
    deployment = rooms["deployment"]
    assert (deployment["groupCount"], deployment["claimCount"], deployment["attributeCount"]) == (2, 2, 3)
    groups = {g["groupKey"]: g for g in deployment["groups"]}
    assert set(groups) == {"schedule", "general"}  # the attribute without a groupKey sits in `general`
    day = next(c for c in groups["schedule"]["claims"] if c["claimKey"] == "deploy_day")
    assert (day["activeCount"], day["supersededCount"], day["preview"]) == (1, 1, "Atlas deploys on Thursdays")
    assert rooms["decisions"]["constraintCount"] == 2  # the linker's decision language
    shallow = get(client, "/api/knowledge/navigation/tree", entity="atlas", depth=2, max_claims=1)
    assert all(g["claims"] == [] and not g["claimsHasMore"] for i in shallow["items"] for g in i["groups"])
    cut = get(client, "/api/knowledge/navigation/tree", entity="atlas", max_claims=1, max_aspects=1)
    assert len(cut["items"]) == 1 and cut["limits"] == {"maxAspects": 1, "maxGroups": 20, "maxClaims": 1, "depth": 3}

    path = {"entity": "ATLAS", "aspect": "Deployment"}
    assert [a["aspect"]["name"] for a in get(client, "/api/knowledge/navigation/aspects", entity="atlas")["items"]] \
        == [item["aspect"]["name"] for item in tree["items"]]
    assert [g["groupKey"] for g in get(client, "/api/knowledge/navigation/groups", **path)["items"]][0] == "schedule"
    first = get(client, "/api/knowledge/navigation/claims", group="Schedule", limit=1, **path)
    rest = get(client, "/api/knowledge/navigation/claims", group="schedule", limit=1, offset=1, **path)
    assert first["hasMore"] and not rest["hasMore"]
    assert {first["items"][0]["claimKey"], rest["items"][0]["claimKey"]} == {"deploy_day", "deploy_time"}
    current = get(client, "/api/knowledge/navigation/attributes", group="schedule", claim="Deploy Day", **path)
    assert [a["content"] for a in current["items"]] == ["Atlas deploys on Thursdays"]
    history = get(client, "/api/knowledge/navigation/attributes", group="schedule", claim="deploy_day", status="all",
                  **path)["items"]
    assert [(a["content"], a["status"]) for a in history] == [("Atlas deploys on Thursdays", "active"),
                                                              ("Atlas deploys on Fridays", "superseded")]
    assert history[1]["supersededBy"] == history[0]["id"] and history[0]["claimKey"] == "deploy_day"
    assert get(client, "/api/knowledge/navigation/attributes", group="schedule", claim="deploy_day", kind="constraint",
               **path)["items"] == []

    listing = get(client, "/api/knowledge/navigation/entities", q="atl")
    assert [i["entity"]["name"] for i in listing["items"]] == ["Atlas"]
    assert listing["items"][0]["dependencyCount"] == entity["dependencyCount"] >= 1


def test_unknown_names_are_404_with_a_code_and_bad_parameters_422(client, svc):
    seed_graph(client, svc)
    for path, params, code in [("/api/knowledge/navigation/entity", {"name": "nobody"}, "entity_not_found"),
                               ("/api/knowledge/navigation/entity", {"name": "  "}, "entity_not_found"),
                               ("/api/knowledge/navigation/groups", {"entity": "atlas", "aspect": "food"},
                                "aspect_not_found"),
                               ("/api/knowledge/entities/no-such-id", {}, "entity_not_found")]:
        assert get(client, path, expect=404, **params)["error"]["code"] == code
    missing = client.post("/api/sessions/summaries/expand", json={"id": "no-such-memory"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    for path, params in [("/api/knowledge/navigation/tree", {"entity": "atlas", "depth": 4}),
                         ("/api/knowledge/navigation/tree", {}),
                         ("/api/knowledge/navigation/attributes", {"entity": "atlas", "aspect": "a", "group": "g",
                                                                   "claim": "c", "status": "old"})]:
        assert get(client, path, expect=422, **params)["error"]["code"] == "invalid_request"
    for path, body in [("/api/knowledge/expand", {"entity": "atlas", "maxTokens": 0}),
                       ("/api/knowledge/expand/session", {"entityName": "atlas", "timeRange": "yesterday"}),
                       ("/api/knowledge/expand/session", {"entityName": "atlas", "timeRange": {}}),  # was a 500
                       ("/api/sessions/summaries/expand", {"id": "x", "transcriptCharLimit": 50})]:
        assert client.post(path, json=body).status_code == 422


def test_expand_gathers_an_entitys_graph_and_memories_within_the_budget(client, svc):
    seed_graph(client, svc)
    expanded = post(client, "/api/knowledge/expand", {"entity": "atlas"})
    assert expanded["entity"]["name"] == "Atlas" and expanded["entity"]["type"] == "project"
    assert {c["content"] for c in expanded["constraints"]} >= {"We decided to never deploy Atlas on Mondays."}
    assert expanded["dependencies"] == [{"targetId": expanded["dependencies"][0]["targetId"], "target": "Postgres",
                                         "type": "uses", "strength": 0.8}]
    assert "Atlas deploys on Fridays" not in json.dumps(expanded["aspects"])  # superseded: not a current attribute
    assert len(expanded["memories"]) == expanded["memoryCount"] >= 4
    constraint_memories = {c["memoryId"] for c in expanded["constraints"]}
    assert expanded["memories"][0]["id"] in constraint_memories  # constraints first
    tight = post(client, "/api/knowledge/expand", {"entity": "atlas", "maxTokens": 15})
    assert tight["memoryCount"] == expanded["memoryCount"] and 0 < len(tight["memories"]) < len(expanded["memories"])
    assert sum(len(m["content"]) for m in tight["memories"]) <= 15 * 4
    focused = post(client, "/api/knowledge/expand", {"entity": "atlas", "aspect": "deploy"})
    assert [a["name"] for a in focused["aspects"]] == ["deployment"]


def test_the_sessions_about_an_entity_and_a_summarys_lineage(client, svc):
    summary_id = seed_graph(client, svc)
    found = post(client, "/api/knowledge/expand/session", {"entityName": "Priya Sharma"})
    assert found["entityName"] == "Priya Sharma" and [s["id"] for s in found["summaries"]] == [summary_id]
    assert found["summaries"][0]["sessionKey"] == "s-1" and found["summaries"][0]["harness"] == "claude-code"
    # Named only in lower case (the linker links proper nouns): found through its text.
    post(client, "/api/hooks/session-end", {"harness": "codex", "sessionKey": "s-2",
                                            "transcript": "user: the atlas rollback needs a database snapshot first."})
    run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10)
    both = post(client, "/api/knowledge/expand/session", {"entityName": "atlas"})
    assert [s["sessionKey"] for s in both["summaries"]] == ["s-2", "s-1"] and both["total"] == 2
    assert [s["sessionKey"] for s in post(client, "/api/knowledge/expand/session",
                                          {"entityName": "atlas", "sessionId": "s-1"})["summaries"]] == ["s-1"]
    assert post(client, "/api/knowledge/expand/session", {"entityName": "atlas", "maxResults": 1})["total"] == 1
    assert post(client, "/api/knowledge/expand/session",
                {"entityName": "atlas", "timeRange": "2999-01-01"})["summaries"] == []
    recent = post(client, "/api/knowledge/expand/session", {"entityName": "atlas", "timeRange": "last_week"})
    assert recent["total"] == 2

    lineage = post(client, "/api/sessions/summaries/expand", {"id": summary_id, "transcriptCharLimit": 200})
    assert lineage["node"]["id"] == summary_id and lineage["node"]["sessionKey"] == "s-1" and lineage["parents"] == []
    fact = next(c for c in lineage["children"] if "Priya Sharma" in c["content"])
    assert fact["sourceId"] == summary_id and fact["type"] != "session_summary"
    session = lineage["session"]
    assert session["sessionKey"] == "s-1" and session["startedAt"] and session["endedAt"]
    assert [s["id"] for s in session["summaries"]] == [summary_id]
    assert lineage["transcript"]["content"] == TRANSCRIPT[:200] and "Atlas" in lineage["transcript"]["excerpt"]
    up = post(client, "/api/sessions/summaries/expand", {"id": fact["id"], "includeTranscript": False})
    assert [p["id"] for p in up["parents"]] == [summary_id] and up["transcript"] is None
    by_key = post(client, "/api/sessions/summaries/expand", {"id": "s-2"})
    assert by_key["node"]["sourceId"] == "s-2" and by_key["session"]["endedAt"] and by_key["transcript"]


def has(obj: dict, **fields: type | tuple) -> dict:
    """Every field is there with its JSON type (None allowed where the tuple says so)."""
    wrong = {k: obj.get(k, "<missing>") for k, t in fields.items() if k not in obj or not isinstance(obj[k], t)}
    assert not wrong, wrong
    return obj


def test_the_fields_the_reference_clients_read(client, svc):
    """The reference daemon's answers (knowledge-graph.ts, knowledge-routes.ts) as its CLI
    (`signet knowledge ...`) and MCP server read them: each field there, of its JSON type."""
    summary_id = seed_graph(client, svc)
    counts = {"aspectCount": int, "attributeCount": int, "constraintCount": int, "dependencyCount": int}
    entity = {"id": str, "name": str, "canonicalName": str, "entityType": str, "agentId": str, "pinned": bool,
              "pinnedAt": (str, type(None)), "createdAt": str, "updatedAt": str}
    item = get(client, "/api/knowledge/navigation/entities")["items"][0]
    has(has(item, entity=dict, **counts)["entity"], **entity)
    detail = has(get(client, "/api/knowledge/navigation/entity", name="atlas"), entity=dict, structuralDensity=dict,
                 incomingDependencyCount=int, outgoingDependencyCount=int, **counts)
    has(detail["structuralDensity"], **counts)
    tree = has(get(client, "/api/knowledge/navigation/tree", entity="atlas"), entity=dict, items=list, limits=dict)
    room = has(next(i for i in tree["items"] if i["groups"][0]["claims"]), aspect=dict, attributeCount=int,
               constraintCount=int, groupCount=int, claimCount=int, groups=list)
    has(room["aspect"], id=str, name=str, canonicalName=str, weight=float)
    group = has(room["groups"][0], groupKey=str, attributeCount=int, constraintCount=int, claimCount=int,
                claims=list, claimsHasMore=bool, latestUpdatedAt=(str, type(None)))
    has(group["claims"][0], claimKey=str, activeCount=int, supersededCount=int, preview=(str, type(None)))
    path = {"entity": "atlas", "aspect": "deployment", "group": "schedule"}
    has(get(client, "/api/knowledge/navigation/claims", **path), items=list, hasMore=bool, offset=int)
    attribute = get(client, "/api/knowledge/navigation/attributes", claim="deploy_day", **path)["items"][0]
    has(attribute, content=str, kind=str, status=str, confidence=float, updatedAt=str)
    expanded = has(post(client, "/api/knowledge/expand", {"entity": "atlas"}), entity=dict, constraints=list,
                   aspects=list, dependencies=list, memoryCount=int, memories=list)
    has(expanded["entity"], id=str, name=str, type=str)
    has(expanded["aspects"][0], name=str, weight=float, attributes=list)
    has(expanded["dependencies"][0], target=str, type=str, strength=float)
    has(expanded["memories"][0], id=str, content=str)
    sessions = has(post(client, "/api/knowledge/expand/session", {"entityName": "atlas"}), entityName=str,
                   summaries=list, total=int)
    has(sessions["summaries"][0], id=str, sessionKey=str, harness=str, earliestAt=str, latestAt=str, content=str)
    lineage = has(post(client, "/api/sessions/summaries/expand", {"id": summary_id}), node=dict, parents=list,
                  children=list)
    has(lineage["node"], id=str, content=str, sessionKey=str, agentId=str, createdAt=str)
    has(lineage["transcript"], sessionKey=str, updatedAt=str, excerpt=str, content=str)
