"""Embedding providers, chosen by `embedding.provider` in the settings."""

from __future__ import annotations

import logging
from typing import TypedDict

from signet_pipeline.config import EmbeddingConfig
from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.embeddings.base import EmbeddingProvider, NoEmbeddings, ProviderStatus

__all__ = ["EmbeddingProvider", "ProviderStatus", "create_embedder", "load_embedder"]

log = logging.getLogger("signet.embeddings")


class _HttpSettings(TypedDict):
    base_url: str
    model: str
    timeout_s: float
    dimensions: int | None
    batch_size: int


def create_embedder(config: EmbeddingConfig) -> EmbeddingProvider:
    """Build the configured provider. Load it once per process and share it."""
    if config.provider == "onnx":
        from signet_pipeline.providers.embeddings.onnx import OnnxMiniLM

        return OnnxMiniLM(threads=config.threads, max_tokens=config.max_tokens, batch_size=config.batch_size)
    if config.provider == "e5":
        from signet_pipeline.providers.embeddings.e5 import E5Small

        return E5Small(threads=config.threads)
    if config.provider == "none":
        return NoEmbeddings()
    from signet_pipeline.providers.embeddings.remote import OllamaEmbeddings, OpenAIEmbeddings

    base_url = config.resolved_base_url()
    assert base_url is not None, "ollama and openai have a default base URL"
    common = _HttpSettings(
        base_url=base_url,
        model=config.model,
        timeout_s=config.timeout_ms / 1000,
        dimensions=config.dimensions,
        batch_size=config.batch_size,
    )
    if config.provider == "ollama":
        return OllamaEmbeddings(**common)
    return OpenAIEmbeddings(api_key_env=config.api_key_env, **common)


def load_embedder(config: EmbeddingConfig) -> EmbeddingProvider:
    """`create_embedder`, but a provider that cannot load leaves the process running keyword-only
    (NoEmbeddings carries the reason for /api/embeddings/status) instead of failing it."""
    try:
        return create_embedder(config)
    except ProviderError as exc:
        log.error("embedding provider unavailable, search is keyword-only: %s", exc)
        return NoEmbeddings(config.provider, config.model, str(exc))
