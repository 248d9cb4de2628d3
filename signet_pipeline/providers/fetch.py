"""The URL fetcher of document ingest (spec "URL Fetcher"): one GET within 30 s in all, a size
cap checked on Content-Length first and then while streaming (uncompressed: identity encoding),
a content-type allow-list, HTML reduced to text (scripts and styles dropped, tags removed,
entities decoded, title kept), and no fetches of non-public addresses (this machine, private
networks, cloud metadata) unless documents.allowPrivateUrls."""

from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from urllib.parse import urlparse

import httpx

from signet_pipeline.errors import FetchError

TIMEOUT_S = 30.0
MAX_REDIRECTS = 5
PERMANENT = frozenset({"fetch_type", "fetch_too_large", "fetch_blocked", "fetch_rejected"})  # retrying cannot help
ALLOWED = ("text/", "application/json", "application/xml")
_SKIP = {"script", "style", "noscript", "template"}
_BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "pre", "blockquote",
          "title", "header", "footer", "table", "ul", "ol"}


@dataclass
class Fetched:
    content: str
    content_type: str
    title: str | None
    byte_length: int


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title: str | None = None
        self._skipping = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _SKIP:
            self._skipping += 1
        elif tag == "title" and self.title is None:
            self._in_title = True
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP and self._skipping:
            self._skipping -= 1
        elif tag == "title":
            self._in_title = False
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._skipping:
            return
        if self._in_title:
            self.title = ((self.title or "") + data).strip() or None
            return
        self.parts.append(data)


def html_to_text(html: str) -> tuple[str, str | None]:
    """(text, title): one paragraph per block element, whitespace collapsed inside lines."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    lines = (" ".join(unescape(line).split()) for line in "".join(parser.parts).split("\n"))
    return "\n".join(line for line in lines if line), parser.title


def _check_host(url: str) -> None:
    """Refuse a URL whose host resolves to this machine, a private or link-local network (cloud
    metadata), or another non-public range: a queued document must not read internal services."""
    host = urlparse(url).hostname
    if not host:
        raise FetchError(f"{url}: no host", code="fetch_blocked")
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except (OSError, UnicodeError) as exc:
        raise FetchError(f"{url}: cannot resolve {host}: {exc}") from exc
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%")[0])
        if not ip.is_global:
            raise FetchError(f"{url}: {host} is a non-public address ({ip})", code="fetch_blocked")


def fetch_url(url: str, *, max_bytes: int, timeout_s: float = TIMEOUT_S, allow_private: bool = False) -> Fetched:
    """Raises FetchError (never returns partial content) on a status >= 400, a type not allowed,
    a body over max_bytes, a non-public address (unless allow_private), a fetch longer than
    timeout_s in all, or a network error. Redirects (at most MAX_REDIRECTS) are checked like the
    first URL."""
    deadline = time.monotonic() + timeout_s
    try:
        with httpx.Client(timeout=timeout_s, follow_redirects=False,
                          headers={"accept": "text/html, text/*, application/json, application/xml",
                                   "accept-encoding": "identity"}) as client:  # the cap counts wire bytes
            for _ in range(MAX_REDIRECTS + 1):
                if not allow_private:
                    _check_host(url)
                with client.stream("GET", url) as response:
                    if response.is_redirect and response.headers.get("location"):
                        url = str(response.url.join(response.headers["location"]))
                        continue
                    return _read(url, response, max_bytes, deadline)
            raise FetchError(f"{url}: more than {MAX_REDIRECTS} redirects")
    except httpx.TimeoutException as exc:
        raise FetchError(f"{url}: timed out after {timeout_s:g} s", code="fetch_timeout") from exc
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise FetchError(f"{url}: {exc.__class__.__name__}: {exc}") from exc


def _read(url: str, response: httpx.Response, max_bytes: int, deadline: float) -> Fetched:
    if response.status_code >= 400:
        raise FetchError(f"{url}: HTTP {response.status_code}",
                         code="fetch_rejected" if response.status_code < 500 else "fetch_failed")
    content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
    if not content_type.startswith(ALLOWED):
        raise FetchError(f"{url}: content type {content_type or 'missing'!r} is not text", code="fetch_type")
    declared = response.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise FetchError(f"{url}: {declared} bytes is over the {max_bytes} byte limit", code="fetch_too_large")
    body = bytearray()
    for block in response.iter_raw():
        body += block
        if len(body) > max_bytes:
            raise FetchError(f"{url}: more than {max_bytes} bytes", code="fetch_too_large")
        if time.monotonic() > deadline:  # a server dripping bytes must not hold a worker forever
            raise FetchError(f"{url}: still reading at the time limit", code="fetch_timeout")
    text = body.decode(response.encoding or "utf-8", errors="replace")
    title = None
    if content_type == "text/html":
        text, title = html_to_text(text)
    return Fetched(text, content_type, title, len(body))


def chunk_text(text: str, *, size: int, overlap: int) -> list[str]:
    """Overlapping windows of `size` characters; a text shorter than one window is one chunk.
    Windows end at a whitespace when one is near, so words are not cut."""
    text = text.strip()
    if len(text) <= size:
        return [text] if text else []
    step = max(1, size - overlap)
    out, start = [], 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = text.rfind(" ", start + step, end)
            end = cut if cut > start else end
        out.append(text[start:end].strip())
        if end >= len(text):
            break
        start = max(start + 1, end - overlap)
    return [c for c in out if c]
