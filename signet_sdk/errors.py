"""Errors the client raises: one per kind of answer, each with the API's stable `code`."""

from __future__ import annotations

from typing import Any


class SignetError(Exception):
    def __init__(self, message: str, *, code: str, status: int | None = None, details: dict[str, Any] | None = None):
        super().__init__(f"{code}: {message}" if code else message)
        self.message = message
        self.code = code
        self.status = status
        self.details = details or {}


class ConnectionFailed(SignetError):
    """The API could not be reached (not running, wrong URL, timeout)."""


class InvalidRequest(SignetError):
    """400 / 422: the request was refused as malformed."""


class AuthError(SignetError):
    """401 / 403: a token is missing, invalid, or may not do this."""


class NotFound(SignetError):
    """404."""


class RateLimited(SignetError):
    """429; `retry_after_s` says when to try again."""

    @property
    def retry_after_s(self) -> float | None:
        value = self.details.get("retryAfterS")
        return float(value) if value is not None else None


class ServerError(SignetError):
    """5xx, and 409/503 states the service reports (version conflicts, frozen writes) keep their own code."""


def from_response(status: int, body: Any) -> SignetError:
    """The API answers `{"error": {"code", "message", ...}}`, hooks `{"error": message, "code"}`."""
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        err = dict(body["error"])
        code, message = str(err.pop("code", "http_error")), str(err.pop("message", ""))
        details = err
    elif isinstance(body, dict) and "code" in body:
        code, message = str(body["code"]), str(body.get("error", ""))
        details = {k: v for k, v in body.items() if k not in ("code", "error")}
    else:
        code, message, details = "http_error", str(body)[:500], {}
    kind = {400: InvalidRequest, 422: InvalidRequest, 401: AuthError, 403: AuthError, 404: NotFound,
            429: RateLimited}.get(status, ServerError)
    return kind(message, code=code, status=status, details=details)
