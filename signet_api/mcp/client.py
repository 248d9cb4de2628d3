"""The REST side of a tool call, shared by both transports: an httpx client (over the network to
the daemon, or in-process through ASGI) turned into the dispatcher's `call_api`."""

from __future__ import annotations

import httpx

from signet_api.mcp.protocol import ApiResponse, CallApi
from signet_api.mcp.tool import ApiRequest

# What the reference MCP server sends (wire contract "Headers clients send").
CLIENT_HEADERS = {"x-signet-runtime-path": "plugin", "x-signet-actor": "mcp-server", "x-signet-actor-type": "harness"}


def rest_caller(client: httpx.AsyncClient) -> CallApi:
    async def call(req: ApiRequest) -> ApiResponse:
        response = await client.request(req.method, req.path, params=req.params, json=req.json)
        try:
            body = response.json()
        except ValueError:
            body = response.text
        return ApiResponse(response.status_code, body)

    return call
