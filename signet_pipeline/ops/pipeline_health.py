"""Is anything draining the queue? The queue sensors beat into pipeline_heartbeats from Dagster's
code location (defs/queue/sensors.py); /health, /api/status, /api/pipeline/status and `signet status`
read the beat here. A sensor ticks only while the daemon runs AND the code location loads, so a
missing beat catches both ways a pipeline dies (a dead daemon, a location that failed to load)
where Dagster's own daemon heartbeat would catch only the first.

`signet up` (signet_cli/supervisor.py) sets SIGNET_UP_STARTED_AT in every child's environment: the
API then knows a pipeline is expected and since when, and the sensors know which Dagster runs an
earlier stack left behind; and SIGNET_DAGSTER_URL, where its Dagster UI listens (the dashboard
links there, `signet status` checks there). A stop the operator asked for is announced by a marker
file in DAGSTER_HOME, so the sensors launch no new drain while the supervisor cancels the running
ones.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path
from typing import Literal

import apsw
from pydantic import BaseModel

from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.db import Database
from signet_pipeline.timeutil import now_iso, parse_iso

BEAT_EVERY_S = 10.0  # at most one write per component this often (sensors tick every ~2 s)
STALE_AFTER_S = 60.0  # several missed beats: nothing launches drain runs
START_GRACE_S = 180.0  # a stack this young without a beat is starting (Dagster loads in ~10-60 s)
STACK_STARTED_ENV = "SIGNET_UP_STARTED_AT"
DAGSTER_URL_ENV = "SIGNET_DAGSTER_URL"
STOP_MARKER = "signet-stopping"

Status = Literal["up", "starting", "down", "absent"]

_last_beat: dict[str, float] = {}
_beat_lock = threading.Lock()


class PipelineState(BaseModel):
    status: Status
    heartbeatAgeS: float | None = None
    component: str | None = None
    message: str


def stack_started_at() -> float | None:
    """When the `signet up` this process belongs to started; None outside `signet up`."""
    try:
        return float(os.environ[STACK_STARTED_ENV])
    except (KeyError, ValueError):
        return None


def dagster_url() -> str | None:
    """The Dagster UI of the stack this process belongs to; None when nothing said where it is."""
    return os.environ.get(DAGSTER_URL_ENV, "").rstrip("/") or None


def stop_marker(home: Path) -> Path:
    return home / STOP_MARKER


def stopping() -> bool:
    """Whether the `signet up` running this code location is stopping (sensors launch nothing)."""
    home = os.environ.get("DAGSTER_HOME")
    return stop_marker(Path(home)).exists() if home else False


def beat(db: Database, component: str, *, every_s: float = BEAT_EVERY_S) -> bool:
    """Record that `component` is alive, at most once per `every_s` in this process. True when written."""
    now = time.monotonic()
    with _beat_lock:
        if now - _last_beat.get(component, float("-inf")) < every_s:
            return False
        _last_beat[component] = now
    try:
        with db.write() as conn:
            job_store.record_heartbeat(conn, component=component, pid=os.getpid(), host=socket.gethostname(),
                                       now=now_iso())
    except apsw.SQLError:  # a store the API has not migrated yet (it does at start): beat on a later tick
        with _beat_lock:
            _last_beat.pop(component, None)
        return False
    return True


def state(db: Database, *, now: float | None = None) -> PipelineState:
    """up: a sensor beat recently; starting: `signet up` started less than START_GRACE_S ago and no
    beat yet; down: a pipeline is expected (this is `signet up`, or one beat before) and none beats;
    absent: `signet serve` alone, which runs no pipeline."""
    now = time.time() if now is None else now
    latest = next(iter(job_store.heartbeats(db.reader())), None)
    age = round(now - parse_iso(latest["beat_at"]).timestamp(), 1) if latest else None
    component = latest["component"] if latest else None
    if age is not None and age <= STALE_AFTER_S:
        return PipelineState(status="up", heartbeatAgeS=age, component=component,
                             message=f"{component} ticked {age:.0f} s ago")
    started = stack_started_at()
    if started is not None and now - started < START_GRACE_S and (latest is None or _before(latest, started)):
        return PipelineState(status="starting", heartbeatAgeS=age, component=component,
                             message=f"signet up started {now - started:.0f} s ago; waiting for the first sensor tick")
    if started is None and latest is None:
        return PipelineState(status="absent", message="no pipeline has run on this store (`signet up` starts one)")
    since = f"for {age:.0f} s" if age is not None else "since start"
    return PipelineState(status="down", heartbeatAgeS=age, component=component,
                         message=f"no Dagster sensor has ticked {since}: nothing drains memory_jobs. Check the "
                                 "dagster-daemon and the code location in the Dagster UI (Deployment), or restart "
                                 "`signet up` (README: \"When the pipeline is stuck\")")


def _before(row: dict, started: float) -> bool:
    return parse_iso(row["beat_at"]).timestamp() < started
