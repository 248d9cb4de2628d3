"""The URL fetcher of document ingest (spec "URL Fetcher"): one GET with a 30 s timeout, a size
cap checked on Content-Length first and then while streaming, a content-type allow-list, and
HTML reduced to text (scripts and styles dropped, tags removed, entities decoded, title kept)."""

from __future__ import annotations

from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser

import httpx

from signet_pipeline.errors import SignetError

TIMEOUT_S = 30.0
ALLOWED = ("text/", "application/json", "application/xml")
_SKIP = {"script", "style", "noscript", "template"}
_BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "pre", "blockquote",
          "title", "header", "footer", "table", "ul", "ol"}


class FetchError(SignetError):
    code = "fetch_failed"
    status = 502


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


def fetch_url(url: str, *, max_bytes: int, timeout_s: float = TIMEOUT_S) -> Fetched:
    """Raises FetchError (never returns partial content) on a status >= 400, a type not allowed,
    a body over max_bytes, a timeout or a network error."""
    try:
        with httpx.stream("GET", url, timeout=timeout_s, follow_redirects=True,
                          headers={"accept": "text/html, text/*, application/json, application/xml"}) as response:
            if response.status_code >= 400:
                raise FetchError(f"{url}: HTTP {response.status_code}")
            content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
            if not content_type.startswith(ALLOWED):
                raise FetchError(f"{url}: content type {content_type or 'missing'!r} is not text", code="fetch_type")
            declared = response.headers.get("content-length")
            if declared and declared.isdigit() and int(declared) > max_bytes:
                raise FetchError(f"{url}: {declared} bytes is over the {max_bytes} byte limit", code="fetch_too_large")
            body = bytearray()
            for block in response.iter_bytes():
                body += block
                if len(body) > max_bytes:
                    raise FetchError(f"{url}: more than {max_bytes} bytes", code="fetch_too_large")
            text = body.decode(response.encoding or "utf-8", errors="replace")
    except httpx.TimeoutException as exc:
        raise FetchError(f"{url}: timed out after {timeout_s:g} s", code="fetch_timeout") from exc
    except httpx.HTTPError as exc:
        raise FetchError(f"{url}: {exc.__class__.__name__}: {exc}") from exc
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
