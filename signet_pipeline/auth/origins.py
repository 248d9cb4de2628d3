"""Whether a request that carries no token may be trusted as coming from this machine: it names the
server by a local name (a web page whose DNS name was rebound to 127.0.0.1 still sends its own name
as Host), and no browser sent it on behalf of another site (a page can POST to 127.0.0.1 without
CORS letting it read the answer; the Origin and Sec-Fetch-Site headers browsers add tell).
The API (signet_api/auth.py, routes/mcp.py) and the Dagster UI guard (signet_cli/dagster_web.py)
apply the same rules."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Content types a page may send cross-site without a CORS preflight (a form, a text/plain fetch).
SIMPLE_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"})


def local_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """Loopback names plus the ones the operator configured (auth.allowedHosts, server.host)."""
    return LOOPBACK_NAMES | {name.strip().lower() for name in extra if name and name.strip()}


def hostname(host_header: str) -> str:
    """The name in a Host header ("127.0.0.1:3000" -> "127.0.0.1", "[::1]:80" -> "::1"); "" if unreadable."""
    try:
        return (urlsplit(f"//{host_header}").hostname or "").lower()
    except ValueError:
        return ""


def origin_host(origin: str) -> str:
    """The name in an Origin header ("http://localhost:6274" -> "localhost"); "" if unreadable or "null"."""
    try:
        return (urlsplit(origin).hostname or "").lower()
    except ValueError:
        return ""


def unpreflighted(method: str, content_type: str | None) -> bool:
    """Whether a browser sends this request cross-site without asking first: a POST with no body
    type or a form/text one. Anything else (a JSON body, PUT/PATCH/DELETE) needs a CORS preflight,
    which this server never grants, so a page elsewhere cannot send it."""
    media = (content_type or "").split(";")[0].strip().lower()
    return method == "POST" and (not media or media in SIMPLE_TYPES)


def cross_site(origin: str | None, fetch_site: str | None, host_header: str) -> str | None:
    """Why a browser sent this request from another origin, or None when it did not (no browser,
    or a page of this very server)."""
    if origin is not None:
        try:
            netloc = urlsplit(origin).netloc.lower() if origin != "null" else ""
        except ValueError:
            netloc = ""
        if netloc != host_header.strip().lower():
            return f"origin {origin!r} is not this server ({host_header})"
    if fetch_site is not None and fetch_site.strip().lower() in ("cross-site", "same-site"):
        return f"a browser sent it from another site (Sec-Fetch-Site: {fetch_site})"
    return None
