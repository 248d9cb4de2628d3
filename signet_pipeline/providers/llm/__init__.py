"""LLM providers for the pipeline stages: one `generate(prompt, json=..., timeout=...)` interface."""

from __future__ import annotations

from typing import Protocol


class Llm(Protocol):
    name: str
    model: str

    def generate(self, prompt: str, *, json: bool = False, timeout: float | None = None) -> str:
        """The reply text (reasoning blocks and code fences removed). Raises ProviderError."""

    def available(self) -> bool:
        """Whether the provider answers right now (cheap check)."""
