"""`signet serve` (or the whole `signet up` stack: API + Dagster) in a subprocess on free loopback
ports, for the benchmarks, the evaluation and the crash tests; ready once the API (and the Dagster
webserver) answer.

The server runs with SIGNET_WORKSPACE pointing at the given workspace and is always stopped at
the end (SIGTERM, SIGKILL after a grace period). `proc_memory` reads the API process RSS.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

READY_TIMEOUT_S = 120.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proc_memory(pid: int) -> dict[str, float]:
    """VmRSS / VmHWM of a process in MB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = round(int(value.split()[0]) / 1024, 1)
    return out


class ApiServer:
    def __init__(self, workspace: Path, log_file: Path, *, with_dagster: bool = False,
                 env: dict[str, str] | None = None):
        # Absolute: the server runs with the workspace as its working directory, where a relative
        # path would name an empty workspace inside it.
        self.workspace = workspace.resolve()
        self.log_file = log_file
        self.with_dagster = with_dagster
        self.env = env or {}  # extra environment (SIGNET_* settings) for the server
        self.port = free_port()
        self.dagster_port = free_port()
        self.proc: subprocess.Popen | None = None
        self.startup_s = float("nan")

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def dagster_url(self) -> str:
        return f"http://127.0.0.1:{self.dagster_port}"

    def start(self) -> None:
        signet = Path(sys.executable).parent / "signet"
        cmd = [str(signet), "--log-level", "warning", "serve", "--port", str(self.port)]
        if self.with_dagster:
            cmd = [str(signet), "--log-level", "warning", "up", "--port", str(self.port),
                   "--dagster-port", str(self.dagster_port)]
        env = {**os.environ, **self.env, "SIGNET_WORKSPACE": str(self.workspace)}
        started = time.perf_counter()
        with open(self.log_file, "wb") as out:
            self.proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         cwd=str(self.workspace))
        deadline = started + READY_TIMEOUT_S
        while time.perf_counter() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{cmd[3]} exited with {self.proc.returncode}: "
                                   f"{self.log_file.read_text(errors='replace')[-2000:]}")
            if self._answers(self.base_url + "/health") and (
                    not self.with_dagster or self._answers(self.dagster_url + "/server_info")):
                self.startup_s = time.perf_counter() - started
                return
            time.sleep(0.2)
        raise RuntimeError(f"{cmd[3]} not ready after {READY_TIMEOUT_S:.0f} s")

    @staticmethod
    def _answers(url: str) -> bool:
        try:
            return httpx.get(url, timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False

    def __enter__(self) -> ApiServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()  # `signet up` stops its children (API, webserver, daemon) on SIGTERM
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
