"""A team server (issue 26): Dagster's run, event and schedule storage on PostgreSQL, chosen by one
setting (`dagster.storage`), and the run launcher named in config.

Fast: the dagster.yaml rendered for each setting is what Dagster's own schema accepts and holds no
password; a named launcher is loaded with its config; an unreachable server, a missing URL and a reset
of shared storage are one line each naming the fix.
Slow: a real PostgreSQL (Debian's, initdb'd in a temp dir on a free port, password auth),
`signet dagster prepare` creating Dagster's schema there, then `signet up`: a remembered memory is
drained by a sensor-launched run whose record, events and the sensor's ticks are rows in PostgreSQL,
with no SQLite storage in DAGSTER_HOME."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg2
import pytest
import yaml
from dagster import DagsterInstance
from dagster._core.instance.config import dagster_instance_config
from dagster._core.launcher import DefaultRunLauncher

from signet_cli import dagster_instance
from signet_cli.dagster_config import NUMBA_CACHE_ENV, POSTGRES_URL_ENV, dagster_env, instance_file, masked
from signet_cli.main import main as signet_main
from signet_pipeline.config import load_settings
from signet_pipeline.errors import ConfigError
from signet_pipeline.ops.settings_view import effective_config

PASSWORD = "team-pw-4c1d9e"  # distinctive, so "not in the file / the log" means something


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    """Only what a test sets: a developer's own SIGNET_DAGSTER__* must not leak in."""
    for name in [n for n in os.environ if n.startswith("SIGNET_DAGSTER__")]:
        monkeypatch.delenv(name)
    for name in ("DAGSTER_HOME", POSTGRES_URL_ENV):  # `signet dagster prepare` in process sets both: undo it after
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def workspace(tmp_path: Path, agent_yaml: dict[str, Any] | None = None) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir(exist_ok=True)
    if agent_yaml:
        (ws / "agent.yaml").write_text(yaml.safe_dump(agent_yaml))
    return ws


class RecordingLauncher(DefaultRunLauncher):
    """A launcher named in config, as dagster_docker.DockerRunLauncher would be: proves module, class
    and config reach Dagster."""

    def __init__(self, label: str, inst_data=None):
        super().__init__(inst_data=inst_data)
        self.label = label

    @classmethod
    def config_type(cls):
        return {"label": str}

    @classmethod
    def from_config_value(cls, inst_data, config_value):
        return cls(label=config_value["label"], inst_data=inst_data)


# -- dagster.yaml per setting (fast) ----------------------------------------------------------------------


def test_the_shipped_file_leaves_storage_and_launcher_to_the_settings():
    shipped = yaml.safe_load(instance_file("dagster.yaml").read_text())
    assert "storage" not in shipped and "run_launcher" not in shipped


def test_sqlite_by_default_with_runs_in_subprocesses_as_before(tmp_path, monkeypatch):
    monkeypatch.delenv(NUMBA_CACHE_ENV, raising=False)
    settings = load_settings(workspace(tmp_path))
    home = dagster_instance.write_config(settings)
    config, _ = dagster_instance_config(str(home))  # Dagster's own schema
    assert "storage" not in config  # Dagster's default: the SQLite files signet dagster reset knows
    assert config["run_launcher"] == {"module": "dagster.core.launcher", "class": "DefaultRunLauncher"}
    # UMAP's compiled code kept in the workspace across runs (or where the environment already says)
    assert dagster_env(settings) == {NUMBA_CACHE_ENV: str(settings.workspace / "cache" / "numba")}
    monkeypatch.setenv(NUMBA_CACHE_ENV, str(tmp_path / "elsewhere"))
    assert dagster_env(settings) == {NUMBA_CACHE_ENV: str(tmp_path / "elsewhere")}
    with DagsterInstance.from_config(str(home)) as instance:
        assert type(instance.run_launcher) is DefaultRunLauncher
        assert type(instance.run_storage).__name__ == "SqliteRunStorage"


def test_postgres_is_an_env_reference_dagster_accepts_and_the_password_is_nowhere(tmp_path, monkeypatch):
    url = f"postgresql://signet:{PASSWORD}@db.internal:5432/dagster"
    monkeypatch.setenv(POSTGRES_URL_ENV, url)
    settings = load_settings(workspace(tmp_path, {"dagster": {"storage": "postgres"}}))
    home = dagster_instance.write_config(settings)
    text = (home / "dagster.yaml").read_text()
    assert PASSWORD not in text and "db.internal" not in text
    config, _ = dagster_instance_config(str(home))
    assert config["storage"] == {"postgres": {"postgres_url": {"env": POSTGRES_URL_ENV}}}
    assert config["run_coordinator"]["class"] == "QueuedRunCoordinator"  # the shipped file's keys stay
    # the driver named: SQLAlchemy 2.1 would take a bare postgresql:// for psycopg 3, which is not installed
    assert dagster_env(settings)[POSTGRES_URL_ENV] == url.replace("postgresql://", "postgresql+psycopg2://")
    assert PASSWORD not in repr(settings) and PASSWORD not in str(effective_config(settings))  # GET /api/config


def test_the_url_may_come_from_agent_yaml_and_still_stays_out_of_dagster_yaml(tmp_path):
    url = f"postgresql+psycopg2://signet:{PASSWORD}@10.0.0.5/dagster"
    settings = load_settings(workspace(tmp_path, {"dagster": {"storage": "postgres", "postgresUrl": url}}))
    home = dagster_instance.write_config(settings)
    assert PASSWORD not in (home / "dagster.yaml").read_text()
    assert dagster_env(settings)[POSTGRES_URL_ENV] == url  # what signet up hands its Dagster processes


def test_a_launcher_named_in_config_is_loaded_with_its_config(tmp_path):
    launcher = {"module": __name__, "class": "RecordingLauncher", "config": {"label": "pods"}}
    settings = load_settings(workspace(tmp_path, {"dagster": {"runLauncher": launcher}}))
    home = dagster_instance.write_config(settings)
    assert "ready" in dagster_instance.prepare(home)
    with DagsterInstance.from_config(str(home)) as instance:
        assert type(instance.run_launcher).__name__ == "RecordingLauncher" and instance.run_launcher.label == "pods"


def test_a_launcher_that_cannot_load_is_one_line_at_prepare(tmp_path):
    launcher = {"module": "dagster_dockr", "class": "DockerRunLauncher"}
    home = dagster_instance.write_config(load_settings(workspace(tmp_path, {"dagster": {"runLauncher": launcher}})))
    with pytest.raises(ConfigError) as failed:
        dagster_instance.prepare(home)
    message = str(failed.value)
    assert "\n" not in message and "dagster_dockr.DockerRunLauncher" in message and "dagster.runLauncher" in message


@pytest.mark.parametrize("url, says", [
    (None, POSTGRES_URL_ENV),
    (f"postgres://signet:{PASSWORD}@h/db", "not a PostgreSQL URL"),
    (f"postgresql://signet:{PASSWORD}@h", "not a PostgreSQL URL"),  # no database
])
def test_a_missing_or_wrong_url_is_one_line(tmp_path, url, says):
    section = {"storage": "postgres", **({"postgresUrl": url} if url else {})}
    with pytest.raises(dagster_instance.DagsterStorageError) as failed:
        dagster_instance.write_config(load_settings(workspace(tmp_path, {"dagster": section})))
    assert says in str(failed.value) and PASSWORD not in str(failed.value) and "\n" not in str(failed.value)


def test_an_unreachable_server_is_one_line_with_its_fix(tmp_path, monkeypatch, capsys):
    port = free_port()  # nothing listens there
    url = f"postgresql://signet:{PASSWORD}@127.0.0.1:{port}/dagster"
    monkeypatch.setenv(POSTGRES_URL_ENV, url)
    ws = workspace(tmp_path, {"dagster": {"storage": "postgres"}})
    started = time.monotonic()
    code = signet_main(["--workspace", str(ws), "dagster", "prepare"])
    err = capsys.readouterr().err
    assert code == 2 and time.monotonic() - started < 30
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "cannot be reached" in err and "start it" in err and PASSWORD not in err
    assert f"signet:***@127.0.0.1:{port}/dagster" in err  # which server, password masked


def test_reset_never_touches_shared_postgres_storage(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(POSTGRES_URL_ENV, f"postgresql://signet:{PASSWORD}@127.0.0.1:5432/dagster")
    ws = workspace(tmp_path, {"dagster": {"storage": "postgres"}})
    home = dagster_instance.write_config(load_settings(ws))
    (home / "logs").mkdir()
    assert signet_main(["--workspace", str(ws), "dagster", "reset"]) == 2
    err = capsys.readouterr().err
    assert "SQLite storage only" in err and "never drops" in err and PASSWORD not in err
    assert (home / "logs").is_dir() and not list(home.glob("broken-*"))


def test_masked_urls():
    assert masked("postgresql://u:secret@h:5433/d") == "postgresql://u:***@h:5433/d"
    assert masked("postgresql://u@h/d") == "postgresql://u@h/d"
    assert masked("postgresql://u:secret@[::1]:5433/d") == "postgresql://u:***@[::1]:5433/d"
    assert "secret" not in masked("postgresql://u:secret@h:notaport/d")
    assert "secret" not in masked("u:secret@h/d")  # no scheme: urlsplit sees no password


# -- a real PostgreSQL (slow) ---------------------------------------------------------------------------------


def _pg_bin() -> Path | None:
    """Debian's versioned binaries (newest), else whatever initdb is on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Postgres:
    """A throw-away cluster: initdb in a temp dir, password (scram) auth over TCP on a free port.
    PostgreSQL refuses to run as root, so as root it runs as `nobody`."""

    def __init__(self, bin_dir: Path):
        self.bin, self.port = bin_dir, free_port()
        self.root = Path(tempfile.mkdtemp(prefix="signet-pg-"))  # short: the socket path has a length limit
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.root, nobody.pw_uid, nobody.pw_gid)
            self.as_user = ["runuser", "-u", "nobody", "--"]
        (self.root / "pw").write_text(PASSWORD)
        if self.as_user:
            os.chown(self.root / "pw", pwd.getpwnam("nobody").pw_uid, -1)

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run([*self.as_user, str(self.bin / tool), *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{tool}: {done.stdout}{done.stderr}"

    def start(self) -> None:
        data = self.root / "data"
        self._run("initdb", "-D", str(data), "-U", "signet", f"--pwfile={self.root / 'pw'}", "-E", "UTF8",
                  "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync")
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(data), "-l", str(self.root / "server.log"), "-o", options, "-w", "-t", "60",
                  "start")
        conn = self.connect("postgres")  # autocommit: CREATE DATABASE refuses a transaction
        try:
            conn.cursor().execute("CREATE DATABASE dagster")
        finally:
            conn.close()

    def stop(self) -> None:
        subprocess.run([*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate",
                        "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, db: str) -> str:
        return f"postgresql://signet:{PASSWORD}@127.0.0.1:{self.port}/{db}"

    def connect(self, db: str):
        conn = psycopg2.connect(self.url(db), connect_timeout=10)
        conn.autocommit = True
        return conn

    def rows(self, sql: str, *args: Any) -> list[tuple]:
        conn = self.connect("dagster")
        try:
            with conn.cursor() as cur:
                cur.execute(sql, args)
                return cur.fetchall()
        finally:
            conn.close()


@pytest.fixture
def postgres():
    bin_dir = _pg_bin()
    if bin_dir is None:
        pytest.skip("no PostgreSQL binaries (initdb) under /usr/lib/postgresql/*/bin or on PATH: "
                    "apt-get install postgresql (.ci/run does)")
    server = Postgres(bin_dir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


def _get(url: str) -> httpx.Response | None:
    try:
        return httpx.get(url, timeout=5)
    except httpx.HTTPError:
        return None


def _wait(predicate, timeout: float, every: float = 1.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(every)
    return None


@pytest.mark.slow
def test_a_team_server_keeps_runs_events_and_ticks_in_postgres(tmp_path, postgres):
    ws = workspace(tmp_path, {"dagster": {"storage": "postgres"}})  # the one setting; the URL from the environment
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("SIGNET_", "DAGSTER_"))},
           "SIGNET_WORKSPACE": str(ws), POSTGRES_URL_ENV: postgres.url("dagster")}
    prepared = subprocess.run([sys.executable, "-m", "signet_cli", "dagster", "prepare"], env=env,
                              capture_output=True, text=True, timeout=300)
    assert prepared.returncode == 0, prepared.stderr
    assert f"PostgreSQL at postgresql+psycopg2://signet:***@127.0.0.1:{postgres.port}/dagster" in prepared.stdout
    tables = {name for (name,) in postgres.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert {"runs", "event_logs", "jobs", "job_ticks", "alembic_version"} <= tables, tables
    assert len(postgres.rows("SELECT version_num FROM alembic_version")) == 1  # one head, as for SQLite
    home = ws / "dagster"
    assert PASSWORD not in (home / "dagster.yaml").read_text()

    api, ui = free_port(), free_port()
    log = tmp_path / "up.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "signet_cli", "up", "--port", str(api),
                                 "--dagster-port", str(ui)], env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    drained: list[tuple] = []
    try:
        up = _wait(lambda: _get(f"http://127.0.0.1:{api}/health") and _get(f"http://127.0.0.1:{ui}/server_info"), 240)
        assert up, log.read_text()[-3000:]
        httpx.post(f"http://127.0.0.1:{api}/api/memory/remember", json={"content": "Team: the kettle is blue."})
        drained = _wait(lambda: postgres.rows(
            "SELECT run_id FROM runs WHERE pipeline_name = 'process_memories' AND status = 'SUCCESS'"), 240, 2) or []
        assert drained, f"no drain run succeeded; {log.read_text()[-3000:]}"
        jobs = _get(f"http://127.0.0.1:{api}/api/pipeline/status").json()["queues"]["extract"]
        assert jobs.get("completed", 0) >= 1, jobs
        serving = log.read_text()  # a stop by SIGTERM to the whole group races the daemon's last tick
        assert "Traceback" not in serving, serving[-3000:]
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(90)

    [(run_id,)] = drained[:1]
    events = {kind for (kind,) in postgres.rows("SELECT dagster_event_type FROM event_logs WHERE run_id = %s", run_id)}
    assert {"PIPELINE_START", "ASSET_MATERIALIZATION", "PIPELINE_SUCCESS"} <= events, events  # Dagster's stored names
    tags = dict(postgres.rows("SELECT key, value FROM run_tags WHERE run_id = %s", run_id))
    assert tags.get("signet/queue") == "memory" and "dagster/sensor_name" in tags  # launched by the sensor
    assert postgres.rows("SELECT count(*) FROM job_ticks")[0][0] > 0  # the sensors' ticks: schedule storage
    assert not (home / "history").exists() and not (home / "schedules").exists()  # no SQLite storage
    assert PASSWORD not in log.read_text()
