"""Python client for the Signet memory API.

    from signet_sdk import Client
    with Client() as signet:                       # SIGNET_DAEMON_URL, SIGNET_API_KEY / SIGNET_TOKEN
        saved = signet.remember("Ada prefers tabs over spaces", tags=["style"])
        for hit in signet.recall("what does Ada prefer?", limit=5).results:
            print(hit.score, hit.content)

`AsyncClient` has the same methods as coroutines. Errors are `SignetError` subclasses carrying
the API's stable error `code`.
"""

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

__all__ = [
    "AsyncClient", "AuthError", "Client", "ConnectionFailed", "Document", "ForgetResult", "HistoryEvent",
    "InvalidRequest", "Memory", "MemoryPage", "NotFound", "RateLimited", "RecallHit", "RecallResult",
    "RememberResult", "ServerError", "SignetError", "Status", "daemon_headers", "daemon_url",
]
