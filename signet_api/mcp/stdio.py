"""`signet mcp`: the MCP server over stdio, for harnesses that start it as a subprocess. Newline-
delimited JSON-RPC on stdin/stdout (stdout carries protocol messages only; logs go to stderr).
Tool calls go to the running daemon over HTTP, with the token from the environment."""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import logging
import sys
from typing import Any, BinaryIO
from urllib.parse import urlsplit

import httpx

from signet_api.mcp.client import CLIENT_HEADERS, rest_caller
from signet_api.mcp.protocol import McpServer
from signet_sdk import connection as sdk_connection
from signet_sdk.connection import daemon_url

log = logging.getLogger("signet.mcp")
TIMEOUT_S = 60.0


def daemon_headers(env: dict[str, str] | None = None) -> dict[str, str]:
    return sdk_connection.daemon_headers(env, base=CLIENT_HEADERS)


def _local(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def serve(server: McpServer, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Read lines until EOF; each message is handled in its own task (a slow recall does not hold
    up a ping), and `notifications/cancelled` cancels the request it names."""
    running: dict[str, asyncio.Task[None]] = {}
    tasks: set[asyncio.Task[None]] = set()

    async def answer(line: bytes) -> None:
        reply = await server.handle_bytes(line)
        if reply is not None:
            stdout.write(json.dumps(reply, ensure_ascii=False).encode("utf-8") + b"\n")
            stdout.flush()

    while line := await asyncio.to_thread(stdin.readline):
        if not line.strip():
            continue
        message = _peek(line)
        if message.get("method") == "notifications/cancelled":
            cancelled = running.pop(_key((message.get("params") or {}).get("requestId")), None)
            if cancelled is not None:
                cancelled.cancel()  # no reply is owed for a cancelled request
            continue
        task = asyncio.create_task(answer(line))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        if "id" in message and "method" in message:
            key = _key(message["id"])
            running[key] = task
            task.add_done_callback(functools.partial(_release, running, key))
    if tasks:
        await asyncio.gather(*tasks, return_exceptions=True)  # EOF: finish what was asked, then exit


def _peek(line: bytes) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return {}
    return message if isinstance(message, dict) else {}


def _key(request_id: Any) -> str:
    return json.dumps(request_id)  # 1 and "1" are different ids


def _release(running: dict[str, asyncio.Task[None]], key: str, task: asyncio.Task[None]) -> None:
    """A request is done: forget it, unless a newer one with its id took its place."""
    if running.get(key) is task:
        running.pop(key)


async def _main(url: str) -> None:
    log.info("signet MCP server on stdio, daemon %s", url)
    async with httpx.AsyncClient(base_url=url, headers=daemon_headers(), timeout=TIMEOUT_S,
                                 trust_env=not _local(url)) as client:  # no proxy between us and a local daemon
        await serve(McpServer(rest_caller(client)), sys.stdin.buffer, sys.stdout.buffer)


def run(url: str | None = None) -> int:
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one INFO line per tool call is noise on stderr
    try:
        asyncio.run(_main((url or daemon_url()).rstrip("/")))
    except KeyboardInterrupt:
        pass
    return 0
