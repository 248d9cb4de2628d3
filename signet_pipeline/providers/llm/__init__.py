"""LLM providers for the pipeline stages: one `generate(prompt, json=..., timeout=...)` interface,
plus the offline `rules` provider that answers the stages' tasks without a model."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol, TypedDict, runtime_checkable

from signet_pipeline.config_sections import ExtractionConfig


class Llm(Protocol):
    name: str
    model: str

    def generate(self, prompt: str, *, json: bool = False, timeout: float | None = None) -> str:
        """The reply text (reasoning blocks and code fences removed). Raises ProviderError."""

    def available(self) -> bool:
        """Whether the provider answers right now (cheap check)."""


@runtime_checkable
class AnswersTasks(Protocol):
    """A provider that answers the pipeline's tasks directly (the `rules` provider)
    with the JSON objects the prompts ask a model for; the stages validate them the same way."""

    def extract(self, content: str, written_at: datetime | None = None) -> dict[str, Any]: ...

    def decide(self, fact: str, candidates: list[tuple[str, str]]) -> dict[str, Any]: ...

    def classify(self, entity: str, entity_type: str, facts: list[str], aspects: list[str]) -> dict[str, Any]: ...

    def hints(self, content: str, limit: int) -> dict[str, Any]: ...

    def summarize(self, conversation: str, limit: int) -> dict[str, Any]: ...

    def continuity(self, memories: list[tuple[str, str]], conversation: str) -> dict[str, Any]: ...


from signet_pipeline.providers.llm.http import OllamaLlm, OpenAICompatibleLlm  # noqa: E402
from signet_pipeline.providers.llm.rules import RulesLlm  # noqa: E402


class _HttpSettings(TypedDict):
    base_url: str
    model: str
    timeout_s: float


def create_llm(cfg: ExtractionConfig) -> Llm:
    """The provider `memory.pipelineV2.extraction` names. Building one makes no network call."""
    if cfg.provider == "rules":
        return RulesLlm(cfg.model)
    base_url = cfg.resolved_base_url()
    assert base_url is not None, "ollama and openai have a default base URL"
    common: _HttpSettings = {"base_url": base_url, "model": cfg.model, "timeout_s": cfg.timeout / 1000}
    if cfg.provider == "ollama":
        return OllamaLlm(**common)
    return OpenAICompatibleLlm(api_key_env=cfg.api_key_env, **common)
