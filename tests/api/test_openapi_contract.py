"""What the schema fuzz (tests/api/test_openapi_fuzz.py) found, one case each: the OpenAPI schema and
the API agree on statuses, error bodies, Allow, JSON types, timestamps and required fields."""

from __future__ import annotations

import json

import pytest

from tests.conftest import remember


def operation(client, method: str, path: str) -> dict:
    return client.app.openapi()["paths"][path][method]


def test_every_status_an_operation_answers_is_documented_with_the_body_sent(client):
    answer = client.get("/api/memory/nope")
    documented = operation(client, "get", "/api/memory/{memory_id}")["responses"]
    assert answer.status_code == 404 and "404" in documented
    assert documented["404"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
    assert set(answer.json()["error"]) >= {"code", "message"}
    hook = operation(client, "post", "/api/hooks/session-start")["responses"]
    assert "422" not in hook and hook["400"]["content"]["application/json"]["schema"]["$ref"].endswith("HookErrorBody")
    assert client.post("/api/hooks/session-start", json={}).json() == {"error": "harness is required",
                                                                       "code": "missing_harness"}
    writes = operation(client, "post", "/api/memory/remember")["responses"]
    assert {"400", "401", "403", "413", "422", "503"} <= writes.keys()
    assert "429" in operation(client, "delete", "/api/memory/{memory_id}")["responses"]  # rate-limited outside local
    schemas = client.app.openapi()["components"]["schemas"]
    assert "HTTPValidationError" not in schemas  # FastAPI's {"detail": [...]}, which no route sends


@pytest.mark.parametrize("method, path, allow", [
    ("OPTIONS", "/api/connectors", "GET, POST"),  # Starlette named the first route's methods only: GET
    ("OPTIONS", "/api/memory/some-id", "DELETE, GET, PATCH"),
    ("GET", "/api/memory/feedback", "POST"),  # was a lookup of the memory "feedback"
    ("POST", "/api/repair/dedup-stats", "GET"),  # was the repair action "dedup-stats" (404)
])
def test_a_405_lists_every_method_of_the_path(client, method, path, allow):
    answer = client.request(method, path)
    assert answer.status_code == 405 and answer.headers["allow"] == allow
    assert answer.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.parametrize("path, body", [
    ("/api/memory/forget", {"mode": "preview", "query": "x", "force": 0}),  # a number for a boolean
    ("/api/memory/recall", {"query": "x", "aggregate": "true"}),  # a string for a boolean
    ("/api/memory/recall", {"query": "x", "limit": "5"}),  # a string for an integer
    ("/api/memory/remember", {"content": "x", "importance": True}),  # a boolean for a number
    ("/api/memory/remember", {"content": "x", "tags": [""] * 51}),  # more tags than the schema's maxItems
    ("/api/memory/recall", {"query": "x", "since": "2024-01-01T10"}),  # not the ISO 8601 forms the schema states
    ("/api/memory/recall", {"query": "x", "type": {}}),
])
def test_json_the_schema_refuses_is_refused(client, path, body):
    answer = client.post(path, json=body)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_request", answer.text


def test_what_the_schema_allows_is_accepted(client):
    assert client.post("/api/memory/recall", json={"query": "x", "limit": 5.0, "since": "2024-01-01T10:00:00+02:00",
                                                   "until": "2030-01-01"}).status_code == 200
    assert client.post("/api/memory/remember", json={"content": "Blue deploys on Fridays",
                                                     "tags": "ops, deploy"}).status_code == 200
    assert client.get("/api/telemetry/events", params={"since": "2024-01-01"}).status_code == 200
    assert client.get("/api/telemetry/events", params={"since": "last week"}).status_code == 422


def test_required_fields_are_declared_required(client):
    schemas = client.app.openapi()["components"]["schemas"]
    assert "harness" in schemas["SessionStartRequest"]["required"]
    assert "harness" in schemas["HookRememberRequest"]["required"]
    assert {"harness", "summary"} <= set(schemas["CompactionCompleteRequest"]["required"])
    reason = [p for p in operation(client, "delete", "/api/memory/{memory_id}")["parameters"] if p["name"] == "reason"]
    assert reason and reason[0]["required"] is True
    confirm = [p for p in operation(client, "post", "/api/connectors/{connector_id}/sync/full")["parameters"]
               if p["name"] == "confirm"]
    assert confirm == [{"name": "confirm", "in": "query", "required": True, "schema": {"const": True},
                        "description": confirm[0]["description"]}]


def test_delete_still_takes_its_reason_from_the_body(client):
    memory = remember(client, "The staging box moves to Frankfurt")
    assert client.request("DELETE", f"/api/memory/{memory['id']}", json={"reason": "moved"}).status_code == 200


def test_mcp_takes_a_whole_number_id_and_refuses_a_malformed_notification(client):
    ping = client.post("/mcp", json={"jsonrpc": "2.0", "id": 7.0, "method": "ping"})
    assert ping.status_code == 200 and ping.json() == {"jsonrpc": "2.0", "id": 7, "result": {}}
    bad = client.post("/mcp", json={"jsonrpc": "2.0", "method": 5})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == -32600


def test_a_memory_md_of_the_largest_size_allowed_fits_in_a_request(client):
    body = json.dumps({"content": "\U0001F600" * 200_000})  # 12 bytes each (\ud83d\ude00): 2.4 MB, over 1 MiB
    answer = client.post("/api/hooks/synthesis/complete", content=body, headers={"content-type": "application/json"})
    assert answer.json() == {"success": True}


@pytest.mark.parametrize("method", ["patch", "delete"])
def test_patch_and_delete_declare_the_success_their_answers_carry(client, method):
    """The OpenCode and OpenClaw tools read `success`; a generated client reads the schema."""
    ref = operation(client, method, "/api/memory/{memory_id}")["responses"]["200"]["content"]["application/json"]
    name = ref["schema"]["$ref"].rsplit("/", 1)[1]
    declared = client.app.openapi()["components"]["schemas"][name]["properties"]
    assert {"success", "id", "status"} <= declared.keys()
    memory = remember(client, "The staging box moves to Frankfurt")
    if method == "patch":
        answer = client.patch(f"/api/memory/{memory['id']}", json={"content": "It moves to Paris", "reason": "r"})
    else:
        answer = client.delete(f"/api/memory/{memory['id']}", params={"reason": "moved"})
    body = answer.json()
    assert answer.status_code == 200 and body["success"] is True and set(body) <= declared.keys()
    assert None not in body.values()  # unset fields are left out, as before


def test_rules_across_fields_are_said_where_clients_read_the_schema(client):
    """What schema fuzzing found refused although the schema allowed it (issue 43): each such rule
    is in its field's description."""
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    said = {
        ("RememberRequest", "validUntil"): "after validFrom",
        ("TimeRange", "end"): "after start",
        ("ConnectorRequest", "settings.rootPath"): "connectors.allowedRoots",
    }
    for (name, field), rule in said.items():
        node = schemas[name]
        for part in field.split("."):
            node = node["properties"][part]
            node = schemas[node["$ref"].rsplit("/", 1)[-1]] if "$ref" in node else node
        assert rule in node.get("description", ""), (name, field, node.get("description"))
