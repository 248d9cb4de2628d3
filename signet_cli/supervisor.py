"""`signet up`: start the API, dagster-webserver and dagster-daemon as child processes and stop
them all together.

SIGINT/SIGTERM (Ctrl-C, or a SIGTERM to the process group) and the death of any child stop
the whole stack. Each child runs in its own process group so that its own children (Dagster's
gRPC code servers, which Dagster may respawn while shutting down) can be swept with it: the group
gets SIGTERM, then SIGKILL after a grace period. On Linux children also die with the supervisor.
Dagster's storage lives in $SIGNET_WORKSPACE/dagster (DAGSTER_HOME), apart from memories.db.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from signet_pipeline.config import Settings

GRACE_S = 15.0
DAGSTER_MODULE = "signet_pipeline.defs.definitions"


def instance_file(name: str) -> Path:
    """dagster.yaml / workspace.yaml: the checkout's top-level file, or the copy in the wheel."""
    import signet_pipeline

    package = Path(signet_pipeline.__file__).resolve().parent
    for candidate in (package.parent / name, package / "_instance" / name):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(f"{name} not found next to the signet_pipeline package")


def _script(name: str) -> str:
    local = Path(sys.executable).parent / name
    found = str(local) if local.exists() else shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} is not installed in this environment")
    return found


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        PR_SET_PDEATHSIG = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def prepare_dagster_home(settings: Settings) -> Path:
    home = settings.dagster_home
    home.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(instance_file("dagster.yaml"), home / "dagster.yaml")
    return home


def run_stack(settings: Settings, *, api_port: int, dagster_port: int, host: str, log_level: str) -> int:
    home = prepare_dagster_home(settings)
    settings.db_path.parent.mkdir(parents=True, exist_ok=True)
    # SIGNET_UP_STARTED_AT tells the sensors which Dagster runs belong to an earlier stack: their
    # workers died with it (children die with their supervisor), so those runs can be failed at once.
    env = {**os.environ, "SIGNET_WORKSPACE": str(settings.workspace), "DAGSTER_HOME": str(home),
           "SIGNET_UP_STARTED_AT": f"{time.time():.3f}"}
    commands = {
        "api": [sys.executable, "-m", "signet_cli", "--log-level", log_level, "serve", "--host", host,
                "--port", str(api_port)],
        "dagster-webserver": [_script("dagster-webserver"), "-h", "127.0.0.1", "-p", str(dagster_port),
                              "-m", DAGSTER_MODULE],
        "dagster-daemon": [_script("dagster-daemon"), "run", "-m", DAGSTER_MODULE],
    }
    stopping = False

    def _stop(signum, _frame):
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    children: dict[str, subprocess.Popen] = {}
    code = 0
    try:
        for name, cmd in commands.items():
            children[name] = subprocess.Popen(cmd, env=env, cwd=str(settings.workspace), process_group=0,
                                              preexec_fn=_die_with_parent)
        print(f"signet: API http://{host}:{api_port}  Dagster UI http://127.0.0.1:{dagster_port}  "
              f"(workspace {settings.workspace}); Ctrl-C stops everything", flush=True)
        while not stopping:
            dead = [(n, p.returncode) for n, p in children.items() if p.poll() is not None]
            if dead:
                name, rc = dead[0]
                print(f"signet: {name} exited with code {rc}; stopping the rest", file=sys.stderr, flush=True)
                code = rc or 1
                break
            time.sleep(0.2)
    finally:
        _terminate(children)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return code


def _signal_group(proc: subprocess.Popen, sig: signal.Signals) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _terminate(children: dict[str, subprocess.Popen]) -> None:
    for proc in children.values():
        _signal_group(proc, signal.SIGTERM)
    deadline = time.monotonic() + GRACE_S
    for proc in children.values():
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    for proc in children.values():  # stragglers, including grandchildren respawned during shutdown
        _signal_group(proc, signal.SIGKILL)
        proc.wait()
