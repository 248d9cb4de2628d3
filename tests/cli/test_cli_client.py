"""`signet remember | recall | list | forget | status` against a live API (SIGNET_DAEMON_URL)."""

import json

from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from signet_api.app import create_app
from tests.conftest import run_signet, settle
from tests.live_server import LiveServer


def test_remember_recall_list_forget_and_status_from_a_terminal(svc):
    with LiveServer(create_app(service=svc)) as server:
        env = {"SIGNET_DAEMON_URL": server.url, "SIGNET_API_KEY": "", "SIGNET_TOKEN": ""}
        saved = run_signet("remember", "The", "spare", "key", "hangs", "behind", "the", "garage", "door",
                           "--tags", "home", "--json", env=env)
        assert saved.returncode == 0, saved.stderr
        memory_id = json.loads(saved.stdout)["id"]
        settle(svc)
        found = run_signet("recall", "where is the key?", "--limit", "3", env=env)
        assert found.returncode == 0 and memory_id[:8] in found.stdout and "garage door" in found.stdout
        assert found.stdout.splitlines()[0].split() == ["score", "id", "type", "content"]
        as_json = json.loads(run_signet("recall", "garage", "--json", env=env).stdout)
        assert as_json["results"][0]["id"] == memory_id
        listed = run_signet("list", "--tags", "home", env=env)
        assert memory_id[:8] in listed.stdout and "1 shown of 1" in listed.stdout
        status = run_signet("status", "--dagster-url", "http://127.0.0.1:9", env=env)
        assert status.returncode == 0, status.stderr
        assert "memories  1 live" in status.stdout and "Dagster   not reachable" in status.stdout
        assert run_signet("forget", memory_id, env=env).returncode == 0
        gone = run_signet("forget", memory_id, env=env)
        assert gone.returncode == 1 and "signet:" in gone.stderr and "Traceback" not in gone.stderr


def test_a_bad_request_and_an_unreachable_api_are_one_line_errors():
    down = run_signet("recall", "anything", env={"SIGNET_DAEMON_URL": "http://127.0.0.1:9"})
    assert down.returncode == 1 and "connection_failed" in down.stderr and "Traceback" not in down.stderr


def test_status_checks_the_dagster_ui_the_stack_started_and_logs_no_requests(svc, monkeypatch):
    """`signet up --dagster-port P` tells its API where the UI is; `signet status` asks the API."""
    dagster_ui = Starlette(routes=[Route("/server_info", lambda _: JSONResponse({"dagster_webserver_version": "x"}))])
    with LiveServer(dagster_ui) as ui:
        monkeypatch.setenv("SIGNET_DAGSTER_URL", ui.url)  # what the supervisor gives the API it starts
        with LiveServer(create_app(service=svc)) as server:
            env = {"SIGNET_DAEMON_URL": server.url, "SIGNET_API_KEY": "", "SIGNET_TOKEN": "", "SIGNET_DAGSTER_URL": ""}
            status = run_signet("status", env=env)
    assert status.returncode == 0, status.stderr
    assert f"Dagster   up ({ui.url})" in status.stdout
    assert "HTTP Request" not in status.stdout + status.stderr
