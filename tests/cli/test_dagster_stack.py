"""`signet up`'s Dagster side: the instance prepared once before any Dagster process starts, a
storage stamped twice repaired, one from another Dagster named with its fix, the UI answering
only local names, and (slow) fresh stacks under a saturated CPU that each drain an extract job and
stop with their run CANCELED and its leases back."""

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import apsw
import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from signet_cli import dagster_instance, supervisor
from signet_cli.dagster_web import HostGuard
from signet_pipeline.auth import origins
from signet_pipeline.config import load_settings
from tests.fakes import FakeServer, RulesModel

RUNS_DB = "history/runs.db"


def prepared(tmp_path: Path) -> tuple[object, Path]:
    settings = load_settings(tmp_path / "ws")
    home = dagster_instance.write_config(settings)
    dagster_instance.prepare(home)
    return settings, home


def stamps(home: Path) -> list[str]:
    with sqlite3.connect(home / RUNS_DB) as conn:
        return [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")]


def test_prepare_creates_every_storage_at_head(tmp_path):
    _, home = prepared(tmp_path)
    for relative in dagster_instance.SQLITE_STORAGES:
        assert (home / relative).is_file()
    head = stamps(home)
    assert len(head) == 1
    assert "ready" in dagster_instance.prepare(home)  # a second prepare has nothing to do


def test_a_storage_stamped_twice_by_racing_processes_is_repaired(tmp_path):
    _, home = prepared(tmp_path)
    [head] = stamps(home)
    with sqlite3.connect(home / RUNS_DB) as conn:  # what two processes stamping one new file leave
        conn.execute("INSERT INTO alembic_version VALUES ('5771160a95ad')")
    summary = dagster_instance.prepare(home)
    assert "repaired double stamps in history/runs.db" in summary
    assert stamps(home) == [head]


def test_a_storage_from_another_dagster_is_named_with_its_fix_and_reset_clears_it(tmp_path):
    settings, home = prepared(tmp_path)
    with sqlite3.connect(home / RUNS_DB) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'ffffffffffff'")
    with pytest.raises(dagster_instance.DagsterStorageError) as failed:
        dagster_instance.prepare(home)
    message = str(failed.value)
    assert "\n" not in message and "signet dagster reset" in message and str(home) in message
    aside = dagster_instance.reset(home)
    assert (aside / RUNS_DB).is_file() and (home / "dagster.yaml").is_file()
    dagster_instance.prepare(home)
    assert len(stamps(home)) == 1


def test_dagster_processes_start_only_after_prepare_finished(tmp_path, monkeypatch):
    log = tmp_path / "starts.log"

    def script(name: str, *, sleep: float, code: int = 0) -> list[str]:
        body = (f"import time; open({str(log)!r}, 'a').write('{name} start %f\\n' % time.time()); "
                f"time.sleep({sleep}); open({str(log)!r}, 'a').write('{name} end %f\\n' % time.time()); "
                f"raise SystemExit({code})")
        return [sys.executable, "-c", body]

    def fake_commands(**_):
        return ({"api": script("api", sleep=4), supervisor.PREPARE: script("prepare", sleep=1.5)},
                {"dagster-webserver": script("web", sleep=30), "dagster-daemon": script("daemon", sleep=30)})

    monkeypatch.setattr(supervisor, "commands", fake_commands)
    monkeypatch.setattr(supervisor, "GRACE_S", 2.0)
    settings = load_settings(tmp_path / "ws")
    code = supervisor.run_stack(settings, api_port=1, dagster_port=free_port(), host="127.0.0.1", log_level="info")
    assert code == 1  # the fake API ended (code 0), which stops the stack
    events = {line.split()[0] + " " + line.split()[1]: float(line.split()[2]) for line in log.read_text().splitlines()}
    assert events["web start"] >= events["prepare end"] and events["daemon start"] >= events["prepare end"]
    assert events["api start"] < events["prepare end"]  # the API does not wait for Dagster


def test_the_daemon_and_its_runs_are_niced_below_the_api(tmp_path, monkeypatch):
    """Drain runs are the daemon's children: at dagster.niceness they yield the cores to recalls."""
    log = tmp_path / "nice.log"

    def script(name: str, sleep: float) -> list[str]:
        body = (f"import os, subprocess, sys, time; child = subprocess.run([sys.executable, '-c', "
                f"'import os; print(os.nice(0))'], capture_output=True, text=True).stdout.strip(); "
                f"open({str(log)!r}, 'a').write('{name} %d %s\\n' % (os.nice(0), child)); time.sleep({sleep})")
        return [sys.executable, "-c", body]

    def fake_commands(**_):
        return ({"api": script("api", 3), supervisor.PREPARE: [sys.executable, "-c", "pass"]},
                {"dagster-webserver": script("web", 30), "dagster-daemon": script("daemon", 30)})

    monkeypatch.setattr(supervisor, "commands", fake_commands)
    monkeypatch.setattr(supervisor, "GRACE_S", 2.0)
    base = os.nice(0)
    supervisor.run_stack(load_settings(tmp_path / "ws", dagster={"niceness": 7}), api_port=1,
                         dagster_port=free_port(), host="127.0.0.1", log_level="info")
    seen = {line.split()[0]: (int(line.split()[1]), int(line.split()[2])) for line in log.read_text().splitlines()}
    assert seen["api"] == (base, base) and seen["web"] == (base, base)
    assert seen["daemon"] == (min(base + 7, 19),) * 2  # the daemon, and a run process it starts


def test_a_failed_prepare_stops_the_stack_with_its_code(tmp_path, monkeypatch):
    def fake_commands(**_):
        return ({"api": [sys.executable, "-c", "import time; time.sleep(30)"],
                 supervisor.PREPARE: [sys.executable, "-c", "raise SystemExit(2)"]},
                {"dagster-webserver": [sys.executable, "-c", "raise SystemExit('must not start')"]})

    monkeypatch.setattr(supervisor, "commands", fake_commands)
    monkeypatch.setattr(supervisor, "GRACE_S", 2.0)
    assert supervisor.run_stack(load_settings(tmp_path / "ws"), api_port=1, dagster_port=free_port(),
                                host="127.0.0.1", log_level="info") == 2


def test_the_api_the_stack_starts_is_told_where_the_dagster_ui_listens(tmp_path, monkeypatch):
    """The dashboard's links and `signet status` follow `signet up --dagster-port`."""
    seen = tmp_path / "dagster-url"

    def fake_commands(**_):
        api = f"import os; open({str(seen)!r}, 'w').write(os.environ['SIGNET_DAGSTER_URL'])"
        prepare = "import time; time.sleep(30)"  # the API ends once it wrote what it was told: the stack stops
        return {"api": [sys.executable, "-c", api], supervisor.PREPARE: [sys.executable, "-c", prepare]}, {}

    monkeypatch.setattr(supervisor, "commands", fake_commands)
    monkeypatch.setattr(supervisor, "GRACE_S", 2.0)
    port = free_port()
    supervisor.run_stack(load_settings(tmp_path / "ws"), api_port=1, dagster_port=port, host="127.0.0.1",
                         log_level="info")
    assert seen.read_text() == f"http://127.0.0.1:{port}"


# -- the Dagster UI's host guard ----------------------------------------------------------------------


async def _echo(websocket):
    await websocket.accept()
    await websocket.send_text("hello")
    await websocket.close()


@pytest.fixture
def guarded():
    inner = Starlette(routes=[Route("/graphql", lambda r: PlainTextResponse("ran"), methods=["GET", "POST"]),
                              Route("/runs", lambda r: PlainTextResponse("page")),
                              WebSocketRoute("/graphql", _echo)])
    return TestClient(HostGuard(inner, origins.local_names(["dagster.lan"])), base_url="http://127.0.0.1:3000")


def test_the_dagster_ui_answers_local_names_only(guarded):
    assert guarded.post("/graphql", json={"query": "{__typename}"}).text == "ran"
    assert guarded.get("/runs", headers={"host": "localhost:3000"}).text == "page"
    assert guarded.get("/runs", headers={"host": "dagster.lan:3000"}).text == "page"  # auth.allowedHosts
    evil = guarded.post("/graphql", json={"query": "{__typename}"}, headers={"host": "evil.example"})
    assert evil.status_code == 403 and evil.json()["error"]["code"] == "host_not_allowed"


def test_the_dagster_ui_refuses_cross_site_graphql_and_websockets(guarded):
    # A page elsewhere can POST a query in the URL without a preflight; Dagster would run it.
    forged = guarded.post("/graphql?query=mutation", headers={"origin": "http://evil.example",
                                                               "content-type": "text/plain"})
    assert forged.status_code == 403
    assert guarded.get("/graphql?query=q", headers={"sec-fetch-site": "cross-site"}).status_code == 403
    assert guarded.post("/graphql", json={}, headers={"origin": "http://127.0.0.1:3000"}).text == "ran"
    assert guarded.get("/runs", headers={"sec-fetch-site": "cross-site"}).text == "page"  # a link into the UI
    with guarded.websocket_connect("ws://127.0.0.1:3000/graphql", headers={"origin": "http://127.0.0.1:3000"}) as ws:
        assert ws.receive_text() == "hello"
    with pytest.raises(WebSocketDisconnect):  # refused before the handshake
        with guarded.websocket_connect("ws://127.0.0.1:3000/graphql", headers={"origin": "http://evil.example"}) as ws:
            ws.receive_text()


# -- the real stack (slow) ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, **kw) -> httpx.Response | None:
    try:
        return httpx.get(url, timeout=5, **kw)
    except httpx.HTTPError:
        return None


def _burners(n: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "import time\nt=time.time()\nwhile time.time()-t<900: pass"])
            for _ in range(n)]


def _start(workspace: Path, **extra_env: str) -> tuple[subprocess.Popen, int, int, Path]:
    api, ui = free_port(), free_port()
    log = workspace.parent / f"{workspace.name}.log"
    env = {**os.environ, "SIGNET_WORKSPACE": str(workspace), **extra_env}
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "signet_cli", "up", "--port", str(api),
                                 "--dagster-port", str(ui)],
                                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    return proc, api, ui, log


def _wait(predicate, timeout: float, every: float = 1.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(every)
    return None


@pytest.mark.slow
def test_fresh_stacks_under_a_saturated_cpu_each_drain_an_extract_job(tmp_path):
    burners = _burners(2)
    try:
        for i in range(3):
            proc, api, ui, log = _start(tmp_path / f"ws{i}")
            try:
                up = _wait(lambda: (_get(f"http://127.0.0.1:{api}/health") and _get(f"http://127.0.0.1:{ui}/server_info")),
                           timeout=240)
                assert up, f"start {i}: not up; {log.read_text()[-2000:]}"
                httpx.post(f"http://127.0.0.1:{api}/api/memory/remember",
                           json={"content": f"Race {i}: the kettle is blue."})
                done = _wait(lambda: _get(f"http://127.0.0.1:{api}/api/pipeline/status").json()["queues"]
                             .get("extract", {}).get("completed", 0) >= 1, timeout=240, every=2)
                text = log.read_text()
                assert done, f"start {i}: the extract job never completed; {text[-3000:]}"
                assert "more than one head" not in text and "alembic_version" not in text
                assert _get(f"http://127.0.0.1:{api}/health").json()["pipeline"]["status"] == "up"
            finally:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(60)
    finally:
        for b in burners:
            b.kill()


@pytest.mark.slow
def test_ctrl_c_cancels_the_drain_in_flight_and_returns_its_leases(tmp_path):
    # A model that takes a second per call keeps the drain busy for minutes, so Ctrl-C lands with
    # leases held however fast the machine is (the offline rules provider drained 400 notes as fast
    # as they were posted, and the test found no lease to see on a quick CI machine).
    model = RulesModel(latency_s=1.0)
    with FakeServer(model.handler()) as fake:
        proc, api, ui, log = _start(tmp_path / "ws", SIGNET_MEMORY__PIPELINEV2__EXTRACTION__PROVIDER="openai",
                                    SIGNET_MEMORY__PIPELINEV2__EXTRACTION__BASE_URL=fake.url,
                                    SIGNET_MEMORY__PIPELINEV2__EXTRACTION__MODEL="fake")
        try:
            assert _wait(lambda: _get(f"http://127.0.0.1:{api}/health") and _get(f"http://127.0.0.1:{ui}/server_info"),
                         timeout=240)
            with httpx.Client(base_url=f"http://127.0.0.1:{api}", timeout=30) as c:
                for i in range(60):
                    c.post("/api/memory/remember",
                           json={"content": f"Note {i}: Alma took pottery class {i} with Bastian."})
                assert _wait(lambda: c.get("/api/pipeline/status").json()["queues"]["extract"].get("leased"), 180, 0.5)
                # The run leases its batch before its first call reaches the model: wait for that call, so
                # Ctrl-C lands in the middle of the model calls rather than between lease and request.
                assert _wait(lambda: model.max_in_flight >= 1, 60, 0.2)
        finally:
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in the terminal
            proc.wait(90)
    assert "canceling 1 Dagster run(s) in flight" in log.read_text()
    db = apsw.Connection(str(tmp_path / "ws" / "memory" / "memories.db"))
    assert list(db.execute("SELECT count(*) FROM memory_jobs WHERE status = 'leased'")) == [(0,)]
    assert list(db.execute("SELECT count(*) FROM memory_jobs WHERE status = 'pending' AND attempts > 0")) == [(0,)]
    runs = sqlite3.connect(tmp_path / "ws" / "dagster" / RUNS_DB).execute("SELECT status FROM runs").fetchall()
    assert runs and {status for (status,) in runs} == {"CANCELED"}, runs
