"""A workspace written by an older build opens and works under this one: its store migrates at
start and keeps every memory, version, pin, deletion, private row, session transcript and
document. The fixture is a real 0.1.0 workspace (tests/data/make_workspace_0_1_0.py says how it was
made); the version this build reports moves with its CHANGELOG entry."""

import gzip
import re
import shutil

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline import __version__
from signet_pipeline.config import load_settings
from signet_pipeline.service import MemoryService
from signet_pipeline.store.migrate import discover
from tests.conftest import DATA, ROOT


@pytest.fixture
def old_workspace(tmp_path, monkeypatch):
    workspace = tmp_path / "ws"
    (workspace / "memory").mkdir(parents=True)
    with (gzip.open(DATA / "workspace-0.1.0-memories.db.gz") as src,
          open(workspace / "memory" / "memories.db", "wb") as dst):
        shutil.copyfileobj(src, dst)
    monkeypatch.setenv("SIGNET_WORKSPACE", str(workspace))
    return workspace


def test_a_workspace_of_the_0_1_0_build_opens_and_works(old_workspace, embedder):
    svc = MemoryService(load_settings(old_workspace), embedder=embedder)
    try:
        applied = {v for (v,) in svc.db.reader().execute("SELECT version FROM schema_migrations")}
        assert applied == {m.version for m in discover()}  # the newer migrations ran at open
        with TestClient(create_app(service=svc), base_url="http://127.0.0.1") as c:
            assert c.get("/health").json()["version"] == __version__
            listed = c.get("/api/memories", params={"limit": 50}).json()["memories"]
            contents = {m["content"] for m in listed}
            assert "The billing service runs on Postgres 16.2." in contents  # the patched version
            assert "We decided to ship the mobile app in March." not in contents  # deleted, still deleted
            assert "a2 keeps its own notes private." not in contents  # another agent's private row
            pinned = [m for m in listed if m["content"] == "Billing deploys freeze on Fridays."]
            assert pinned and pinned[0]["pinned"]
            patched = next(m for m in listed if m["content"].startswith("The billing service"))
            history = c.get(f"/api/memory/{patched['id']}/history").json()
            assert len(history["history"]) >= 2
            hits = c.post("/api/memory/recall", json={"query": "where is the spare key?", "expand": True}).json()
            assert hits["results"][0]["content"].endswith("The spare key hangs behind the garage door")
            assert c.get("/api/documents").json()["documents"]
            new = c.post("/api/memory/remember", json={"content": "Upgraded workspaces keep working."})
            assert new.status_code == 200
            assert c.post("/api/memory/recall", json={"query": "upgraded workspaces"}).json()["results"]
    finally:
        svc.close()


def test_the_version_has_its_changelog_entry():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    latest = re.search(r"^## \[(\d+\.\d+\.\d+)\]", changelog, re.M)
    assert latest and latest.group(1) == __version__, "a release moves __version__ and CHANGELOG.md together"
