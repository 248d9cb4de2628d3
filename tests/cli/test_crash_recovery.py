"""Crash safety of the whole stack as a user runs it (`signet up`): kill -9 of the Dagster daemon,
of a drain run's worker mid-batch and of the API mid-burst, then (where the stack went down)
start it again. Every acknowledged memory is there, every job completes exactly once, no lease
or worker is left behind, and the store passes PRAGMA integrity_check."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import apsw
import httpx
import pytest

from bench.dagster_runs import runs
from evalsets.generate import remember_bodies
from signet_eval.server import ApiServer
from signet_pipeline.config import DB_RELATIVE_PATH

pytestmark = pytest.mark.slow
DRAIN_TIMEOUT_S = 600


def stack_pids(workspace: Path, needle: str) -> list[int]:
    """Processes of this workspace's stack whose command line contains `needle`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if needle in cmdline and f"SIGNET_WORKSPACE={workspace}".encode() in environ:
            found.append(int(entry.name))
    return found


def remember_all(server: ApiServer, bodies: list[dict]) -> dict[str, str]:
    """Remember from 4 threads; returns id -> agent of what the API acknowledged (200 with an id);
    requests that fail (the API was killed) are left out."""
    def one(body: dict) -> tuple[str, str] | None:
        try:
            response = httpx.post(server.base_url + "/api/memory/remember", json=body, timeout=30)
        except httpx.HTTPError:
            return None
        return (response.json()["id"], body["agentId"]) if response.status_code == 200 else None

    with ThreadPoolExecutor(4) as pool:
        return dict(found for found in pool.map(one, bodies) if found)


def wait_drained(server: ApiServer) -> dict:
    deadline = time.monotonic() + DRAIN_TIMEOUT_S
    while time.monotonic() < deadline:
        status = httpx.get(server.base_url + "/api/pipeline/status", timeout=30).json()
        if status["backlog"]["total"]["depth"] == 0:
            return status
        time.sleep(1)
    raise AssertionError(f"queues not drained: {status['backlog']}")


def wait_for(predicate, timeout_s: float = 120, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def check_store(workspace: Path, acknowledged: dict[str, str]) -> None:
    conn = apsw.Connection(str(workspace / DB_RELATIVE_PATH))
    try:
        def scalar(sql: str, *params) -> object:
            return conn.execute(sql, params).fetchone()[0]

        assert scalar("PRAGMA integrity_check") == "ok"
        conn.execute("CREATE TEMP TABLE acked(id TEXT PRIMARY KEY)")
        conn.executemany("INSERT OR IGNORE INTO acked VALUES (?)", [(i,) for i in acknowledged])
        assert scalar("SELECT count(*) FROM acked WHERE id NOT IN (SELECT id FROM memories)") == 0
        # Every job finished, once: no job left pending, leased or dead; one completed extract job
        # per memory; no lease owner or worker left behind.
        assert scalar("SELECT count(*) FROM memory_jobs WHERE status != 'completed'") == 0
        assert scalar("SELECT count(*) FROM (SELECT memory_id FROM memory_jobs WHERE job_type = 'extract' "
                      "GROUP BY memory_id HAVING count(*) > 1)") == 0
        assert scalar("SELECT count(*) FROM acked WHERE id NOT IN (SELECT memory_id FROM memory_jobs "
                      "WHERE job_type = 'extract')") == 0
        assert scalar("SELECT count(*) FROM memory_jobs WHERE lease_owner IS NOT NULL") == 0
        assert scalar("SELECT count(*) FROM queue_workers") == 0
        # Each source's facts were judged once: one pipeline audit row per (source, fact).
        assert scalar("SELECT count(*) FROM (SELECT json_extract(metadata, '$.sourceMemoryId') AS src, new_content "
                      "FROM memory_history WHERE actor_type = 'pipeline' AND event IN "
                      "('created', 'deduped', 'skipped', 'none', 'blocked') GROUP BY 1, 2 HAVING count(*) > 1)") == 0
        assert scalar("SELECT count(*) FROM (SELECT 1 FROM memories WHERE source_memory_id IS NOT NULL "
                      "GROUP BY source_memory_id, normalized_content HAVING count(*) > 1)") == 0
    finally:
        conn.close()


@pytest.fixture
def bodies():
    return remember_bodies(600, seed=23)


def up(workspace: Path, log: Path) -> ApiServer:
    server = ApiServer(workspace, log, with_dagster=True)
    server.start()
    return server


def test_kill_the_dagster_daemon_mid_drain_then_restart(tmp_path, bodies):
    workspace = tmp_path / "ws"
    workspace.mkdir()
    server = up(workspace, tmp_path / "up1.log")
    try:
        acknowledged = remember_all(server, bodies)
        wait_for(lambda: any(r.status == "STARTED" for r in runs(server.dagster_url)), what="a drain run")
        [daemon] = stack_pids(workspace, "dagster-daemon run")
        os.kill(daemon, signal.SIGKILL)
        server.proc.wait(timeout=60)  # `signet up` stops the rest of the stack when a child dies
    finally:
        server.stop()
    restart_and_drain(workspace, tmp_path / "up2.log")
    check_store(workspace, acknowledged)


def restart_and_drain(workspace: Path, log: Path, check=None) -> None:
    server = up(workspace, log)
    try:
        wait_drained(server)
        if check is not None:
            check(server)
    finally:
        server.stop()


def busy_worker(db: Path) -> tuple[int, str] | None:
    """(pid, run id) of the memory queues' drain worker while it holds leases."""
    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        return conn.execute("SELECT w.pid, w.owner FROM queue_workers w WHERE w.job_type LIKE 'extract%' AND EXISTS ("
                            "SELECT 1 FROM memory_jobs j WHERE j.lease_owner = w.owner)").fetchone()
    finally:
        conn.close()


def test_kill_a_run_worker_mid_batch(tmp_path, bodies):
    workspace = tmp_path / "ws"
    workspace.mkdir()
    server = up(workspace, tmp_path / "up.log")
    db = workspace / DB_RELATIVE_PATH
    try:
        with ThreadPoolExecutor(1) as ingest:  # the drain keeps up with the burst: catch it mid-batch
            burst = ingest.submit(remember_all, server, bodies)
            wait_for(lambda: db.exists() and busy_worker(db) is not None, what="a drain worker holding leases")
            pid, victim_run = busy_worker(db) or (None, None)
            os.kill(pid, signal.SIGKILL)
            acknowledged = burst.result()
        wait_drained(server)
        killed = next(r for r in runs(server.dagster_url) if r.run_id == victim_run)
        assert killed.status == "FAILURE"
        assert server.proc.poll() is None  # the stack stayed up: only that run died
    finally:
        server.stop()
    check_store(workspace, acknowledged)


def test_kill_the_api_mid_burst_then_restart(tmp_path, bodies):
    workspace = tmp_path / "ws"
    workspace.mkdir()
    server = up(workspace, tmp_path / "up1.log")
    try:
        with ThreadPoolExecutor(1) as killer:
            def kill_api_soon() -> None:
                db = workspace / DB_RELATIVE_PATH
                wait_for(lambda: db.exists() and apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY).execute(
                    "SELECT count(*) FROM memories").fetchone()[0] >= 150, what="150 memories")
                for pid in stack_pids(workspace, " serve "):
                    os.kill(pid, signal.SIGKILL)

            killing = killer.submit(kill_api_soon)
            acknowledged = remember_all(server, bodies)
            killing.result()
        assert 150 <= len(acknowledged) < len(bodies)
        server.proc.wait(timeout=60)
    finally:
        server.stop()
    def served(server: ApiServer) -> None:
        for memory_id, agent in list(acknowledged.items())[::25]:  # and the API serves them to their agent
            assert httpx.get(f"{server.base_url}/api/memory/{memory_id}", params={"agentId": agent},
                             timeout=30).status_code == 200

    restart_and_drain(workspace, tmp_path / "up2.log", served)
    check_store(workspace, acknowledged)
