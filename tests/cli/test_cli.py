import os
import subprocess
import sys
import time

import httpx

from tests.conftest import run_signet


def test_bad_config_fails_fast_with_the_key_named(tmp_path):
    (tmp_path / "agent.yaml").write_text("search:\n  alpha: 7\n")
    result = run_signet("serve", env={"SIGNET_WORKSPACE": str(tmp_path)})
    assert result.returncode == 2
    assert "search.alpha" in result.stderr


def test_help_lists_the_commands():
    out = run_signet("--help").stdout
    assert "serve" in out and "up" in out


def free_port() -> int:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_serve_answers_health_and_stops_on_sigterm(tmp_path):
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "signet_cli", "serve", "--port", str(port)],
                            env={**os.environ, "SIGNET_WORKSPACE": str(tmp_path)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).json()
                break
            except httpx.HTTPError:
                assert proc.poll() is None, proc.stderr.read()
                assert time.monotonic() < deadline, "API did not start"
                time.sleep(0.2)
        assert health["status"] == "healthy" and health["db"] is True and health["port"] == port
        assert health["agentsDir"] == str(tmp_path)
        assert (tmp_path / "memory" / "memories.db").exists()
    finally:
        proc.terminate()
        # uvicorn shuts down gracefully, then re-raises SIGTERM so the exit status says why it stopped
        assert proc.wait(timeout=30) in (0, -15)
    assert "Application shutdown complete" in proc.stderr.read()


def test_up_starts_api_and_dagster_and_stops_cleanly(tmp_path):
    api, ui = free_port(), free_port()
    log = tmp_path / "up.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "signet_cli", "up", "--port", str(api), "--dagster-port",
                                 str(ui)], env={**os.environ, "SIGNET_WORKSPACE": str(tmp_path / "ws")},
                                process_group=0, stdout=out, stderr=subprocess.STDOUT)

    def tail() -> str:
        return log.read_text(errors="replace")[-3000:]

    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{api}/health", timeout=1).raise_for_status()
                httpx.get(f"http://127.0.0.1:{ui}/server_info", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                assert proc.poll() is None and time.monotonic() < deadline, tail()
                time.sleep(0.5)
        assert (tmp_path / "ws" / "dagster" / "dagster.yaml").exists()
        children = {pid: start_time(pid) for pid in descendants(proc.pid)}
        assert len(children) >= 3  # api, dagster-webserver, dagster-daemon (+ their code servers)
    finally:
        os.killpg(proc.pid, 15)  # what a terminal's Ctrl-C or a service manager's stop does
        assert proc.wait(timeout=30) == 0, tail()
    deadline = time.monotonic() + 10
    # A pid counts as still running only if it is the same process (same start time): pids of
    # short-lived children are reused.
    while alive := [pid for pid, started in children.items() if started and start_time(pid) == started]:
        assert time.monotonic() < deadline, f"still running after stop: {alive}\n{tail()}"
        time.sleep(0.2)


def start_time(pid: int) -> int | None:
    """Start time of a live (non-zombie) process from /proc/<pid>/stat, None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else int(fields[19])


def descendants(pid: int) -> list[int]:
    """Every process below pid, from /proc (children of children included)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def test_token_create_prints_a_token_the_workspace_secret_verifies(tmp_path):
    from signet_pipeline.auth.tokens import load_or_create_secret, verify

    result = run_signet("token", "create", "--role", "agent", "--sub", "ci-bot", "--agent", "ci", "--ttl", "2",
                        env={"SIGNET_WORKSPACE": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    claims = verify(load_or_create_secret(tmp_path / "auth.secret"), result.stdout.strip())
    assert (claims.sub, claims.role, claims.scope.agent, claims.exp - claims.iat) == ("ci-bot", "agent", "ci", 172800)
    bad = run_signet("token", "create", "--role", "root", "--sub", "x", env={"SIGNET_WORKSPACE": str(tmp_path)})
    assert bad.returncode == 2 and "invalid choice" in bad.stderr


def test_local_mode_refuses_to_listen_beyond_localhost(tmp_path):
    result = run_signet("serve", "--host", "0.0.0.0", env={"SIGNET_WORKSPACE": str(tmp_path)})
    assert result.returncode == 2 and "only binds to localhost" in result.stderr
