"""The URL fetcher of document ingest (spec "URL Fetcher"): one GET within 30 s in all, a size
cap checked on Content-Length first and then while streaming (uncompressed: identity encoding),
a content-type allow-list, HTML reduced to text (scripts and styles dropped, tags removed,
entities decoded, title kept), and no fetches of non-public addresses (this machine, private
networks, cloud metadata) unless documents.allowPrivateUrls. The name is resolved once per hop and
the connection goes to the address checked, so a DNS answer that changes between the check and the
connection (rebinding) cannot reach this machine; redirects are followed here, each hop checked."""

from __future__ import annotations

import ipaddress
import socket
import ssl
import time
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser

import httpx

from signet_pipeline.errors import FetchError

TIMEOUT_S = 30.0
MAX_REDIRECTS = 5
PERMANENT = frozenset({"fetch_type", "fetch_too_large", "fetch_blocked", "fetch_rejected"})  # retrying cannot help
ALLOWED = ("text/", "application/json", "application/xml")
ACCEPT = "text/html, text/*, application/json, application/xml"
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


def _addresses(url: httpx.URL, *, allow_private: bool, treat_as_public: Collection[str]) -> list[str]:
    """The addresses of the URL's host, resolved once, to connect to as they are. Every one must be
    public (not this machine, a private or link-local network such as cloud metadata, or another
    reserved range): refusing a name with any non-public answer, rather than picking its public
    ones, leaves nothing to the order a resolver answers in."""
    host = url.raw_host.decode("ascii")  # IDNA form: what a resolver and TLS take
    if not host:
        raise FetchError(f"{url}: no host", code="fetch_blocked")
    try:
        found = socket.getaddrinfo(host, url.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise FetchError(f"{url}: cannot resolve {host}: {exc}") from exc
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not addresses:
        raise FetchError(f"{url}: {host} has no address")
    if allow_private:
        return addresses
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%")[0])
        if not ip.is_global and address not in treat_as_public:
            raise FetchError(f"{url}: {host} is a non-public address ({ip})", code="fetch_blocked")
    return addresses


@contextmanager
def _pinned(url: httpx.URL, addresses: list[str], tls: ssl.SSLContext, timeout_s: float) -> Iterator[httpx.Response]:
    """GET url from one of `addresses` (in the resolver's order; the next one when a connection is
    refused), never resolving the name again: the URL carries the address, while the Host header,
    TLS SNI and certificate verification keep the name. One client per hop, so a connection made
    for one name is never reused for another."""
    headers = {"host": url.netloc.decode("ascii"), "accept": ACCEPT,
               "accept-encoding": "identity"}  # the size cap counts wire bytes
    for n, address in enumerate(addresses, 1):
        # trust_env=False: an environment proxy would resolve the name itself
        with httpx.Client(timeout=timeout_s, verify=tls, trust_env=False, follow_redirects=False) as client:
            request = client.build_request("GET", url.copy_with(host=address), headers=headers,
                                           extensions={"sni_hostname": url.raw_host.decode("ascii")})
            try:
                response = client.send(request, stream=True)
            except httpx.ConnectError:
                if n == len(addresses):
                    raise
                continue
            try:
                yield response
            finally:
                response.close()
            return


def fetch_url(url: str, *, max_bytes: int, timeout_s: float = TIMEOUT_S, allow_private: bool = False,
              treat_as_public: Collection[str] = ()) -> Fetched:
    """Raises FetchError (never returns partial content) on a status >= 400, a type not allowed,
    a body over max_bytes, a non-public address (unless allow_private), a fetch longer than
    timeout_s in all, or a network error. Each hop (the URL, then at most MAX_REDIRECTS redirects)
    is resolved once, checked, and fetched from the address checked. `treat_as_public`: addresses
    let through as public, for tests that stand a loopback server in for a public host (never set
    by the service)."""
    deadline = time.monotonic() + timeout_s
    try:
        tls = httpx.create_ssl_context()  # honours SSL_CERT_FILE / SSL_CERT_DIR
        target = httpx.URL(url)
        for _ in range(MAX_REDIRECTS + 1):
            if target.scheme not in ("http", "https"):
                raise FetchError(f"{target}: only http and https URLs are fetched", code="fetch_blocked")
            addresses = _addresses(target, allow_private=allow_private, treat_as_public=treat_as_public)
            with _pinned(target, addresses, tls, max(0.1, deadline - time.monotonic())) as response:
                if response.is_redirect and response.headers.get("location"):
                    target = target.join(response.headers["location"])  # the name's URL, not the address's
                    continue
                return _read(str(target), response, max_bytes, deadline)
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
