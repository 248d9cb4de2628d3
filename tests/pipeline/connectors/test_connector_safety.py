"""Connectors may read only what the operator allowed (connectors.allowedRoots in agent.yaml), never
the workspace or /proc, /sys, /dev, only regular files without following links, and what they
ingest belongs to the agent that registered them (private unless connectors.documentVisibility)."""

import os
import threading
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret
from signet_pipeline.connectors import filesystem
from signet_pipeline.connectors.models import SyncRequest
from signet_pipeline.stages.connectors import run_connector_jobs
from signet_pipeline.stages.documents import run_document_jobs
from signet_pipeline.store.queue import JobQueue
from tests.pipeline.connectors.allowed_roots import allow

SECRET_TEXT = "TOP SECRET: the vault combination is 7-3-9"


@pytest.fixture
def tree(tmp_path):
    """allowed/notes holds the notes; secret/ lies outside every allowed root."""
    notes = tmp_path / "allowed" / "notes"
    (notes / "sub").mkdir(parents=True)
    (notes / "garden.md").write_text("The tomatoes go in the raised bed by the south fence.\n")
    (notes / "sub" / "plan.md").write_text("Plant the beans after the last frost.\n")
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "plan.md").write_text(SECRET_TEXT)
    return tmp_path


@pytest.fixture
def svc(make_service, workspace, tree):
    allow(workspace, tree / "allowed")
    return make_service()


def register(client, root, headers=None, settings=None, **body):
    return client.post("/api/connectors", headers=headers, json={
        "provider": "filesystem", "displayName": "notes", "settings": {"rootPath": str(root), **(settings or {})},
        **body})


def sync_now(svc, connector_id):
    """One sync in this process, in a thread that must finish (a blocking read would hang it)."""
    out = {}
    worker = threading.Thread(target=lambda: out.update(result=filesystem.sync(
        svc, SyncRequest(connectorId=connector_id, full=True))), daemon=True)
    worker.start()
    worker.join(5)
    assert "result" in out, "the sync hung"
    return out["result"]


def ingested(svc) -> str:
    return " ".join(r[0] or "" for r in svc.db.reader().execute("SELECT raw_content FROM documents"))


def test_registering_needs_a_root_the_operator_allowed(make_service, workspace, tree):
    with TestClient(create_app(service=make_service())) as client:  # nothing allowed: the default
        refused = register(client, tree / "allowed" / "notes")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "root_not_allowed"
    assert "connectors.allowedRoots" in refused.json()["error"]["message"]
    allow(workspace, tree / "allowed")
    with TestClient(create_app(service=make_service())) as client:
        for root in ("/etc", tree / "secret", f"{tree}/allowed/../secret", "/"):
            response = register(client, root)
            assert response.status_code == 400 and response.json()["error"]["code"] == "root_not_allowed", root
        assert register(client, tree / "allowed" / "notes").status_code == 201


def test_the_workspace_and_system_trees_are_refused_even_when_slash_is_allowed(make_service, workspace, tree):
    allow(workspace, "/")
    svc = make_service()
    with TestClient(create_app(service=svc)) as client:
        for root in (workspace, workspace / "memory", "/proc/self", "/proc", "/dev", "/sys"):
            response = register(client, root)
            assert response.status_code == 400 and response.json()["error"]["code"] == "root_not_allowed", root
        # A root holding the workspace is fine; the workspace inside it is skipped.
        (workspace / "server.log").write_text("OPENAI_API_KEY=sk-live-123")
        (tree / "note.log").write_text("a plain note")
        connector_id = register(client, tree, settings={"patterns": ["**/*.log"]}).json()["id"]
    result = sync_now(svc, connector_id)
    assert result.queued == 1 and "sk-live" not in ingested(svc) and "a plain note" in ingested(svc)


def test_a_root_the_operator_later_disallows_fails_its_next_sync(svc, client, make_service, workspace, tree):
    connector_id = register(client, tree / "allowed" / "notes").json()["id"]
    allow(workspace, tree / "secret")  # the operator narrows agent.yaml; the worker reloads it
    client.post(f"/api/connectors/{connector_id}/sync")
    run_connector_jobs(make_service(), JobQueue(svc.db), 10)
    health = client.get(f"/api/connectors/{connector_id}/health").json()
    assert health["status"] == "error" and "connectors.allowedRoots" in health["lastError"]
    assert health["documentCount"] == 0


def test_a_fifo_in_the_root_does_not_hang_the_sync(svc, client, tree):
    os.mkfifo(tree / "allowed" / "notes" / "pipe.md")
    connector_id = register(client, tree / "allowed" / "notes").json()["id"]
    result = sync_now(svc, connector_id)
    assert result.queued == 2 and result.elapsed_ms < 2000
    assert [e.path.endswith("pipe.md") and "regular file" in e.error for e in result.errors] == [True]


def test_a_file_over_max_file_size_is_refused_unread(svc, client, tree):
    with open(tree / "allowed" / "notes" / "huge.md", "wb") as sparse:
        sparse.truncate(4 << 30)
    response = register(client, tree / "allowed" / "notes", settings={"maxFileSize": 1 << 20})
    result = sync_now(svc, response.json()["id"])
    assert result.queued == 2 and result.elapsed_ms < 2000
    assert [("maxFileSize" in e.error) for e in result.errors] == [True]


def test_a_file_or_directory_swapped_for_a_symlink_after_the_scan_is_not_followed(svc, client, tree, monkeypatch):
    notes = tree / "allowed" / "notes"
    connector_id = register(client, notes).json()["id"]
    scan = filesystem.scan

    def racing_scan(*args, **kwargs):  # each file is swapped for a link right after the scan saw it
        for found in scan(*args, **kwargs):
            if found.path.endswith("garden.md"):
                os.unlink(found.path)
                os.symlink(tree / "secret" / "plan.md", found.path)
            elif found.path.endswith("plan.md"):
                os.rename(notes / "sub", notes / "sub.old")
                os.symlink(tree / "secret", notes / "sub")
            yield found

    monkeypatch.setattr(filesystem, "scan", racing_scan)
    result = sync_now(svc, connector_id)
    assert result.queued == 0 and len(result.errors) == 2
    assert all("symbolic link" in e.error for e in result.errors)
    assert "TOP SECRET" not in ingested(svc)


def test_a_hard_linked_file_is_refused(svc, client, tree):
    os.link(tree / "secret" / "plan.md", tree / "allowed" / "notes" / "linked.md")
    result = sync_now(svc, register(client, tree / "allowed" / "notes").json()["id"])
    assert result.queued == 2 and [e.path.endswith("linked.md") for e in result.errors] == [True]
    assert "hard link" in result.errors[0].error and "TOP SECRET" not in ingested(svc)


# -- who reads what a connector ingests -------------------------------------------------------------

@pytest.fixture
def team(make_service, workspace, tree):
    """A team-mode service whose operator registers a connector for alice and syncs it."""
    with ExitStack() as stack:
        def start(**connectors):
            allow(workspace, tree / "allowed", **connectors)
            svc = make_service(auth={"mode": "team"})
            secret = load_or_create_secret(svc.settings.auth_secret_path)

            def token(role, sub, **scope):
                return {"authorization": "Bearer " + issue(secret, sub=sub, role=role, scope=TokenScope(**scope),
                                                           ttl_s=600)[0]}

            client = stack.enter_context(TestClient(create_app(service=svc)))
            ops = token("operator", "ops")
            (tree / "allowed" / "notes" / "vault.md").write_text(SECRET_TEXT)
            registered = register(client, tree / "allowed" / "notes", headers=ops, agentId="alice")
            assert registered.status_code == 201, registered.text
            connector_id = registered.json()["id"]
            assert client.get(f"/api/connectors/{connector_id}", headers=ops).json()["agentId"] == "alice"
            assert client.post(f"/api/connectors/{connector_id}/sync", headers=ops).status_code == 200
            run_connector_jobs(svc, JobQueue(svc.db), 10)
            run_document_jobs(svc, JobQueue(svc.db), 10)
            return client, token

        yield start


def _finds(client, headers) -> bool:
    searched = client.get("/api/memory/search", params={"q": "vault combination"}, headers=headers).json()
    recalled = client.post("/api/memory/recall", json={"query": "vault combination"}, headers=headers).json()
    return any("vault combination" in r["content"] for r in searched["results"] + recalled["results"])


def test_connector_documents_are_private_to_the_registering_agent(team):
    client, token = team()
    alice, bob, carol = token("agent", "alice"), token("agent", "bob"), token("readonly", "carol")
    assert _finds(client, alice)
    mine = client.get("/api/documents", headers=alice).json()["documents"]
    vault = next(d for d in mine if d["title"] == "vault.md")
    assert (vault["agentId"], vault["visibility"]) == ("alice", "private")
    for other in (bob, carol, token("readonly", "carol", agent="bob")):
        assert not _finds(client, other)
    assert client.get("/api/documents", headers=bob).json()["total"] == 0
    assert client.get(f"/api/documents/{vault['id']}", headers=bob).status_code == 404
    assert client.get(f"/api/documents/{vault['id']}/chunks", headers=bob).status_code == 404
    assert client.get("/api/documents", headers=carol).status_code == 403  # readonly: recall only


def test_the_operator_may_make_connector_documents_global(team):
    client, token = team(documentVisibility="global")
    assert _finds(client, token("agent", "bob"))
