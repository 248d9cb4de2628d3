from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.config import load_settings
from signet_pipeline.providers.embeddings.onnx import OnnxMiniLM
from signet_pipeline.service import MemoryService

TESTS = Path(__file__).resolve().parent  # the shared support (this file, fakes, browser/, data/)
ROOT = TESTS.parent  # the repository: pyproject.toml, dagster.yaml, docs/, the packages
DATA = TESTS / "data"


@pytest.fixture(scope="session")
def embedder() -> OnnxMiniLM:
    """The real offline embedder, loaded once for the whole run (as the service does)."""
    return OnnxMiniLM(threads=1)


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    monkeypatch.delenv("SIGNET_WORKSPACE", raising=False)
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))  # codex-native-note never writes to ~/.codex
    # Drain runs end as soon as their queue is empty (no linger waiting for new jobs).
    monkeypatch.setenv("SIGNET_MEMORY__PIPELINEV2__WORKER__RUN_IDLE_MS", "0")
    return tmp_path / "ws"


@pytest.fixture
def make_service(workspace, embedder):
    made: list[MemoryService] = []

    def _make(embedder_override=None, **overrides) -> MemoryService:
        # TestClient addresses the app as http://testserver: a local name for these tests.
        overrides["auth"] = {"allowed_hosts": ["testserver"], **overrides.get("auth", {})}
        svc = MemoryService(load_settings(workspace, **overrides), embedder=embedder_override or embedder)
        made.append(svc)
        return svc

    yield _make
    for svc in made:
        svc.close()


@pytest.fixture
def svc(make_service) -> MemoryService:
    return make_service()


@pytest.fixture
def client(svc):
    with TestClient(create_app(service=svc)) as c:
        yield c


def remember(client, content: str, **fields) -> dict:
    """Remember over the API, then wait for the write-behind vector: tests look into the store
    directly, where a later API request would wait for it anyway."""
    response = client.post("/api/memory/remember", json={"content": content, **fields})
    assert response.status_code == 200, response.text
    settle(client.app.state.service)
    return response.json()


def settle(svc: MemoryService) -> None:
    # A minute, not the service's 5 s: thousands of queued vectors on a loaded CI machine take a while.
    if svc.embed_behind is not None:
        assert svc.embed_behind.settle(timeout=60)


def recall(client, query: str, **fields) -> dict:
    response = client.post("/api/memory/recall", json={"query": query, **fields})
    assert response.status_code == 200, response.text
    return response.json()


def bearer(svc: MemoryService, role: str, sub: str, agent: str | None = None) -> dict[str, str]:
    """The Authorization header of a token the service's workspace secret signs (team-mode tests)."""
    from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret

    secret = load_or_create_secret(svc.settings.auth_secret_path)
    return {"authorization": f"Bearer {issue(secret, sub=sub, role=role, scope=TokenScope(agent=agent), ttl_s=600)[0]}"}


def run_signet(*args, env=None, timeout=60) -> subprocess.CompletedProcess:
    """`signet ARGS` in a subprocess (python -m signet_cli), its output captured."""
    return subprocess.run([sys.executable, "-m", "signet_cli", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


# Multi-agent read policies (tests/api/test_agents.py, tests/cli/test_cli_calls.py).
ROSTER = """agents:
  roster:
    - name: alice
      readPolicy: isolated
    - name: bob
      readPolicy: shared
    - name: carol
      readPolicy: group
      group: team
    - name: dave
      readPolicy: group
      group: team
"""


@pytest.fixture
def agents_client(make_service, workspace):
    """A client over a service with ROSTER's agents (alice..dave) and eve first seen, each with a note
    (bob one private too): (client, service, ids by agent)."""
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "agent.yaml").write_text(ROSTER)
    svc = make_service()
    with TestClient(create_app(service=svc)) as client:
        ids = {name: remember(client, f"{name} keeps the deploy notes in the wiki", agentId=name)["id"]
               for name in ("alice", "bob", "carol", "dave", "eve")}
        ids["bob-private"] = remember(client, "bob keeps the deploy notes private", agentId="bob",
                                      visibility="private")["id"]
        yield client, svc, ids
