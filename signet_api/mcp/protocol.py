"""MCP over JSON-RPC 2.0, transport-agnostic: `McpServer.handle_bytes` takes one message (or a
batch) and returns the reply, or None when nothing is owed (notifications). Tools run through
an async "call the REST API" function the transport supplies, so the stdio process and the
/mcp route share everything here and the API's own auth applies to every tool call."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from signet_api.mcp.tool import ApiRequest
from signet_api.mcp.tools import TOOLS
from signet_pipeline import __version__
from signet_pipeline.request_rules import lone_surrogate

log = logging.getLogger("signet.mcp")

SUPPORTED_VERSIONS = ("2025-06-18", "2025-03-26", "2024-11-05")  # newest first
LATEST_VERSION = SUPPORTED_VERSIONS[0]
MAX_BATCH = 100
MAX_ERROR_TEXT = 2000
INSTRUCTIONS = ("Signet is your long-term memory across sessions. Search it (memory_search) before answering "
                "questions about earlier work, decisions or preferences; go deeper with knowledge_expand (a person, "
                "project or system), knowledge_tree (what the graph holds about it), knowledge_expand_session and "
                "lcm_expand (the sessions behind it) or session_search (past transcripts); store durable facts, "
                "decisions and preferences (memory_store); fix or remove wrong ones (memory_modify, memory_forget).")

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32601, -32602, -32603


@dataclass(frozen=True)
class ApiResponse:
    status: int
    body: Any  # the parsed JSON, or the text when the body is not JSON


CallApi = Callable[[ApiRequest], Awaitable[ApiResponse]]


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: Any = None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data

    def body(self, request_id: Any) -> dict[str, Any]:
        error = {"code": self.code, "message": self.message, **({"data": self.data} if self.data is not None else {})}
        return {"jsonrpc": "2.0", "id": request_id, "error": error}


def error_reply(code: int, message: str, request_id: Any = None) -> dict[str, Any]:
    return RpcError(code, message).body(request_id)


def negotiate(requested: Any) -> str:
    """The client's protocol version when we speak it, else our latest (the client then decides)."""
    return requested if requested in SUPPORTED_VERSIONS else LATEST_VERSION


class Unparsed(Exception):
    """A body that is not JSON: `reply` is the JSON-RPC parse error to answer."""

    def __init__(self, reply: dict[str, Any]):
        super().__init__(reply["error"]["message"])
        self.reply = reply


def decode(raw: bytes | str) -> Any:
    """The message(s), or Unparsed: not JSON, or holding a string no UTF-8 reply can echo (a lone
    surrogate: signet_api/bodies.py)."""
    try:
        payload = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError; RecursionError: deep nesting
        raise Unparsed(error_reply(PARSE_ERROR, f"parse error: {type(exc).__name__}: {exc}"[:MAX_ERROR_TEXT])) from exc
    problem = lone_surrogate(payload)
    if problem is not None:
        where = ".".join(map(str, problem[0])) or "the message"
        raise Unparsed(error_reply(INVALID_REQUEST, f"{where}: {problem[1]}"))
    return payload


class McpServer:
    def __init__(self, call_api: CallApi, *, version: str = __version__):
        self.call_api = call_api
        self.version = version

    async def handle_bytes(self, raw: bytes | str) -> dict[str, Any] | list[dict[str, Any]] | None:
        try:
            payload = decode(raw)
        except Unparsed as exc:
            return exc.reply
        return await self.handle(payload)

    async def handle(self, payload: Any) -> dict[str, Any] | list[dict[str, Any]] | None:
        if isinstance(payload, list):
            if not payload:
                return error_reply(INVALID_REQUEST, "empty batch")
            if len(payload) > MAX_BATCH:
                return error_reply(INVALID_REQUEST, f"a batch holds at most {MAX_BATCH} messages")
            replies = [r for r in [await self.handle_message(m) for m in payload] if r is not None]
            return replies or None
        return await self.handle_message(payload)

    async def handle_message(self, message: Any) -> dict[str, Any] | None:
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            found = message.get("id") if isinstance(message, dict) else None
            return error_reply(INVALID_REQUEST, "not a JSON-RPC 2.0 message", _safe_id(found))
        request_id = message.get("id")
        if isinstance(request_id, float) and request_id.is_integer():
            request_id = int(request_id)  # 7.0 is the JSON number 7
        if "method" not in message:
            # A client's response to a server request: we send none, so there is nothing to match.
            return None if "result" in message or "error" in message else \
                error_reply(INVALID_REQUEST, "message has no method", _safe_id(request_id))
        notification = "id" not in message
        if not notification and (isinstance(request_id, bool) or not isinstance(request_id, (str, int))):
            return error_reply(INVALID_REQUEST, "id must be a string or an integer")
        method, params = message["method"], message.get("params")
        if not isinstance(method, str) or (params is not None and not isinstance(params, dict)):
            # A malformed notification is answered too: its HTTP request is refused (400), not accepted.
            return error_reply(INVALID_REQUEST, "method must be a string and params an object",
                               None if notification else request_id)
        if notification:
            return None  # initialized, cancelled, progress...: nothing to do for a stateless server
        try:
            result = await self.dispatch(method, params or {})
        except RpcError as exc:
            return exc.body(request_id)
        except Exception:
            log.exception("MCP %s failed", method)
            return error_reply(INTERNAL_ERROR, "internal error", request_id)
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    async def dispatch(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "initialize":
            return {"protocolVersion": negotiate(params.get("protocolVersion")),
                    "capabilities": {"tools": {"listChanged": False}},
                    "serverInfo": {"name": "signet", "title": "Signet memory", "version": self.version},
                    "instructions": INSTRUCTIONS}
        if method == "ping":
            return {}
        if method == "tools/list":
            return {"tools": [tool.describe() for tool in TOOLS.values()]}
        if method == "tools/call":
            return await self.call_tool(params.get("name"), params.get("arguments"))
        raise RpcError(METHOD_NOT_FOUND, f"method not found: {method}")

    async def call_tool(self, name: Any, arguments: Any) -> dict[str, Any]:
        tool = TOOLS.get(name) if isinstance(name, str) else None
        if tool is None:
            raise RpcError(INVALID_PARAMS, f"unknown tool: {name!r} (tools/list names them)")
        if arguments is not None and not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, "arguments must be an object")
        try:
            args = tool.args.model_validate(arguments or {})
        except ValidationError as exc:
            raise RpcError(INVALID_PARAMS, f"invalid arguments for {name}: {_describe(exc)}") from None
        try:
            response = await self.call_api(tool.request(args))
        except Exception as exc:  # the daemon is down, a timeout: the agent should hear it as a tool error
            log.warning("MCP %s: REST call failed: %s", name, exc)
            return _text_result(f"{name} failed: could not reach the Signet API ({type(exc).__name__}: {exc})",
                                error=True)
        if response.status >= 400:
            return _text_result(f"{name} failed: {_error_text(response)}", error=True)
        return _text_result(json.dumps(response.body, ensure_ascii=False), error=False)


def _text_result(text: str, *, error: bool) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": error}


def _error_text(response: ApiResponse) -> str:
    """`HTTP 404 not_found: memory x not found` from the API's {"error": {"code", "message"}}."""
    body = response.body
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        detail = f"{error.get('code', 'error')}: {error.get('message', '')}"
    else:
        detail = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
    return f"HTTP {response.status} {detail}"[:MAX_ERROR_TEXT]


def _describe(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}" for err in exc.errors())


def _safe_id(value: Any) -> Any:
    return value if isinstance(value, (str, int)) and not isinstance(value, bool) else None
