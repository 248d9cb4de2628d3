"""One JSON POST over HTTP/1.1 on a plain socket, for `signet hook`: http.client (and so urllib and
httpx) imports the email package, which alone costs the hook process as much as its API call.
The request says `Connection: close`, so the answer ends where the stream does; chunked answers
are decoded; https loads ssl only when the URL asks for it."""

from __future__ import annotations

import json
import socket

MAX_ANSWER_BYTES = 4 * 1024 * 1024
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class HttpError(Exception):
    """Not an HTTP answer (a wrong URL, a cut connection)."""


class Refused(Exception):
    """The API answered, but not with what was asked for."""


def split_url(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path prefix) of http://host[:port][/prefix]."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in ("http", "https"):
        raise HttpError(f"not an http(s) URL: {url!r}")
    netloc, _, prefix = rest.partition("/")
    host, port = netloc, 443 if scheme == "https" else 80
    if netloc.startswith("["):  # [::1]:3850
        host, _, tail = netloc[1:].partition("]")
        port = int(tail[1:]) if tail.startswith(":") else port
    elif netloc.count(":") == 1:
        host, _, given = netloc.partition(":")
        port = int(given)
    return scheme, host, port, ("/" + prefix).rstrip("/")


def post(url: str, route: str, body: dict[str, Any], headers: dict[str, str], timeout: float) -> Any:
    """POST `body` as JSON to url + route; the answer's JSON. Refused for a 4xx/5xx (with the API's
    error code), HttpError for what is not an HTTP answer, OSError for the network."""
    scheme, host, port, prefix = split_url(url)
    try:  # UTF-8, not \u escapes: a transcript in another script would be twice the bytes
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate the harness sent: escaped, as JSON allows
        data = json.dumps(body).encode("ascii")
    authority = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    head = [f"POST {prefix}{route} HTTP/1.1", f"Host: {authority}", "Content-Type: application/json",
            f"Content-Length: {len(data)}", "Connection: close", "Accept: application/json",
            *(f"{name}: {value}" for name, value in headers.items())]
    with socket.create_connection((host, port), timeout=timeout) as raw:
        sock = raw
        if scheme == "https":
            import ssl

            sock = ssl.create_default_context().wrap_socket(raw, server_hostname=host)
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + data)
        answer = _read_all(sock)
    status, fields, content = _parse(answer)
    try:
        parsed = json.loads(content) if content.strip() else None
    except ValueError:
        parsed = None
    if status >= 400:
        error = parsed.get("error") if isinstance(parsed, dict) else None
        said = f"{error.get('code')}: {error.get('message')}" if isinstance(error, dict) else content[:200].decode(
            "utf-8", "replace")
        raise Refused(f"the API answered {status} ({said})")
    return parsed


def _read_all(sock: socket.socket) -> bytes:
    chunks, size = [], 0
    while chunk := sock.recv(65536):
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            raise HttpError(f"answer over {MAX_ANSWER_BYTES} bytes")
    return b"".join(chunks)


def _parse(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    head, sep, content = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if not sep or len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise HttpError("not an HTTP answer")
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    if "chunked" in fields.get("transfer-encoding", "").lower():
        content = _dechunk(content)
    elif fields.get("content-length", "").isdigit():
        content = content[:int(fields["content-length"])]
    return int(parts[1]), fields, content


def _dechunk(content: bytes) -> bytes:
    out: list[bytes] = []
    pos = 0
    while True:
        line_end = content.find(b"\r\n", pos)
        if line_end < 0:
            raise HttpError("a chunked answer was cut")
        try:
            size = int(content[pos:line_end].split(b";")[0] or b"0", 16)
        except ValueError as exc:
            raise HttpError("a chunked answer with a bad chunk size") from exc
        if size == 0:
            return b"".join(out)
        out.append(content[line_end + 2:line_end + 2 + size])
        pos = line_end + 2 + size + 2
