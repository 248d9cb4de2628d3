"""Tokens: `base64url(payload).base64url(hmac_sha256(secret, payload_b64))`, payload a JSON object
with sub, scope, role, iat and exp (seconds since the epoch). The secret is 32 random bytes in a
file only its owner can read, created on first use."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import time
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from signet_pipeline.errors import SignetError, Unauthorized

Role = Literal["admin", "operator", "agent", "readonly"]
SECRET_BYTES = 32
_B64URL = re.compile(r"[A-Za-z0-9_-]+")


class TokenScope(BaseModel):
    """What a token may touch; an empty scope is unscoped."""

    model_config = ConfigDict(extra="forbid")

    project: str | None = Field(None, max_length=200)
    agent: str | None = Field(None, max_length=200)
    user: str | None = Field(None, max_length=200)

    @property
    def empty(self) -> bool:
        return not (self.project or self.agent or self.user)


class TokenClaims(BaseModel):
    model_config = ConfigDict(extra="ignore")

    sub: str = Field(..., min_length=1, max_length=200)
    role: Role
    scope: TokenScope = TokenScope()
    iat: int
    exp: int


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: bytes, payload_b64: str) -> str:
    return _b64(hmac.new(secret, payload_b64.encode("ascii"), hashlib.sha256).digest())


def issue(secret: bytes, *, sub: str, role: Role, scope: TokenScope | None = None, ttl_s: int,
          now: float | None = None) -> tuple[str, TokenClaims]:
    issued = int(now if now is not None else time.time())
    claims = TokenClaims(sub=sub, role=role, scope=scope or TokenScope(), iat=issued, exp=issued + ttl_s)
    payload = _b64(claims.model_dump_json(exclude_none=True).encode("utf-8"))
    return f"{payload}.{_mac(secret, payload)}", claims


def verify(secret: bytes, token: str, *, now: float | None = None) -> TokenClaims:
    """The token's claims; Unauthorized (401) when it is malformed, forged or expired."""
    payload, dot, signature = token.strip().partition(".")
    if not dot or not _B64URL.fullmatch(payload) or not _B64URL.fullmatch(signature):
        raise Unauthorized("malformed token", code="token_malformed")
    if not hmac.compare_digest(signature.encode("ascii"), _mac(secret, payload).encode("ascii")):
        raise Unauthorized("token signature does not match", code="token_invalid")
    try:
        claims = TokenClaims.model_validate(json.loads(_unb64(payload)))
    except (ValueError, ValidationError) as exc:
        raise Unauthorized(f"malformed token payload: {exc.__class__.__name__}", code="token_malformed") from None
    if claims.exp <= (now if now is not None else time.time()):
        raise Unauthorized("token expired", code="token_expired")
    return claims


def load_or_create_secret(path: Path) -> bytes:
    """The workspace's signing secret; created (0600, never overwritten) when missing."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process created it first: use theirs
            return load_or_create_secret(path)
        with os.fdopen(fd, "wb") as out:
            out.write(secrets.token_bytes(SECRET_BYTES))
        data = path.read_bytes()
    if len(data) < SECRET_BYTES:
        raise SignetError(f"{path}: auth secret shorter than {SECRET_BYTES} bytes", code="auth_secret_invalid")
    return data
