"""Typed results. Fields the API adds later are kept (extra allowed), so an older client still
reads a newer server."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class _Model(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class RememberResult(_Model):
    id: str
    type: str | None = None
    content: str | None = None
    pinned: bool = False
    importance: float | None = None
    deduped: bool = False
    embedded: bool | None = None
    jobId: int | None = None


class RecallHit(_Model):
    id: str
    content: str
    score: float
    type: str | None = None
    tags: str | None = None
    pinned: bool | None = None
    importance: float | None = None
    created_at: str | None = None
    source: str | None = None
    content_length: int | None = None
    truncated: bool | None = None


class RecallResult(_Model):
    results: list[RecallHit]
    query: str = ""
    method: str = ""
    meta: dict[str, Any] = {}


class Memory(_Model):
    id: str
    content: str
    type: str | None = None
    tags: str | None = None
    pinned: bool | int | None = None
    importance: float | None = None
    agent_id: str | None = None
    version: int | None = None
    created_at: str | None = None
    updated_at: str | None = None


class MemoryPage(_Model):
    memories: list[Memory]
    stats: dict[str, Any] = {}
    limit: int = 0
    offset: int = 0


class HistoryEvent(_Model):
    id: str
    event: str
    createdAt: str | None = None
    oldContent: str | None = None
    newContent: str | None = None
    changedBy: str | None = None
    reason: str | None = None


class ForgetResult(_Model):
    id: str | None = None
    status: str | None = None
    version: int | None = None


class Document(_Model):
    id: str
    status: str
    title: str | None = None
    sourceUrl: str | None = None
    chunkCount: int | None = None
    memoryCount: int | None = None
    jobId: int | None = None
    # The same values under the reference SDK's names (servers of this version send both).
    source_type: str | None = None
    source_url: str | None = None
    chunk_count: int | None = None
    memory_count: int | None = None
    created_at: str | None = None
    updated_at: str | None = None


class Status(_Model):
    """GET /api/status (more fields than named here)."""

    version: str | None = None
    pid: int | None = None
    uptime: float | None = None
    memories: Any = None
    status: str | None = None
    startedAt: str | None = None
    port: int | None = None
