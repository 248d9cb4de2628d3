"""Shared by the HTTP providers (embeddings and LLMs)."""

from __future__ import annotations

import httpx


def describe_http_error(provider: str, exc: Exception) -> str:
    """One line for an operator: status + the first 200 characters of the body, or the cause."""
    if isinstance(exc, httpx.HTTPStatusError):
        return f"{provider}: HTTP {exc.response.status_code}: {exc.response.text[:200]}"
    if isinstance(exc, httpx.TimeoutException):
        return f"{provider}: timed out"
    return f"{provider}: {type(exc).__name__}: {exc}"
