"""MCP: JSON-RPC over POST /mcp against the real app (tools, protocol errors, batches), auth of
tool calls as the caller (team tokens, hybrid peers), `signet mcp` on stdio against a live server,
and POST /api/memory/feedback."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_api.mcp.protocol import LATEST_VERSION
from signet_api.mcp.stdio import daemon_headers, daemon_url
from signet_api.mcp.tools import TOOLS
from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret
from signet_pipeline.store import feedback as feedback_store
from tests.api.mcp_calls import call, ok, rpc
from tests.conftest import remember
from tests.live_server import LiveServer

TOOL_NAMES = {"memory_search", "memory_store", "memory_get", "memory_list", "memory_modify", "memory_forget",
              "memory_feedback", "knowledge_entities", "knowledge_constellation", "knowledge_tree",
              "knowledge_list_entities", "knowledge_get_entity", "knowledge_list_aspects", "knowledge_list_groups",
              "knowledge_list_claims", "knowledge_list_attributes", "knowledge_expand", "knowledge_expand_session",
              "lcm_expand", "session_search"}


def test_initialize_negotiates_the_version_and_tools_list_describes_every_tool(client):
    init = rpc(client, "initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                                      "clientInfo": {"name": "t", "version": "1"}})["result"]
    assert init["protocolVersion"] == "2025-03-26" and init["capabilities"] == {"tools": {"listChanged": False}}
    assert init["serverInfo"]["name"] == "signet" and init["serverInfo"]["version"]
    assert rpc(client, "initialize", {"protocolVersion": "1999-01-01"})["result"]["protocolVersion"] == LATEST_VERSION
    assert rpc(client, "ping") == {"jsonrpc": "2.0", "id": 1, "result": {}}
    tools = rpc(client, "tools/list")["result"]["tools"]
    assert {t["name"] for t in tools} == TOOL_NAMES
    for tool in tools:
        schema = tool["inputSchema"]
        assert tool["description"] and schema["type"] == "object" and "properties" in schema, tool
        assert "title" not in json.dumps(schema["properties"]).replace('"title":', "")  # no generated titles
    search = next(t for t in tools if t["name"] == "memory_search")["inputSchema"]
    assert search["required"] == ["query"] and search["properties"]["limit"]["maximum"] == 200
    assert {"keywordQuery", "tags", "who", "project", "since", "until"} <= set(search["properties"])
    store = next(t for t in tools if t["name"] == "memory_store")["inputSchema"]
    assert store["properties"]["content"]["maxLength"] == 100_000 and store["properties"]["type"]["pattern"]


# What Anthropic, OpenAI (and Azure OpenAI) and Gemini take as a tool's input schema: an object at
# the top with no combinator there (Anthropic answers 400 for the whole request otherwise, so every
# tool breaks, not one), and no reference or conditional keyword anywhere (Gemini's subset has none).
TOP_LEVEL = {"type", "properties", "required", "additionalProperties", "description"}
NOWHERE = {"$ref", "$defs", "definitions", "allOf", "oneOf", "not", "if", "then", "else", "const",
           "dependentRequired", "dependentSchemas", "patternProperties"}


def _keywords(schema) -> set[str]:
    if isinstance(schema, list):
        return set().union(*(_keywords(s) for s in schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    found = set(schema) - {"properties"}
    for name, value in schema.items():
        found |= set().union(*(_keywords(p) for p in value.values())) if name == "properties" else _keywords(value)
    return found


def test_every_tool_schema_is_one_the_model_apis_accept(client):
    tools = rpc(client, "tools/list")["result"]["tools"]
    for tool in tools:
        schema = tool["inputSchema"]
        assert schema["type"] == "object" and set(schema) <= TOP_LEVEL, (tool["name"], set(schema) - TOP_LEVEL)
        assert not _keywords(schema) & NOWHERE, (tool["name"], _keywords(schema) & NOWHERE)
    store = next(t for t in tools if t["name"] == "memory_store")["inputSchema"]
    entities = store["properties"]["structured"]["properties"]["entities"]  # the nested model, written out
    assert entities["items"]["properties"]["source"]["type"] == "string"
    # memory_feedback's rules across fields are checked when it is called
    for arguments, missing in (({"memory_id": "m1"}, "feedback_type"),
                               ({"memory_id": "m1", "feedback_type": "correction"}, "correction_text")):
        error = rpc(client, "tools/call", {"name": "memory_feedback", "arguments": arguments})["error"]
        assert error["code"] == -32602 and missing in json.dumps(error), error


def test_memory_tools_round_trip(client, svc):
    saved = ok(client, "memory_store", {"content": "The Atlas deploy runs every Friday at 16:00", "tags": ["ops"],
                                        "importance": 0.7})
    memory_id = saved["id"]
    found = ok(client, "memory_search", {"query": "when does the Atlas deploy run", "limit": 5})
    assert found["results"][0]["id"] == memory_id
    got = ok(client, "memory_get", {"id": memory_id})
    assert got["content"].startswith("The Atlas deploy") and got["tags"] == "ops"
    patched = ok(client, "memory_modify", {"id": memory_id, "reason": "moved", "if_version": got["version"],
                                           "content": "The Atlas deploy runs every Thursday at 16:00"})
    assert patched["newVersion"] == got["version"] + 1
    stale = call(client, "memory_modify", {"id": memory_id, "reason": "x", "importance": 0.2,
                                           "if_version": got["version"]})
    assert stale[0] and "409" in stale[1] and "version_conflict" in stale[1]
    listing = ok(client, "memory_list", {"limit": 5})
    assert [m["id"] for m in listing["memories"]] == [memory_id] and listing["stats"]
    fed = ok(client, "memory_feedback", {"memory_id": memory_id, "feedback_type": "correction",
                                         "correction_text": "It moved to Thursdays", "session_id": "s-1"})
    assert fed["success"] is True
    row = feedback_store.for_memory(svc.db.reader(), memory_id)[0]
    assert (row["id"], row["feedback_type"], row["correction_text"], row["session_id"], row["actor"]) == \
        (fed["id"], "correction", "It moved to Thursdays", "s-1", "mcp-server")
    entities = ok(client, "knowledge_entities", {"query": "atlas"})
    assert entities["entities"][0]["canonicalName"] == "atlas"
    assert any(e["canonicalName"] == "atlas" for e in ok(client, "knowledge_constellation")["entities"])
    assert ok(client, "memory_forget", {"id": memory_id, "reason": "obsolete"})["status"] == "deleted"
    gone = call(client, "memory_get", {"id": memory_id})
    assert gone[0] and "HTTP 404 not_found" in gone[1]


def test_protocol_errors(client):
    assert rpc(client, "resources/list")["error"]["code"] == -32601
    malformed = client.post("/mcp", content=b'{"jsonrpc": "2.0", "id": 1,',
                            headers={"content-type": "application/json"})
    assert malformed.status_code == 400 and malformed.json()["error"]["code"] == -32700
    not_rpc = client.post("/mcp", json={"id": 3, "method": "ping"})
    assert not_rpc.status_code == 400
    assert not_rpc.json() == {"jsonrpc": "2.0", "id": 3, "error": not_rpc.json()["error"]}
    assert not_rpc.json()["error"]["code"] == -32600
    assert rpc(client, "ping", id=True, expect=400)["error"]["code"] == -32600  # a boolean is no id
    unknown = rpc(client, "tools/call", {"name": "memory_teleport", "arguments": {}})
    assert unknown["error"]["code"] == -32602 and "memory_teleport" in unknown["error"]["message"]
    for bad in ({}, {"query": ""}, {"query": "x", "limit": 0}, {"query": "x", "colour": "red"}):
        error = rpc(client, "tools/call", {"name": "memory_search", "arguments": bad})["error"]
        assert error["code"] == -32602, bad
    no_change = rpc(client, "tools/call", {"name": "memory_modify", "arguments": {"id": "x", "reason": "r"}})
    assert no_change["error"]["code"] == -32602 and "at least one" in no_change["error"]["message"]
    no_text = rpc(client, "tools/call", {"name": "memory_feedback",
                                         "arguments": {"memory_id": "x", "feedback_type": "correction"}})
    assert no_text["error"]["code"] == -32602
    missing = call(client, "memory_feedback", {"memory_id": "nope", "feedback_type": "positive"})
    assert missing == (True, "memory_feedback failed: HTTP 404 not_found: memory nope not found")


def test_notifications_batches_and_the_http_rules(client, svc):
    note = client.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert note.status_code == 202 and note.content == b""
    batch = client.post("/mcp", json=[
        {"jsonrpc": "2.0", "id": "a", "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "memory_store", "arguments": {"content": "Batches store memories too"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "nope"},
    ])
    replies = {r["id"]: r for r in batch.json()}
    assert batch.status_code == 200 and set(replies) == {"a", 2, 3}
    assert replies["a"]["result"] == {} and replies[2]["result"]["isError"] is False
    assert replies[3]["error"]["code"] == -32601
    assert client.post("/mcp", json=[]).json()["error"]["code"] == -32600
    assert client.post("/mcp", json=[{"jsonrpc": "2.0", "method": "notifications/x"}]).status_code == 202
    get = client.get("/mcp")
    assert get.status_code == 405 and "POST" in get.headers["allow"]
    text = client.post("/mcp", content=b'{"jsonrpc":"2.0","id":1,"method":"ping"}',
                       headers={"content-type": "text/plain"})
    assert text.status_code == 415  # a web page's no-preflight POST never reaches the tools
    evil = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers={"origin": "https://evil.example"})
    assert evil.status_code == 403 and evil.json()["error"]["code"] == "origin_not_allowed"
    assert rpc(client, "ping", headers={"origin": "http://localhost:5173"})["result"] == {}
    old = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                      headers={"mcp-protocol-version": "1.0"})
    assert old.status_code == 400 and old.json()["error"]["code"] == "unsupported_protocol_version"


@pytest.fixture
def team(make_service):
    svc = make_service(auth={"mode": "team"})
    secret = load_or_create_secret(svc.settings.auth_secret_path)

    def token(role, sub="tester", **scope):
        return {"authorization": f"Bearer {issue(secret, sub=sub, role=role, scope=TokenScope(**scope), ttl_s=600)[0]}"}

    with TestClient(create_app(service=svc)) as client:
        yield client, token


def test_team_mode_tool_calls_are_authorized_as_the_caller(team):
    client, token = team
    # An anonymous caller is refused before its body is read (issue 43): not even initialize
    anonymous = rpc(client, "initialize", {"protocolVersion": "2025-06-18"}, expect=401)
    assert anonymous["error"]["code"] == "token_required"
    readonly = token("readonly")
    init = rpc(client, "initialize", {"protocolVersion": "2025-06-18"}, headers=readonly)
    assert init["result"]["serverInfo"]["name"] == "signet"
    assert "results" in ok(client, "memory_search", {"query": "anything"}, headers=readonly)
    denied = call(client, "memory_store", {"content": "Readers cannot write"}, headers=readonly)
    assert denied[0] and "403" in denied[1] and "permission_denied" in denied[1]
    bot = {**token("agent", sub="bot"), "x-signet-agent-id": "someone-else", "x-signet-actor": "someone-else"}
    saved = ok(client, "memory_store", {"content": "Bot keeps the build cache warm"}, headers=bot)
    memory = client.get(f"/api/memory/{saved['id']}", headers=token("admin")).json()
    assert memory["agent_id"] == "bot" and memory["updated_by"] == "bot"  # identity from the token, not headers
    fed = call(client, "memory_feedback", {"memory_id": saved["id"], "feedback_type": "positive"}, headers=readonly)
    assert fed[0] and "permission_denied" in fed[1]
    # A project-scoped token cannot rate (or probe for) memories outside its project.
    elsewhere = ok(client, "memory_store", {"content": "The Zephyr project ships on Fridays", "project": "zephyr"},
                   headers=token("admin"))
    scoped = token("agent", sub="bot", project="orion")
    outside = call(client, "memory_feedback", {"memory_id": elsewhere["id"], "feedback_type": "negative"},
                   headers=scoped)
    assert outside[0] and "404" in outside[1]
    assert ok(client, "memory_feedback", {"memory_id": elsewhere["id"], "feedback_type": "negative"},
              headers=token("agent", sub="bot"))["recorded"] == 1  # the same agent without the project scope
    forged = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                         headers={"authorization": "Bearer forged.token"})
    assert forged.status_code == 401  # a bad token is refused at the door, as on every route


def test_hybrid_mode_a_remote_caller_does_not_become_local_through_mcp(make_service):
    app = create_app(service=make_service(auth={"mode": "hybrid"}))
    with TestClient(app, client=("127.0.0.1", 50000)) as local, TestClient(app, client=("10.1.2.3", 50000)) as remote:
        assert "memories" in ok(local, "memory_list")
        refused = rpc(remote, "tools/call", {"name": "memory_list"}, expect=401)
        assert refused["error"]["code"] == "token_required"
        # A loopback peer naming a foreign host (DNS rebinding) is refused at the door, as on every route.
        foreign = rpc(local, "tools/call", {"name": "memory_list"}, headers={"host": "evil.example"}, expect=403)
        assert foreign["error"]["code"] == "host_not_allowed"


def test_feedback_endpoint(client, svc):
    shared = remember(client, "The staging database is Postgres 16")
    private = remember(client, "Alice keeps her notes in Obsidian", agentId="alice", visibility="private")
    saved = client.post("/api/memory/feedback", json={"memoryId": shared["id"], "feedbackType": "positive"},
                        headers={"x-signet-session-key": "sess-9", "x-signet-actor": "claude"})
    assert saved.status_code == 200 and saved.json()["success"] is True
    row = feedback_store.for_memory(svc.db.reader(), shared["id"])[0]
    assert (row["session_id"], row["actor"], row["agent_id"], row["correction_text"]) == ("sess-9", "claude",
                                                                                          "default", None)
    for memory_id, agent in (("no-such-id", "default"), (private["id"], "bob")):
        missing = client.post("/api/memory/feedback", json={"memory_id": memory_id, "feedback_type": "negative"},
                              headers={"x-signet-agent-id": agent})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    mine = client.post("/api/memory/feedback", json={"memory_id": private["id"], "feedback_type": "negative"},
                       headers={"x-signet-agent-id": "alice"})
    assert mine.status_code == 200
    for body in ({"memory_id": shared["id"], "feedback_type": "meh"},
                 {"memory_id": shared["id"], "feedback_type": "correction"},
                 {"memory_id": shared["id"], "feedback_type": "correction", "correction_text": "   "},
                 {"memory_id": shared["id"], "feedback_type": "correction", "correction_text": "x" * 10_001},
                 {"feedback_type": "positive"}):
        bad = client.post("/api/memory/feedback", json=body)
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request", body
    # The reference clients' shape: a ratings map, unknown / unreadable ids and unused (0) ones ignored.
    unused = remember(client, "The CI runners use Ubuntu 24.04")
    rated = client.post("/api/memory/feedback", json={
        "sessionKey": "sess-10", "agentId": "default",
        "feedback": {shared["id"]: 0.8, private["id"]: -1, "no-such-id": 0.5, unused["id"]: 0}})
    counts = {k: v for k, v in rated.json().items() if k != "aspectsUpdated"}  # aspects: test_session_feedback
    assert rated.status_code == 200 and counts == {"success": True, "ok": True, "recorded": 1, "ignored": 3}
    row = feedback_store.for_memory(svc.db.reader(), shared["id"])[0]
    assert (row["feedback_type"], row["score"], row["session_id"]) == ("positive", 0.8, "sess-10")
    for body in ({"feedback": {shared["id"]: 1.5}}, {"feedback": {shared["id"]: 1}, "memory_id": shared["id"]},
                 {"feedback": {f"m{i}": 1 for i in range(201)}}):
        bad = client.post("/api/memory/feedback", json=body)
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_request", body
    client.delete(f"/api/memory/{shared['id']}", params={"reason": "test"})
    deleted = client.post("/api/memory/feedback", json={"memory_id": shared["id"], "feedback_type": "positive"})
    assert deleted.status_code == 404


def test_daemon_url_and_headers_come_from_the_environment():
    assert daemon_url({}) == "http://localhost:3850"
    assert daemon_url({"SIGNET_HOST": "10.0.0.5", "SIGNET_PORT": "4000"}) == "http://10.0.0.5:4000"
    assert daemon_url({"SIGNET_HOST": "::1"}) == "http://[::1]:3850"
    assert daemon_url({"SIGNET_DAEMON_URL": "https://mem.example/", "SIGNET_HOST": "x"}) == "https://mem.example"
    headers = daemon_headers({"SIGNET_TOKEN": "t1"})
    assert headers["authorization"] == "Bearer t1" and headers["x-signet-actor"] == "mcp-server"
    assert headers["x-signet-runtime-path"] == "plugin" and headers["x-signet-actor-type"] == "harness"
    assert daemon_headers({"SIGNET_API_KEY": "k", "SIGNET_TOKEN": "t"})["authorization"] == "Bearer k"
    assert "authorization" not in daemon_headers({})


def test_signet_mcp_over_stdio_against_a_live_server(svc):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIGNET_")}
    with LiveServer(create_app(service=svc)) as server:
        env["SIGNET_DAEMON_URL"] = server.url
        proc = subprocess.Popen([sys.executable, "-m", "signet_cli", "mcp"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()

        def send(message: dict) -> dict | None:
            proc.stdin.write(json.dumps(message).encode() + b"\n")
            proc.stdin.flush()
            if "id" not in message:
                return None
            reply = json.loads(lines.get(timeout=60))
            assert reply["id"] == message["id"], reply
            return reply

        try:
            init = send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"protocolVersion": "2024-11-05", "capabilities": {},
                                    "clientInfo": {"name": "test", "version": "0"}}})
            assert init["result"]["protocolVersion"] == "2024-11-05"
            send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            assert len(send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})["result"]["tools"]) == len(TOOLS)
            stored = send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
                "name": "memory_store", "arguments": {"content": "Stdio stores reach the daemon"}}})["result"]
            assert stored["isError"] is False
            memory_id = json.loads(stored["content"][0]["text"])["id"]
            found = send({"jsonrpc": "2.0", "id": "4", "method": "tools/call", "params": {
                "name": "memory_search", "arguments": {"query": "stdio daemon"}}})["result"]
            assert json.loads(found["content"][0]["text"])["results"][0]["id"] == memory_id
            missing = send({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
                "name": "memory_get", "arguments": {"id": "nope"}}})["result"]
            assert missing["isError"] is True and "404" in missing["content"][0]["text"]
            assert send({"jsonrpc": "2.0", "id": 6, "method": "nope"})["error"]["code"] == -32601
            proc.stdin.write(b"{not json\n")
            proc.stdin.flush()
            assert json.loads(lines.get(timeout=60))["error"]["code"] == -32700
        finally:
            proc.stdin.close()
            proc.wait(timeout=30)
            stderr = proc.stderr.read().decode()
        assert proc.returncode == 0, stderr
        row = svc.db.reader().execute("SELECT who, updated_by FROM memories WHERE id = ?", (memory_id,)).fetchone()
        assert row[1] == "mcp-server"  # the stdio process's actor header
