"""Embedding providers over HTTP: Ollama (`POST /api/embed`) and OpenAI-compatible
(`POST /v1/embeddings`: OpenAI, llama.cpp server, vLLM, LM Studio)."""

from __future__ import annotations

import os

import httpx
import numpy as np

from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.embeddings.base import EmbeddingProvider
from signet_pipeline.providers.http import describe_http_error


class _HttpEmbeddings(EmbeddingProvider):
    path: str

    def __init__(self, *, base_url: str, model: str, timeout_s: float, dimensions: int | None = None,
                 batch_size: int = 32, headers: dict[str, str] | None = None):
        super().__init__()
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._dimensions = dimensions
        self._batch_size = batch_size
        self._client = httpx.Client(base_url=self.base_url, timeout=timeout_s, headers=headers or {})

    @property
    def dimensions(self) -> int | None:
        return self._dimensions

    def _embed(self, texts: list[str]) -> np.ndarray:
        parts = []
        for start in range(0, len(texts), self._batch_size):
            chunk = texts[start:start + self._batch_size]
            try:
                response = self._client.post(self.path, json=self._request(chunk))
                response.raise_for_status()
                vectors = self._parse(response.json(), len(chunk))
            except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
                timed_out = isinstance(exc, httpx.TimeoutException)
                raise ProviderError(describe_http_error(self.name, exc),
                                    code="provider_timeout" if timed_out else None) from exc
            parts.append(vectors)
        matrix = np.vstack(parts)
        if self._dimensions is None:
            self._dimensions = int(matrix.shape[1])
        elif matrix.shape[1] != self._dimensions:
            raise ProviderError(
                f"{self.name}: model {self.model} returned {matrix.shape[1]} dimensions, expected {self._dimensions}"
            )
        return matrix

    def _request(self, texts: list[str]) -> dict:
        return {"model": self.model, "input": texts}

    def _parse(self, payload: dict, expected: int) -> np.ndarray:
        raise NotImplementedError

    def close(self) -> None:
        self._client.close()


class OllamaEmbeddings(_HttpEmbeddings):
    name = "ollama"
    path = "/api/embed"

    def _parse(self, payload: dict, expected: int) -> np.ndarray:
        vectors = payload["embeddings"]
        if len(vectors) != expected:
            raise ValueError(f"expected {expected} embeddings, got {len(vectors)}")
        return np.asarray(vectors, dtype=np.float32)


class OpenAIEmbeddings(_HttpEmbeddings):
    name = "openai"
    path = "/v1/embeddings"

    def __init__(self, *, api_key_env: str = "OPENAI_API_KEY", **kwargs):
        key = os.environ.get(api_key_env)
        super().__init__(headers={"Authorization": f"Bearer {key}"} if key else None, **kwargs)
        self._configured_dimensions = kwargs.get("dimensions")

    def _request(self, texts: list[str]) -> dict:
        body = super()._request(texts)
        if self._configured_dimensions:  # text-embedding-3 models shorten vectors on request
            body["dimensions"] = self._configured_dimensions
        return body

    def _parse(self, payload: dict, expected: int) -> np.ndarray:
        data = sorted(payload["data"], key=lambda item: item.get("index", 0))
        if len(data) != expected:
            raise ValueError(f"expected {expected} embeddings, got {len(data)}")
        return np.asarray([item["embedding"] for item in data], dtype=np.float32)
