"""Connectors: the filesystem provider through the API, its sync as Dagster runs, health and diagnostics."""

import os
import time

import dagster as dg
import pytest

from signet_pipeline.defs.documents.assets import connector_sync, document_ingest
from signet_pipeline.defs.documents.sensors import connector_jobs_sensor
from signet_pipeline.defs.resources import SignetStoreResource
from tests.conftest import recall
from tests.pipeline.connectors.allowed_roots import allow


@pytest.fixture
def svc(make_service, workspace, tmp_path):
    allow(workspace, tmp_path)  # the operator lets connectors read tmp_path (the workspace in it stays off)
    return make_service()


@pytest.fixture
def notes(tmp_path):
    root = tmp_path / "notes"
    (root / "projects").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "node_modules" / "pkg").mkdir(parents=True)
    (root / "garden.md").write_text("# Garden\n\nThe tomatoes go in the raised bed by the south fence.\n")
    (root / "projects" / "signet.txt").write_text("Signet keeps its memories in one SQLite file with FTS5.\n")
    (root / "projects" / "photo.png").write_bytes(b"\x89PNG not text")
    (root / ".git" / "HEAD.md").write_text("ref: refs/heads/main\n")
    (root / "node_modules" / "pkg" / "README.md").write_text("a dependency's readme\n")
    (root / "latin1.txt").write_bytes("caf\xe9 au lait".encode("latin-1"))
    (root / "huge.md").write_text("x" * 5000)
    return root


def _register(client, root, **settings):
    response = client.post("/api/connectors", json={"provider": "filesystem", "displayName": "My notes",
                                                    "settings": {"rootPath": str(root), **settings}})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def _run_syncs(workspace):
    """What `signet up` does: the sensor sees the due sync job, the run drains it, then ingest runs."""
    signet = SignetStoreResource(workspace=str(workspace))
    with dg.instance_for_test() as instance, dg.build_sensor_context(instance=instance,
                                                                     resources={"signet": signet}) as ctx:
        requests = connector_jobs_sensor(ctx).run_requests
    assert len(requests) == 1
    synced = dg.materialize([connector_sync], resources={"signet": signet}, run_config=requests[0].run_config)
    dg.materialize([document_ingest], resources={"signet": signet})
    return synced.asset_materializations_for_node("connector_sync")[0].metadata


@pytest.mark.parametrize("body, status, code", [
    ({"provider": "dropbox", "displayName": "x", "settings": {"rootPath": "/tmp"}}, 400, "unknown_provider"),
    ({"provider": "filesystem", "displayName": "x", "settings": {"rootPath": "relative/dir"}}, 400, "invalid_settings"),
    ({"provider": "filesystem", "displayName": "x", "settings": {}}, 400, "invalid_settings"),
    ({"provider": "filesystem", "displayName": "x", "settings": {"rootPath": "/tmp", "maxFileSize": 0}}, 400,
     "invalid_settings"),
    ({"provider": "filesystem", "settings": {"rootPath": "/tmp"}}, 422, "invalid_request"),
])
def test_registering_a_bad_connector_is_a_clear_client_error(client, body, status, code):
    response = client.post("/api/connectors", json=body)
    assert response.status_code == status and response.json()["error"]["code"] == code, response.text


def test_register_list_get_and_spec_defaults(client, notes):
    connector_id = _register(client, notes)
    listed = client.get("/api/connectors").json()
    assert listed["count"] == 1 and listed["connectors"][0]["id"] == connector_id
    row = client.get(f"/api/connectors/{connector_id}").json()
    assert row["status"] == "idle" and row["lastSyncAt"] is None and row["displayName"] == "My notes"
    assert row["settings"] == {"rootPath": str(notes), "patterns": ["**/*.md", "**/*.txt"],
                               "ignorePatterns": [".git", "node_modules", ".DS_Store"], "maxFileSize": 1048576}
    assert client.get("/api/connectors/nope").status_code == 404


def test_a_sync_ingests_matching_files_and_reports_per_file_errors(client, svc, workspace, notes):
    connector_id = _register(client, notes, maxFileSize=4096)
    assert client.post(f"/api/connectors/{connector_id}/sync").json() == {"status": "syncing"}
    assert client.post(f"/api/connectors/{connector_id}/sync").json() == {"status": "syncing"}  # starts nothing
    jobs = svc.db.reader().execute("SELECT count(*) FROM memory_jobs WHERE job_type = 'connector_sync'").fetchone()[0]
    assert jobs == 1
    meta = _run_syncs(workspace)
    assert meta["files_queued"].value == 2 and meta["file_errors"].value == 2
    row = client.get(f"/api/connectors/{connector_id}").json()
    assert row["status"] == "idle" and row["lastSyncAt"] and row["cursor"]["lastSyncAt"] > 0
    errors = {os.path.basename(e["path"]): e["error"] for e in row["lastResult"]["errors"]}
    assert "maxFileSize" in errors["huge.md"] and "UTF-8" in errors["latin1.txt"]
    health = client.get(f"/api/connectors/{connector_id}/health").json()
    assert health == {"id": connector_id, "status": "idle", "lastSyncAt": row["lastSyncAt"], "lastError": None,
                      "documentCount": 2}
    assert recall(client, "where do the tomatoes go")["results"][0]["content"].startswith("# Garden")


def test_an_incremental_sync_reads_only_changed_files_and_drops_removed_ones(client, workspace, notes):
    connector_id = _register(client, notes)
    client.post(f"/api/connectors/{connector_id}/sync")
    _run_syncs(workspace)
    later = time.time() + 5
    (notes / "garden.md").write_text("# Garden\n\nThe tomatoes moved to the greenhouse this year.\n")
    os.utime(notes / "garden.md", (later, later))
    (notes / "projects" / "signet.txt").unlink()
    (notes / "ideas.txt").write_text("Build a bird feeder from the old fence boards.\n")
    os.utime(notes / "ideas.txt", (later, later))
    client.post(f"/api/connectors/{connector_id}/sync")
    meta = _run_syncs(workspace)
    assert meta["files_queued"].value == 2 and meta["documents_removed"].value == 1
    assert meta["files_unchanged"].value == 2  # huge.md and latin1.txt: not modified since the cursor
    assert client.get(f"/api/connectors/{connector_id}/health").json()["documentCount"] == 3  # garden, ideas, huge
    found = [r["content"] for r in recall(client, "where are the tomatoes", limit=5)["results"]]
    assert "greenhouse" in found[0] and not any("raised bed" in c for c in found)  # the old chunk retired


def test_a_full_sync_needs_confirmation_and_rereads_every_file(client, workspace, notes):
    connector_id = _register(client, notes)
    client.post(f"/api/connectors/{connector_id}/sync")
    _run_syncs(workspace)
    refused = client.post(f"/api/connectors/{connector_id}/sync/full")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "confirmation_required"
    assert client.post(f"/api/connectors/{connector_id}/sync/full?confirm=true").json() == {"status": "syncing"}
    meta = _run_syncs(workspace)
    assert meta["files_queued"].value == 3 and meta["files_unchanged"].value == 0 and meta["file_errors"].value == 1


def test_a_sync_that_cannot_walk_its_root_is_an_error_in_health_and_diagnostics(client, workspace, tmp_path):
    root = tmp_path / "gone"
    root.mkdir()
    connector_id = _register(client, root)
    root.rmdir()
    client.post(f"/api/connectors/{connector_id}/sync")
    _run_syncs(workspace)
    health = client.get(f"/api/connectors/{connector_id}/health").json()
    assert health["status"] == "error" and "not a readable directory" in health["lastError"]
    domain = client.get("/api/diagnostics/connector").json()
    assert domain["signals"]["errors"] == 1 and domain["score"] < 1.0 and domain["issues"]
    errors = client.get("/api/analytics/errors", params={"stage": "connector"}).json()["errors"]
    assert errors[0]["code"] == "CONNECTOR_SYNC_FAIL" and connector_id in errors[0]["message"]
    root.mkdir()
    client.post(f"/api/connectors/{connector_id}/sync")
    _run_syncs(workspace)
    assert client.get(f"/api/connectors/{connector_id}/health").json()["status"] == "idle"
    assert client.get("/api/diagnostics/connector").json()["score"] == 1.0


def test_delete_with_cascade_takes_the_documents_and_their_memories(client, svc, workspace, notes):
    connector_id = _register(client, notes)
    client.post(f"/api/connectors/{connector_id}/sync")
    _run_syncs(workspace)
    chunks = svc.db.reader().execute("SELECT count(*) FROM memories WHERE type = 'document_chunk' "
                                     "AND is_deleted = 0").fetchone()[0]
    plain = _register(client, notes)
    assert client.delete(f"/api/connectors/{plain}").json() == {"deleted": True}
    response = client.delete(f"/api/connectors/{connector_id}?cascade=true").json()
    assert response["deleted"] is True and response["memoriesDeleted"] == chunks >= 3
    assert client.get("/api/documents").json()["total"] == 0
    assert recall(client, "where do the tomatoes go")["results"] == []
    assert client.get(f"/api/connectors/{connector_id}").status_code == 404


def test_usage_analytics_count_each_connectors_documents(client, workspace, notes):
    connector_id = _register(client, notes)
    client.post(f"/api/connectors/{connector_id}/sync")
    _run_syncs(workspace)
    usage = client.get("/api/analytics/usage").json()["connectors"]
    assert usage == {connector_id: {"documents": 3, "ingested": 3, "failing": 0}}
