"""The OpenClaw adapter's health, as its heartbeats report it (the reference's
/api/diagnostics/openclaw): the last heartbeat's plugin version, registered hooks, latency and
error, and hook successes and failures summed over the heartbeats. Kept in the service's memory
as the reference keeps it: it describes the running adapter, and the adapter beats again within
minutes of a restart. Text is cut to the reference's bounds, never refused (a refused heartbeat
would only be sent again and again)."""

from __future__ import annotations

import threading
import time
from typing import Literal
from weakref import WeakKeyDictionary

from pydantic import BaseModel, ConfigDict, Field, field_validator

from signet_pipeline.request_rules import STRICT
from signet_pipeline.service import MemoryService
from signet_pipeline.timeutil import now_iso

STALE_AFTER_S = 600  # no heartbeat for 10 minutes: the adapter is gone or wedged
VERSION_CHARS, HOOK_CHARS, MAX_HOOKS, TEXT_CHARS = 128, 128, 50, 512


class OpenClawHeartbeat(BaseModel):
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False, **STRICT)

    pluginVersion: str = Field(description=f"the adapter's version (first {VERSION_CHARS} characters kept)")
    hooksRegistered: list[str] = Field([], description=f"at most {MAX_HOOKS} kept, {HOOK_CHARS} characters each")
    lastHookCall: str | None = None
    lastError: str | None = Field(None, description=f"first {TEXT_CHARS} characters kept")
    latencyMs: float | None = None
    hooksSucceeded: float | None = Field(None, description="hook calls that succeeded since the last heartbeat")
    hooksFailed: float | None = Field(None, description="hook calls that failed since the last heartbeat")
    errorCount: float | None = Field(None, description="older adapters' name for hooksFailed")

    @field_validator("pluginVersion")
    @classmethod
    def _version(cls, value: str) -> str:
        return value[:VERSION_CHARS]

    @field_validator("hooksRegistered")
    @classmethod
    def _hooks(cls, value: list[str]) -> list[str]:
        return [hook[:HOOK_CHARS] for hook in value[:MAX_HOOKS]]

    @field_validator("lastHookCall", "lastError")
    @classmethod
    def _text(cls, value: str | None) -> str | None:
        return value[:TEXT_CHARS] if value is not None else None


class OpenClawHealth(BaseModel):
    status: Literal["never-seen", "connected", "stale"]
    lastHeartbeat: str | None
    pluginVersion: str | None
    hooksRegistered: list[str]
    hooksSucceeded: int
    hooksFailed: int
    lastLatencyMs: float
    lastError: str | None


class HeartbeatAck(BaseModel):
    ok: bool


def _count(value: float | None) -> int:
    return int(max(0.0, value or 0.0))


class _Tracker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: tuple[float, OpenClawHealth] | None = None  # (monotonic time, what it reported)

    def beat(self, beat: OpenClawHeartbeat) -> None:
        failed = _count(beat.hooksFailed if beat.hooksFailed is not None else beat.errorCount)
        with self._lock:
            before = self._last[1] if self._last else None
            self._last = (time.monotonic(), OpenClawHealth(
                status="connected", lastHeartbeat=now_iso(), pluginVersion=beat.pluginVersion,
                hooksRegistered=beat.hooksRegistered, lastLatencyMs=max(0.0, beat.latencyMs or 0.0),
                lastError=beat.lastError,
                hooksSucceeded=(before.hooksSucceeded if before else 0) + _count(beat.hooksSucceeded),
                hooksFailed=(before.hooksFailed if before else 0) + failed))

    def report(self) -> OpenClawHealth:
        with self._lock:
            last = self._last
        if last is None:
            return OpenClawHealth(status="never-seen", lastHeartbeat=None, pluginVersion=None, hooksRegistered=[],
                                  hooksSucceeded=0, hooksFailed=0, lastLatencyMs=0.0, lastError=None)
        at, health = last
        fresh = time.monotonic() - at < STALE_AFTER_S
        return health.model_copy(update={"status": "connected" if fresh else "stale"})


_TRACKERS: WeakKeyDictionary[MemoryService, _Tracker] = WeakKeyDictionary()
_TRACKERS_LOCK = threading.Lock()


def _tracker(svc: MemoryService) -> _Tracker:
    with _TRACKERS_LOCK:
        return _TRACKERS.setdefault(svc, _Tracker())


def heartbeat(svc: MemoryService, beat: OpenClawHeartbeat) -> None:
    _tracker(svc).beat(beat)


def openclaw_health(svc: MemoryService) -> OpenClawHealth:
    return _tracker(svc).report()
