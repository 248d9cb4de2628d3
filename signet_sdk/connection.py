"""Where the API is and who the client is: the same environment every Signet client reads
(`signet mcp`, the CLI, this SDK)."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # imports for types only: `signet hook` reads this module on every prompt
if TYPE_CHECKING:
    from collections.abc import Mapping

DEFAULT_URL = "http://localhost:3850"


def daemon_url(env: Mapping[str, str] | None = None) -> str:
    """SIGNET_DAEMON_URL, else http://$SIGNET_HOST:$SIGNET_PORT, else localhost:3850 (wire contract)."""
    env = os.environ if env is None else env
    if env.get("SIGNET_DAEMON_URL"):
        return env["SIGNET_DAEMON_URL"].rstrip("/")
    host, port = env.get("SIGNET_HOST") or "localhost", env.get("SIGNET_PORT") or "3850"
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def daemon_token(env: Mapping[str, str] | None = None) -> str | None:
    env = os.environ if env is None else env
    return env.get("SIGNET_API_KEY") or env.get("SIGNET_TOKEN") or None


def daemon_headers(env: Mapping[str, str] | None = None, base: dict[str, str] | None = None) -> dict[str, str]:
    """`base` plus the bearer token (SIGNET_API_KEY, else SIGNET_TOKEN) and SIGNET_AGENT_ID."""
    env = os.environ if env is None else env
    headers = dict(base or {})
    token = daemon_token(env)
    if token:
        headers["authorization"] = f"Bearer {token}"
    if env.get("SIGNET_AGENT_ID"):
        headers["x-signet-agent-id"] = env["SIGNET_AGENT_ID"]
    return headers
