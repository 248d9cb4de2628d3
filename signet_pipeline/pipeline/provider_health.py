"""Provider call outcomes for the diagnostics' provider domain: stages call the LLM through
`ProviderCalls.call`, which times each call and classifies it (success, failure, timeout); the
batch is written once, after the provider work, into the store's per-provider ring."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from signet_pipeline.errors import ProviderError
from signet_pipeline.store import providers as provider_store
from signet_pipeline.store.db import Database
from signet_pipeline.timeutil import now_iso

RING_SIZE = 100  # outcomes kept per provider (spec: ring buffer of 100)
T = TypeVar("T")


class ProviderCalls:
    def __init__(self) -> None:
        self.outcomes: list[tuple[str, float, str | None]] = []
        self._lock = threading.Lock()  # stages run jobs on a thread pool

    def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
        """fn(*args, **kwargs) and its latency in ms; a ProviderError is recorded, then re-raised."""
        started = time.perf_counter()
        try:
            result = fn(*args, **kwargs)
        except ProviderError as exc:
            self._add("timeout" if exc.code == "provider_timeout" else "failure", started, exc.message[:500])
            raise
        return result, self._add("success", started, None)

    def _add(self, outcome: str, started: float, error: str | None) -> float:
        ms = (time.perf_counter() - started) * 1000
        with self._lock:
            self.outcomes.append((outcome, ms, error))
        return ms

    def flush(self, db: Database, *, provider: str, model: str) -> None:
        """Write the recorded outcomes (own short transaction, after every provider call)."""
        with self._lock:
            outcomes, self.outcomes = self.outcomes, []
        if outcomes:
            with db.write() as conn:
                provider_store.record(conn, provider=provider, model=model, outcomes=outcomes, now=now_iso(),
                                      keep=RING_SIZE)
