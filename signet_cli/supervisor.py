"""`signet up`: start the API, the Dagster UI and dagster-daemon as child processes and stop them
all together. The UI and daemon start only once `signet dagster prepare` succeeded, so no two
Dagster processes ever migrate one storage. A signal or any child's death stops the stack: runs in
flight are canceled first (a stopped drain ends CANCELED, its leases back), then each child's
process group gets SIGTERM, then SIGKILL (docs/internals.md; docs/decisions.md, "`signet up`
supervises process groups")."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from signet_cli.dagster_config import dagster_env
from signet_cli.dagster_instance import DAGSTER_MODULE, write_config
from signet_pipeline.config import Settings
from signet_pipeline.ops.pipeline_health import DAGSTER_URL_ENV, STACK_STARTED_ENV, stop_marker

GRACE_S = 15.0
CANCEL_WAIT_S = 20.0
PREPARE = "dagster-prepare"
IN_FLIGHT = ["QUEUED", "NOT_STARTED", "STARTING", "STARTED", "CANCELING"]
RUNS_QUERY = ("query Runs($statuses: [RunStatus!]) { runsOrError(filter: {statuses: $statuses}) "
              "{ ... on Runs { results { runId } } } }")
TERMINATE = ("mutation Terminate($ids: [String!]!) { terminateRuns(runIds: $ids, terminatePolicy: SAFE_TERMINATE) "
             "{ __typename } }")


def _script(name: str) -> str:
    local = Path(sys.executable).parent / name
    found = str(local) if local.exists() else shutil.which(name)
    if not found:
        raise FileNotFoundError(f"{name} is not installed in this environment")
    return found


def _child_setup(niceness: int) -> None:  # runs in the child between fork and exec
    if sys.platform.startswith("linux"):  # die with the parent
        PR_SET_PDEATHSIG = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if niceness:
        os.nice(niceness)


def commands(*, api_port: int, dagster_port: int, host: str, log_level: str) -> tuple[dict[str, list[str]],
                                                                                     dict[str, list[str]]]:
    """(started at once: the API and prepare, started once prepare succeeded: Dagster's processes)."""
    cli = [sys.executable, "-m", "signet_cli", "--log-level", log_level]
    first = {"api": cli + ["serve", "--host", host, "--port", str(api_port)], PREPARE: cli + ["dagster", "prepare"]}
    dagster = {
        "dagster-webserver": [sys.executable, "-m", "signet_cli.dagster_web", "--host", "127.0.0.1",
                              "--port", str(dagster_port)],
        "dagster-daemon": [_script("dagster-daemon"), "run", "-m", DAGSTER_MODULE],
    }
    return first, dagster


def run_stack(settings: Settings, *, api_port: int, dagster_port: int, host: str, log_level: str) -> int:
    home = write_config(settings)
    settings.db_path.parent.mkdir(parents=True, exist_ok=True)
    # SIGNET_UP_STARTED_AT tells the sensors which Dagster runs belong to an earlier stack (their
    # workers died with it, so those runs can be failed at once) and the API that a pipeline is due.
    # dagster_env: the PostgreSQL URL dagster.yaml refers to by name, when agent.yaml set it, and numba's
    # cache directory (UMAP's compiled code kept across runs).
    # DAGSTER_URL_ENV: where the API's dashboard links to the Dagster UI.
    env = {**os.environ, **dagster_env(settings), "SIGNET_WORKSPACE": str(settings.workspace),
           "DAGSTER_HOME": str(home), STACK_STARTED_ENV: f"{time.time():.3f}",
           DAGSTER_URL_ENV: f"http://127.0.0.1:{dagster_port}"}
    first, dagster = commands(api_port=api_port, dagster_port=dagster_port, host=host, log_level=log_level)
    stopping = False

    def _stop(signum, _frame):
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    children: dict[str, subprocess.Popen] = {}

    def start(name: str, cmd: list[str]) -> None:
        # The daemon's sensors and the drain runs it launches are background work: the API goes first.
        niceness = settings.dagster.niceness if name == "dagster-daemon" else 0
        children[name] = subprocess.Popen(cmd, env=env, cwd=str(settings.workspace), process_group=0,
                                          preexec_fn=lambda: _child_setup(niceness))

    code = 0
    try:
        for name, cmd in first.items():
            start(name, cmd)
        print(f"signet: API http://{host}:{api_port}  Dagster UI http://127.0.0.1:{dagster_port}  "
              f"(workspace {settings.workspace}); Ctrl-C stops everything", flush=True)
        while not stopping:
            prepare = children.get(PREPARE)
            if prepare is not None and prepare.poll() is not None:
                if prepare.returncode != 0:  # it printed what is wrong and the command that fixes it
                    print("signet: Dagster's storage is not ready (see above); stopping", file=sys.stderr, flush=True)
                    code = prepare.returncode
                    break
                del children[PREPARE]
                for name, cmd in dagster.items():
                    start(name, cmd)
            dead = [(n, p.returncode) for n, p in children.items() if n != PREPARE and p.poll() is not None]
            if dead:
                name, rc = dead[0]
                print(f"signet: {name} exited with code {rc}; stopping the rest", file=sys.stderr, flush=True)
                code = rc or 1
                break
            time.sleep(0.2)
    finally:
        web = children.get("dagster-webserver")
        if web is not None and web.poll() is None:
            cancel_runs(home, dagster_port)
        _terminate(children)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return code


def _graphql(http: httpx.Client, port: int, query: str, variables: dict) -> dict:
    response = http.post(f"http://127.0.0.1:{port}/graphql", json={"query": query, "variables": variables})
    response.raise_for_status()
    return response.json()["data"]


def _run_ids(http: httpx.Client, port: int, statuses: list[str]) -> list[str]:
    found = _graphql(http, port, RUNS_QUERY, {"statuses": statuses})["runsOrError"].get("results", [])
    return [run["runId"] for run in found]


def cancel_runs(home: Path, port: int) -> int:
    """Announce the stop to the sensors, cancel every run in flight and wait (bounded) until they
    ended. Returns the runs canceled; an unreachable UI only costs the runs their clean ending."""
    stop_marker(home).touch()
    try:
        with httpx.Client(timeout=10) as http:
            ids = _run_ids(http, port, IN_FLIGHT)
            if not ids:
                return 0
            print(f"signet: canceling {len(ids)} Dagster run(s) in flight", flush=True)
            _graphql(http, port, TERMINATE, {"ids": ids})
            deadline = time.monotonic() + CANCEL_WAIT_S
            while time.monotonic() < deadline and _run_ids(http, port, IN_FLIGHT):
                time.sleep(0.5)
            return len(ids)
    except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
        print(f"signet: could not cancel the runs in flight ({exc}); stopping them by signal", file=sys.stderr)
        return 0


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
