"""Who may do what: roles -> permissions (the spec's matrix), and the sliding-window rate limiter.
(Scopes are applied where the target is known: signet_api/deps.py and the mutations.)"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Literal

from signet_pipeline.auth.tokens import Role
from signet_pipeline.errors import RateLimited

Permission = Literal["none", "remember", "recall", "modify", "forget", "recover", "documents", "diagnostics",
                     "analytics", "operator", "admin"]

_ALL: frozenset[str] = frozenset(Permission.__args__)  # type: ignore[attr-defined]
ROLE_PERMISSIONS: dict[Role, frozenset[str]] = {
    "admin": _ALL,
    "operator": _ALL - {"admin"},
    "agent": frozenset({"none", "remember", "recall", "modify", "forget", "recover", "documents"}),
    "readonly": frozenset({"none", "recall"}),
}


def allowed(role: Role, permission: str) -> bool:
    return permission in ROLE_PERMISSIONS[role]


class SlidingWindow:
    """At most `limit` events per key in any `window_s` seconds (one process)."""

    def __init__(self, max_keys: int = 10_000) -> None:
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()
        self._max_keys = max_keys

    def hit(self, key: str, limit: int, window_s: float = 60.0, now: float | None = None) -> None:
        """Count one event, or raise RateLimited with the seconds until one slot frees."""
        at = time.monotonic() if now is None else now
        with self._lock:
            if key not in self._events and len(self._events) >= self._max_keys:
                # Keys come from token subjects and headers: drop the ones whose window has passed.
                self._events = {k: v for k, v in self._events.items() if v and v[-1] > at - window_s}
            events = self._events.setdefault(key, deque())
            while events and events[0] <= at - window_s:
                events.popleft()
            if len(events) >= limit:
                retry = max(1, int(events[0] + window_s - at) + 1)
                raise RateLimited(f"{key}: at most {limit} per {window_s:g} s", details={"retryAfterS": retry})
            events.append(at)
