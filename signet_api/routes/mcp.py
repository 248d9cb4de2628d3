"""POST /mcp: the MCP server over Streamable HTTP (JSON responses only; no SSE stream, so GET
answers 405). The route needs an identity, checked before the body is read (any role: the spec
table says none, issue 43 asked for no anonymous parsing), and every tool call is an in-process
request to the REST API carrying the caller's Authorization, Host, peer address and identity
headers, so it is authorized exactly as the caller calling that route directly."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from signet_api import bodies
from signet_api.auth import Auth, AuthorizedRoute
from signet_api.mcp.client import CLIENT_HEADERS, rest_caller
from signet_api.mcp.protocol import (
    INVALID_REQUEST,
    MAX_BATCH,
    PARSE_ERROR,
    SUPPORTED_VERSIONS,
    McpServer,
    Unparsed,
    decode,
)
from signet_api.openapi import errors
from signet_api.route_props import declare
from signet_pipeline.auth import origins
from signet_pipeline.errors import Forbidden, InvalidRequest, SignetError

router = APIRouter(tags=["mcp"], route_class=AuthorizedRoute)
# Headers that decide who the caller is (auth.py, deps.py), passed on to each tool's REST call.
FORWARDED = ("authorization", "host", "x-signet-agent-id", "x-signet-session-key", "x-signet-actor",
             "x-signet-actor-type", "x-signet-runtime-path", "x-request-id")
NOT_LOCAL_HOST = "mcp-caller.invalid"  # a Host no auth.allowedHosts lists: stands in for a missing one

# The body as the route reads it (raw, for the JSON-RPC error replies): a request, a notification
# (no id) or a response (ignored), or a batch of them.
_PARAMS = {"method": {"type": "string"}, "params": {"type": "object"}}
MESSAGE = {"type": "object", "required": ["jsonrpc"], "properties": {"jsonrpc": {"const": "2.0"}}, "anyOf": [
    {"title": "request", "required": ["method", "id"],
     "properties": {**_PARAMS, "id": {"type": ["string", "integer"]}}},
    {"title": "notification", "required": ["method"], "not": {"required": ["id"]}, "properties": _PARAMS},
    {"title": "response", "not": {"required": ["method"]},
     "anyOf": [{"required": ["result"]}, {"required": ["error"]}]},
]}
BODY = {"requestBody": {"required": True, "content": {"application/json": {"schema": {"anyOf": [
    MESSAGE, {"type": "array", "minItems": 1, "maxItems": MAX_BATCH, "items": MESSAGE}]}}}}}
RPC_ERROR = {"type": "object", "required": ["jsonrpc", "error"], "properties": {"error": {
    "type": "object", "required": ["code", "message"],
    "properties": {"code": {"type": "integer"}, "message": {"type": "string"}}}}}
ANSWERS: dict[int | str, dict[str, Any]] = {
    202: {"description": "only notifications or responses: nothing to answer"},
    400: {"description": "not JSON-RPC 2.0 (a JSON-RPC error), or an unsupported MCP-Protocol-Version",
          "content": {"application/json": {"schema": {"anyOf": [
              {"$ref": "#/components/schemas/ErrorBody"}, RPC_ERROR, {"type": "array", "items": {}}]}}}},
    **errors(415),
}


@router.post("/mcp", summary="MCP server (Streamable HTTP): JSON-RPC 2.0 in, JSON out", responses=ANSWERS,
             openapi_extra=BODY)
# Any identity may call it (each tool call is authorized again as its REST route); an anonymous
# team-mode caller is refused before its body is read.
@declare("recall")
async def mcp_route(request: Request) -> Response:
    _check_origin(request)
    version = request.headers.get("mcp-protocol-version")
    if version and version not in SUPPORTED_VERSIONS:
        raise InvalidRequest(f"unsupported MCP-Protocol-Version {version!r} "
                             f"(supported: {', '.join(SUPPORTED_VERSIONS)})",
                             code="unsupported_protocol_version")
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        # Also what keeps a web page's no-preflight cross-origin POST (text/plain) out in local mode.
        raise SignetError("POST /mcp takes application/json", code="unsupported_media_type", status=415)
    raw = await request.body()  # bounded by limits.maxBodyBytes (signet_api/middleware.py)
    reply: dict[str, Any] | list[dict[str, Any]] | None
    try:  # a large body parses on a worker thread, never on the event loop (signet_api/bodies.py)
        payload = await run_in_threadpool(decode, raw) if len(raw) > bodies.PARSE_INLINE_BYTES else decode(raw)
    except Unparsed as exc:
        reply = exc.reply
    else:
        async with _in_process_client(request) as client:
            reply = await McpServer(rest_caller(client)).handle(payload)
    if reply is None:
        return Response(status_code=202)  # only notifications or responses: nothing to answer
    replies = reply if isinstance(reply, list) else [reply]
    return JSONResponse(reply, status_code=400 if any(map(_unreadable, replies)) else 200)


def _unreadable(reply: dict) -> bool:
    """A reply to something that is not a JSON-RPC message: the request is refused (400), even when
    other messages of its batch were answered (their replies are in the body)."""
    return reply.get("error", {}).get("code") in (PARSE_ERROR, INVALID_REQUEST)


def _check_origin(request: Request) -> None:
    """Streamable HTTP servers must check Origin (DNS rebinding, pages posting to localhost): a
    browser's request is served only from the names the host guard accepts."""
    origin = request.headers.get("origin")
    if origin is None:
        return
    auth: Auth = request.app.state.auth
    if origins.origin_host(origin) not in auth.local_hosts:
        raise Forbidden(f"origin {origin!r} is not allowed (auth.allowedHosts)", code="origin_not_allowed")


def _in_process_client(request: Request) -> httpx.AsyncClient:
    """A client that calls this app in-process as the original caller: same peer address (hybrid
    mode trusts loopback peers only, so a remote caller stays remote), same Host (the local-name
    guard), same token and identity headers."""
    headers = {**CLIENT_HEADERS, **{name: request.headers[name] for name in FORWARDED if name in request.headers}}
    headers.setdefault("host", NOT_LOCAL_HOST)
    peer = (request.client.host, request.client.port) if request.client else ("unknown", 0)
    transport = httpx.ASGITransport(app=request.app, raise_app_exceptions=False, client=peer)
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1", headers=headers)
