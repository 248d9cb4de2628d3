"""Input that no store can keep (a lone UTF-16 surrogate, an integer past 64 bits) is a 4xx with
a code on every route, never a 500: the cases found by hand, then every JSON-body route of the
OpenAPI schema walked with such a value in every field, then hypothesis over the strings the
surrogate check reads. The schema says the integer bounds (schemathesis holds the API to them)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from signet_pipeline.request_rules import SAFE_INTEGERS, lone_surrogate

SURROGATE = "note \ud800 here"
HUGE = 2 ** 63


def post(client, path: str, body: dict):
    # json.dumps escapes the surrogate as \ud800: valid JSON, as a client would send it.
    return client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})


@pytest.mark.parametrize("path, body", [
    ("/api/hooks/skill-invocation", {"harness": "opencode", "skillName": "review", "sessionId": "s",
                                     "toolUseId": "t1", "latencyMs": HUGE}),
    ("/api/hooks/skill-invocation", {"harness": "opencode", "skillName": "review", "sessionId": "s",
                                     "toolUseId": "t2", "success": False, "errorText": SURROGATE}),
    ("/api/hooks/session-end", {"harness": "claude-code", "sessionKey": "s1", "transcript": SURROGATE}),
    ("/api/hooks/session-checkpoint-extract", {"harness": "openclaw", "sessionKey": "s2", "transcript": SURROGATE}),
    ("/api/memory/remember", {"content": SURROGATE}),
    ("/api/memory/recall", {"query": "key", "limit": -HUGE - 1}),
])
def test_the_cases_found_are_refused_with_a_code(client, path, body):
    answer = post(client, path, body)
    assert answer.status_code in (400, 422), answer.text
    payload = answer.json()
    code = payload["code"] if path.startswith("/api/hooks/") else payload["error"]["code"]
    assert code == "invalid_request"


def _value(schema: dict, components: dict, depth: int = 0):
    """A value of the schema's shape holding the unstorable thing wherever it can."""
    if "$ref" in schema:
        return _value(components[schema["$ref"].rsplit("/", 1)[-1]], components, depth)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            options = [o for o in schema[key] if o.get("type") != "null"]
            return _value(options[0], components, depth) if options else None
    kind = schema.get("type")
    if kind == "string":
        return SURROGATE
    if kind == "integer":
        return HUGE
    if kind == "number":
        return 0.5
    if kind == "boolean":
        return True
    if kind == "array":
        return [_value(schema.get("items", {"type": "string"}), components, depth + 1)] if depth < 4 else []
    if kind == "object" or "properties" in schema:
        if depth >= 4:
            return {}
        return {name: _value(prop, components, depth + 1) for name, prop in schema.get("properties", {}).items()}
    return SURROGATE


def json_routes(client):
    schema = client.get("/openapi.json").json()
    components = schema["components"]["schemas"]
    for path, item in schema["paths"].items():
        for method, op in item.items():
            content = op.get("requestBody", {}).get("content", {}).get("application/json")
            if content and "{" not in path:
                yield method.upper(), path, _value(content["schema"], components)


def test_every_json_route_refuses_unstorable_values_without_a_500(client):
    answered = 0
    for method, path, body in json_routes(client):
        for variant in (body, {k: v for k, v in body.items() if isinstance(v, int) and not isinstance(v, bool)}
                        if isinstance(body, dict) else body):
            answer = client.request(method, path, content=json.dumps(variant),
                                    headers={"content-type": "application/json"})
            assert answer.status_code < 500, (method, path, answer.status_code, answer.text[:300])
            answered += 1
    assert answered > 40


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_the_surrogate_check_finds_exactly_the_strings_that_are_no_text(value):
    def bad(node) -> bool:
        if isinstance(node, str):
            return any(0xD800 <= ord(c) <= 0xDFFF for c in node)
        if isinstance(node, list):
            return any(bad(v) for v in node)
        if isinstance(node, dict):
            return any(bad(k) or bad(v) for k, v in node.items())
        return False

    assert (lone_surrogate(value) is not None) == bad(value)


def test_every_integer_a_request_takes_is_bounded_in_the_schema(client):
    schema = client.get("/openapi.json").json()
    components = schema["components"]["schemas"]
    unbounded = []

    def walk(node, where):
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(components[node["$ref"].rsplit("/", 1)[-1]], where)
            if node.get("type") == "integer" and not (SAFE_INTEGERS[0] <= node.get("minimum", -2 ** 70) and
                                                      node.get("maximum", 2 ** 70) <= SAFE_INTEGERS[1]):
                unbounded.append(where)
            for key, child in node.items():
                walk(child, f"{where}.{key}")
        elif isinstance(node, list):
            for i, child in enumerate(node):
                walk(child, f"{where}[{i}]")

    for path, item in schema["paths"].items():
        for method, op in item.items():
            if path == "/mcp":
                continue  # JSON-RPC ids are echoed, never stored: any integer JSON has
            walk(op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {}),
                 f"{method} {path}")
            for parameter in op.get("parameters", []):
                walk(parameter.get("schema", {}), f"{method} {path} ?{parameter['name']}")
    assert unbounded == []
