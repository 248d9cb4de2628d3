"""Calling the MCP endpoint (POST /mcp) as an agent's client does: JSON-RPC, and tools/call."""

import json


def rpc(client, method, params=None, *, id=1, headers=None, expect=200):
    response = client.post("/mcp", json={"jsonrpc": "2.0", "id": id, "method": method, "params": params or {}},
                           headers=headers)
    assert response.status_code == expect, response.text
    return response.json()


def call(client, name, arguments=None, **kw):
    """tools/call -> (isError, the text: parsed JSON on success)."""
    result = rpc(client, "tools/call", {"name": name, "arguments": arguments or {}}, **kw)["result"]
    text = result["content"][0]["text"]
    return result["isError"], (text if result["isError"] else json.loads(text))


def ok(client, name, arguments=None, **kw):
    failed, body = call(client, name, arguments, **kw)
    assert not failed, body
    return body
