"""Embedding provider interface. Vectors are float32, L2-normalized (cosine = dot product)."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import numpy as np

from signet_pipeline.errors import ProviderError
from signet_pipeline.timeutil import now_iso


@dataclass
class ProviderStatus:
    provider: str
    model: str
    available: bool
    dimensions: int | None
    base_url: str | None = None
    error: str | None = None
    checked_at: str = field(default_factory=now_iso)


def l2_normalize(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


class EmbeddingProvider(ABC):
    name: str
    model: str
    base_url: str | None = None
    enabled = True  # False only for NoEmbeddings: skip the vector leg without trying
    status_ttl_s = 30.0  # spec: availability is cached for 30 seconds
    # After a failure, calls fail fast for this long, so a dead provider does not add its timeout
    # to every remember and recall (both degrade to keyword-only meanwhile).
    cooldown_s = 15.0

    def __init__(self) -> None:
        self._status: ProviderStatus | None = None
        self._status_at = 0.0
        self._down_until = 0.0
        self._last_error = ""

    @property
    @abstractmethod
    def dimensions(self) -> int | None:
        """Vector size, or None while an HTTP provider has not answered yet."""

    # A model that reads a search query unlike a stored text (E5's "query: " / "passage: "): a query and
    # stored texts are then never embedded in one call.
    asymmetric = False

    @abstractmethod
    def _embed(self, texts: list[str]) -> np.ndarray:
        """Raw vectors for texts to store (n x d)."""

    def _embed_queries(self, texts: list[str]) -> np.ndarray:
        """Raw vectors for search queries: as stored texts, unless the model is asymmetric."""
        return self._embed(texts)

    def embed(self, texts: list[str]) -> np.ndarray:
        """L2-normalized float32 vectors of texts to store, one row per text. Raises ProviderError."""
        return self._guarded(texts, self._embed)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        """As `embed`, for search queries."""
        return self._guarded(texts, self._embed_queries)

    def _guarded(self, texts: list[str], encode) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions or 0), dtype=np.float32)
        wait = self._down_until - time.monotonic()
        if self.cooling_down:
            raise ProviderError(f"{self._last_error} (not retried for another {wait:.0f} s)")
        return self._checked(texts, encode)

    def _checked(self, texts: list[str], encode=None) -> np.ndarray:
        try:
            vectors = (encode or self._embed)(texts)
            if vectors.ndim != 2 or vectors.shape[0] != len(texts):
                raise ProviderError(f"{self.name}: expected {len(texts)} vectors, got shape {vectors.shape}")
        except ProviderError as exc:
            self._down_until = time.monotonic() + self.cooldown_s
            self._last_error = str(exc)
            raise
        self._down_until = 0.0
        return l2_normalize(vectors)

    @property
    def cooling_down(self) -> bool:
        """A call failed less than cooldown_s ago: calls fail fast until then."""
        return time.monotonic() < self._down_until

    def close(self) -> None:  # noqa: B027 - optional hook, HTTP providers override it
        """Release connections (HTTP providers)."""

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    def status(self, *, refresh: bool = False) -> ProviderStatus:
        now = time.monotonic()
        if refresh or self._status is None or now - self._status_at > self.status_ttl_s:
            try:
                self._checked(["health check"])  # a status probe bypasses the cooldown
                self._status = ProviderStatus(self.name, self.model, True, self.dimensions, self.base_url)
            except ProviderError as exc:
                self._status = ProviderStatus(self.name, self.model, False, self.dimensions, self.base_url, str(exc))
            self._status_at = now
        return self._status


class NoEmbeddings(EmbeddingProvider):
    """No vectors: `embedding.provider: none`, or a provider that failed to load (reason says
    why). Search is keyword-only and writes are stored without a vector."""

    def __init__(self, name: str = "none", model: str = "none",
                 reason: str = "embeddings are disabled (embedding.provider: none)"):
        super().__init__()
        self.name, self.model, self.reason = name, model, reason
        self.enabled = False

    @property
    def dimensions(self) -> int | None:
        return None

    def _embed(self, texts: list[str]) -> np.ndarray:
        raise ProviderError(self.reason)
