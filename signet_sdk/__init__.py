"""Python client for the Signet memory API.

    from signet_sdk import Client
    with Client() as signet:                       # SIGNET_DAEMON_URL, SIGNET_API_KEY / SIGNET_TOKEN
        saved = signet.remember("Ada prefers tabs over spaces", tags=["style"])
        for hit in signet.recall("what does Ada prefer?", limit=5).results:
            print(hit.score, hit.content)

`AsyncClient` has the same methods as coroutines. Errors are `SignetError` subclasses carrying
the API's stable error `code`.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # typing is not imported at run time: `signet hook` starts on every prompt
if TYPE_CHECKING:
    from typing import Any

    from signet_sdk.client import AsyncClient, Client
    from signet_sdk.connection import daemon_headers, daemon_url
    from signet_sdk.errors import (
        AuthError,
        ConnectionFailed,
        InvalidRequest,
        NotFound,
        RateLimited,
        ServerError,
        SignetError,
    )
    from signet_sdk.models import (
        Document,
        ForgetResult,
        HistoryEvent,
        Memory,
        MemoryPage,
        RecallHit,
        RecallResult,
        RememberResult,
        Status,
    )

# Name -> the module that defines it, loaded on first use: `signet hook` runs on every prompt and
# reads only `connection`, without paying for httpx and pydantic.
_EXPORTS = {
    **dict.fromkeys(("AsyncClient", "Client"), "client"),
    **dict.fromkeys(("daemon_headers", "daemon_url"), "connection"),
    **dict.fromkeys(("AuthError", "ConnectionFailed", "InvalidRequest", "NotFound", "RateLimited", "ServerError",
                     "SignetError"), "errors"),
    **dict.fromkeys(("Document", "ForgetResult", "HistoryEvent", "Memory", "MemoryPage", "RecallHit", "RecallResult",
                     "RememberResult", "Status"), "models"),
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'signet_sdk' has no attribute {name!r}")
    value = getattr(import_module(f"signet_sdk.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value
