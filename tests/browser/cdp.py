"""One headless Chromium tab driven over the DevTools protocol, for what a person does with a mouse
(hover, click, the wheel) on a page whose content is drawn on a canvas. The websocket client is
the `websockets` package uvicorn[standard] brings. Other hosts stay unresolvable (FLAGS)."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.browser import CHROMIUM, FLAGS


class Tab:
    def __init__(self, url: str, *, size: str = "1280,900"):
        self.url, self.size = url, size
        self._ids = itertools.count(1)

    def __enter__(self) -> Tab:
        with ExitStack() as stack:
            profile = stack.enter_context(tempfile.TemporaryDirectory(ignore_cleanup_errors=True))
            proc = stack.enter_context(subprocess.Popen(
                [CHROMIUM, *FLAGS, "--remote-debugging-port=0", f"--window-size={self.size}",
                 f"--user-data-dir={profile}", "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                process_group=0))
            stack.callback(os.killpg, proc.pid, signal.SIGKILL)  # the browser and its helpers, before the wait
            port_file = Path(profile) / "DevToolsActivePort"  # Chromium writes its port there
            self.wait_until(lambda: port_file.exists() and port_file.read_text().strip(), what="the DevTools port")
            port = port_file.read_text().split()[0]
            page = next(t for t in httpx.get(f"http://127.0.0.1:{port}/json/list").json() if t["type"] == "page")
            self._ws = stack.enter_context(connect(page["webSocketDebuggerUrl"], max_size=None, open_timeout=30))
            self.send("Page.navigate", url=self.url)
            self._stack = stack.pop_all()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def send(self, method: str, **params: Any) -> dict:
        call = next(self._ids)
        self._ws.send(json.dumps({"id": call, "method": method, "params": params}))
        while True:  # events arrive in between; only this call's answer matters
            message = json.loads(self._ws.recv(timeout=60))
            if message.get("id") == call:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def js(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    @staticmethod
    def wait_until(check, *, what: str, timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while not (value := check()):
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            time.sleep(0.1)
        return value

    def wait_for(self, expression: str, *, timeout: float = 30.0) -> Any:
        """The expression's first truthy value; one that throws counts as not yet (the page may be loading)."""
        def check() -> Any:
            try:
                return self.js(expression)
            except RuntimeError:
                return None
        return self.wait_until(check, what=expression, timeout=timeout)

    def mouse(self, kind: str, x: float, y: float, **extra: Any) -> None:
        self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, **extra)

    def click(self, x: float, y: float) -> None:
        self.mouse("mouseMoved", x, y)
        for kind in ("mousePressed", "mouseReleased"):
            self.mouse(kind, x, y, button="left", clickCount=1)

    def wheel(self, x: float, y: float, delta_y: float) -> None:
        self.mouse("mouseWheel", x, y, deltaX=0, deltaY=delta_y)
