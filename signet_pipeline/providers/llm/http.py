"""LLM providers over HTTP: Ollama (`POST /api/generate`, `stream: false`, `format: "json"` when
asked; availability from `GET /api/tags`) and OpenAI-compatible (`POST /v1/chat/completions`;
availability from `GET /v1/models`) — the latter covers llama.cpp server, vLLM, LM Studio, OpenAI."""

from __future__ import annotations

import os

import httpx

from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.http import describe_http_error
from signet_pipeline.providers.llm.output import strip_reasoning

AVAILABILITY_TIMEOUT_S = 3.0


class HttpLlm:
    name: str
    generate_path: str
    health_path: str

    def __init__(self, *, base_url: str, model: str, timeout_s: float = 45.0, headers: dict[str, str] | None = None):
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout_s = timeout_s
        self._client = httpx.Client(base_url=self.base_url, headers=headers or {})

    def generate(self, prompt: str, *, json: bool = False, timeout: float | None = None) -> str:
        """The model's reply with reasoning blocks and code fences removed. Raises ProviderError."""
        try:
            response = self._client.post(self.generate_path, json=self._request(prompt, json),
                                         timeout=timeout or self.timeout_s)
            response.raise_for_status()
            return strip_reasoning(self._reply(response.json()))
        except (httpx.HTTPError, ValueError, KeyError, TypeError, IndexError) as exc:
            timed_out = isinstance(exc, httpx.TimeoutException)
            raise ProviderError(describe_http_error(f"{self.name} ({self.model})", exc),
                                code="provider_timeout" if timed_out else None) from exc

    def available(self) -> bool:
        try:
            return self._client.get(self.health_path, timeout=AVAILABILITY_TIMEOUT_S).status_code == 200
        except httpx.HTTPError:
            return False

    def close(self) -> None:
        self._client.close()

    def _request(self, prompt: str, json_mode: bool) -> dict:
        raise NotImplementedError

    def _reply(self, payload: dict) -> str:
        raise NotImplementedError


class OllamaLlm(HttpLlm):
    name = "ollama"
    generate_path = "/api/generate"
    health_path = "/api/tags"

    def _request(self, prompt: str, json_mode: bool) -> dict:
        body = {"model": self.model, "prompt": prompt, "stream": False}
        if json_mode:
            body["format"] = "json"
        return body

    def _reply(self, payload: dict) -> str:
        if payload.get("error"):
            raise ValueError(payload["error"])
        return str(payload["response"])


class OpenAICompatibleLlm(HttpLlm):
    name = "openai"
    generate_path = "/v1/chat/completions"
    health_path = "/v1/models"

    def __init__(self, *, api_key_env: str = "OPENAI_API_KEY", **kwargs):
        key = os.environ.get(api_key_env)
        super().__init__(headers={"Authorization": f"Bearer {key}"} if key else None, **kwargs)

    def _request(self, prompt: str, json_mode: bool) -> dict:
        body = {"model": self.model, "messages": [{"role": "user", "content": prompt}], "stream": False}
        if json_mode:
            body["response_format"] = {"type": "json_object"}
        return body

    def _reply(self, payload: dict) -> str:
        content = payload["choices"][0]["message"]["content"]
        if content is None:
            raise ValueError("empty completion")
        return str(content)
