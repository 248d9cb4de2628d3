from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.config import load_settings
from signet_pipeline.providers.embeddings.onnx import OnnxMiniLM
from signet_pipeline.service import MemoryService


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
