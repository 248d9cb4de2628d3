"""`Client` (blocking) and `AsyncClient`: one method per API call, each a thin shell over the
request described once in `_Calls` (path, body, how to read the answer)."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx

from signet_sdk.connection import daemon_headers, daemon_token, daemon_url
from signet_sdk.errors import ConnectionFailed, from_response
from signet_sdk.models import (
    Document,
    ForgetResult,
    HistoryEvent,
    Memory,
    MemoryPage,
    RecallResult,
    RememberResult,
    Status,
)

T = TypeVar("T")
CLIENT_HEADERS = {"x-signet-runtime-path": "sdk", "x-signet-actor-type": "harness"}


@dataclass
class _Call:
    method: str
    path: str
    json: Any = None
    params: dict[str, Any] = field(default_factory=dict)
    parse: Callable[[Any], Any] = lambda body: body


def _clean(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


class _Calls:
    """What each method sends and how it reads the answer (shared by both clients)."""

    @staticmethod
    def remember(content: str, fields: dict[str, Any]) -> _Call:
        return _Call("POST", "/api/memory/remember", {"content": content, **_clean(fields)},
                     parse=RememberResult.model_validate)

    @staticmethod
    def recall(query: str, limit: int, filters: dict[str, Any]) -> _Call:
        return _Call("POST", "/api/memory/recall", {"query": query, "limit": limit, **_clean(filters)},
                     parse=RecallResult.model_validate)

    @staticmethod
    def get(memory_id: str) -> _Call:
        return _Call("GET", f"/api/memory/{memory_id}", parse=Memory.model_validate)

    @staticmethod
    def list(limit: int, offset: int, filters: dict[str, Any]) -> _Call:
        return _Call("GET", "/api/memories", params={"limit": limit, "offset": offset, **_clean(filters)},
                     parse=MemoryPage.model_validate)

    @staticmethod
    def history(memory_id: str) -> _Call:
        return _Call("GET", f"/api/memory/{memory_id}/history",
                     parse=lambda body: [HistoryEvent.model_validate(e) for e in body["history"]])

    @staticmethod
    def update(memory_id: str, reason: str, fields: dict[str, Any]) -> _Call:
        return _Call("PATCH", f"/api/memory/{memory_id}", {"reason": reason, **_clean(fields)})

    @staticmethod
    def forget(memory_id: str, reason: str, force: bool) -> _Call:
        return _Call("DELETE", f"/api/memory/{memory_id}", params={"reason": reason, "force": str(force).lower()},
                     parse=ForgetResult.model_validate)

    @staticmethod
    def recover(memory_id: str, reason: str) -> _Call:
        return _Call("POST", f"/api/memory/{memory_id}/recover", {"reason": reason})

    @staticmethod
    def hook(name: str, harness: str, fields: dict[str, Any]) -> _Call:
        return _Call("POST", f"/api/hooks/{name}", {"harness": harness, **_clean(fields)})

    @staticmethod
    def add_document(fields: dict[str, Any]) -> _Call:
        return _Call("POST", "/api/documents", _clean(fields), parse=Document.model_validate)

    @staticmethod
    def document(document_id: str) -> _Call:
        return _Call("GET", f"/api/documents/{document_id}", parse=Document.model_validate)

    @staticmethod
    def status() -> _Call:
        return _Call("GET", "/api/status", parse=Status.model_validate)

    @staticmethod
    def get_json(path: str, params: dict[str, Any] | None = None) -> _Call:
        return _Call("GET", path, params=_clean(params or {}))


def _settings(base_url: str | None, token: str | None, agent_id: str | None) -> tuple[str, dict[str, str]]:
    headers = daemon_headers(base=CLIENT_HEADERS)
    if token is None:
        token = daemon_token()
    if token:
        headers["authorization"] = f"Bearer {token}"
    if agent_id:
        headers["x-signet-agent-id"] = agent_id
    return (base_url or daemon_url()).rstrip("/"), headers


def _answer(call: _Call, response: httpx.Response) -> Any:
    try:
        body = response.json() if response.content else None
    except ValueError:
        body = response.text
    if response.status_code >= 400:
        raise from_response(response.status_code, body)
    return call.parse(body)


class Client:
    """A blocking client. `base_url` defaults to SIGNET_DAEMON_URL (else SIGNET_HOST:SIGNET_PORT,
    else http://localhost:3850), `token` to SIGNET_API_KEY / SIGNET_TOKEN. `transport` lets tests
    and embedders call an app in process (httpx.ASGITransport / MockTransport)."""

    def __init__(self, base_url: str | None = None, token: str | None = None, *, agent_id: str | None = None,
                 timeout: float = 30.0, transport: httpx.BaseTransport | None = None):
        self.base_url, headers = _settings(base_url, token, agent_id)
        self._http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout, transport=transport)

    def _send(self, call: _Call) -> Any:
        try:
            response = self._http.request(call.method, call.path, json=call.json, params=call.params or None)
        except httpx.HTTPError as exc:
            raise ConnectionFailed(f"{self.base_url}: {exc}", code="connection_failed") from exc
        return _answer(call, response)

    def remember(self, content: str, **fields: Any) -> RememberResult:
        """Save a memory; fields as the API takes them (tags, importance, pinned, type, agentId, ...)."""
        return self._send(_Calls.remember(content, fields))

    def recall(self, query: str, *, limit: int = 10, **filters: Any) -> RecallResult:
        return self._send(_Calls.recall(query, limit, filters))

    def get(self, memory_id: str) -> Memory:
        return self._send(_Calls.get(memory_id))

    def list(self, *, limit: int = 50, offset: int = 0, **filters: Any) -> MemoryPage:
        return self._send(_Calls.list(limit, offset, filters))

    def history(self, memory_id: str) -> builtins.list[HistoryEvent]:  # `list` here is the method
        return self._send(_Calls.history(memory_id))

    def update(self, memory_id: str, *, reason: str, **fields: Any) -> dict[str, Any]:
        return self._send(_Calls.update(memory_id, reason, fields))

    def forget(self, memory_id: str, *, reason: str = "forgotten through the SDK", force: bool = False) -> ForgetResult:
        return self._send(_Calls.forget(memory_id, reason, force))

    def recover(self, memory_id: str, *, reason: str = "recovered through the SDK") -> dict[str, Any]:
        return self._send(_Calls.recover(memory_id, reason))

    def session_start(self, harness: str, **fields: Any) -> dict[str, Any]:
        return self._send(_Calls.hook("session-start", harness, fields))

    def session_end(self, harness: str, **fields: Any) -> dict[str, Any]:
        return self._send(_Calls.hook("session-end", harness, fields))

    def add_document(self, *, url: str | None = None, content: str | None = None, title: str | None = None,
                     **fields: Any) -> Document:
        return self._send(_Calls.add_document({"url": url, "content": content, "title": title, **fields}))

    def document(self, document_id: str) -> Document:
        return self._send(_Calls.document(document_id))

    def status(self) -> Status:
        return self._send(_Calls.status())

    def pipeline_status(self) -> dict[str, Any]:
        return self._send(_Calls.get_json("/api/pipeline/status"))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncClient:
    """The same calls as `Client`, as coroutines."""

    def __init__(self, base_url: str | None = None, token: str | None = None, *, agent_id: str | None = None,
                 timeout: float = 30.0, transport: httpx.AsyncBaseTransport | None = None):
        self.base_url, headers = _settings(base_url, token, agent_id)
        self._http = httpx.AsyncClient(base_url=self.base_url, headers=headers, timeout=timeout, transport=transport)

    async def _send(self, call: _Call) -> Any:
        try:
            response = await self._http.request(call.method, call.path, json=call.json, params=call.params or None)
        except httpx.HTTPError as exc:
            raise ConnectionFailed(f"{self.base_url}: {exc}", code="connection_failed") from exc
        return _answer(call, response)

    async def remember(self, content: str, **fields: Any) -> RememberResult:
        return await self._send(_Calls.remember(content, fields))

    async def recall(self, query: str, *, limit: int = 10, **filters: Any) -> RecallResult:
        return await self._send(_Calls.recall(query, limit, filters))

    async def get(self, memory_id: str) -> Memory:
        return await self._send(_Calls.get(memory_id))

    async def list(self, *, limit: int = 50, offset: int = 0, **filters: Any) -> MemoryPage:
        return await self._send(_Calls.list(limit, offset, filters))

    async def history(self, memory_id: str) -> builtins.list[HistoryEvent]:  # `list` here is the method
        return await self._send(_Calls.history(memory_id))

    async def update(self, memory_id: str, *, reason: str, **fields: Any) -> dict[str, Any]:
        return await self._send(_Calls.update(memory_id, reason, fields))

    async def forget(self, memory_id: str, *, reason: str = "forgotten through the SDK",
                     force: bool = False) -> ForgetResult:
        return await self._send(_Calls.forget(memory_id, reason, force))

    async def recover(self, memory_id: str, *, reason: str = "recovered through the SDK") -> dict[str, Any]:
        return await self._send(_Calls.recover(memory_id, reason))

    async def session_start(self, harness: str, **fields: Any) -> dict[str, Any]:
        return await self._send(_Calls.hook("session-start", harness, fields))

    async def session_end(self, harness: str, **fields: Any) -> dict[str, Any]:
        return await self._send(_Calls.hook("session-end", harness, fields))

    async def add_document(self, *, url: str | None = None, content: str | None = None, title: str | None = None,
                           **fields: Any) -> Document:
        return await self._send(_Calls.add_document({"url": url, "content": content, "title": title, **fields}))

    async def document(self, document_id: str) -> Document:
        return await self._send(_Calls.document(document_id))

    async def status(self) -> Status:
        return await self._send(_Calls.status())

    async def pipeline_status(self) -> dict[str, Any]:
        return await self._send(_Calls.get_json("/api/pipeline/status"))

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
