"""Fake provider servers on loopback that speak the real wire formats."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

Handler = Callable[[str, dict], tuple[int, object]]  # (path, json body) -> (status, json or raw str)


class FakeServer:
    def __init__(self, handler: Handler):
        self.requests: list[tuple[str, dict, dict]] = []
        outer = self

        class _H(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _reply(self, status: int, payload: object) -> None:
                body = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (timeout tests)

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                body = json.loads(raw or b"{}")
                outer.requests.append((self.path, body, dict(self.headers)))
                self._reply(*handler(self.path, body))

            do_GET = do_POST

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _H)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


def fake_vector(text: str, dims: int) -> list[float]:
    """Deterministic, non-normalized vector so tests can check normalization."""
    seed = sum(map(ord, text))
    return [float((seed * (i + 7)) % 13 + 1) for i in range(dims)]
