"""Snapshots: export to Parquet / JSON Lines and import into a new or live store."""


import dagster as dg
import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.config import load_settings
from signet_pipeline.defs.definitions import defs
from signet_pipeline.defs.maintenance.assets import store_backup_over
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.errors import SnapshotError
from signet_pipeline.service import MemoryService
from signet_pipeline.snapshots.export import export_snapshot
from signet_pipeline.snapshots.manifest import MANIFEST
from signet_pipeline.snapshots.restore import import_snapshot
from signet_pipeline.store import snapshot_tables
from signet_pipeline.store.db import Database
from signet_pipeline.store.migrate import migrate
from tests.conftest import recall, run_signet
from tests.pipeline.embedding_identity import embedding_identity
from tests.pipeline.snapshots.snapshot_files import dump, edit_manifest, fill


@pytest.fixture
def source(make_service):
    svc = make_service()
    fill(svc)
    return svc


@pytest.fixture
def target_db(tmp_path):
    db = Database(tmp_path / "target" / "memories.db")
    migrate(db)
    yield db
    db.close()


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_round_trip_keeps_every_row_and_vector_and_a_second_import_writes_nothing(source, target_db, tmp_path, fmt):
    seen = []
    manifest = export_snapshot(source.db, tmp_path / "snap", fmt=fmt, chunk=2,
                               progress=lambda table, done, total: seen.append((table, done, total)))
    assert manifest.table("memories").rows == 4 and manifest.embedding.dimensions == 384
    assert ("memories", 4, 4) in seen and not (tmp_path / "snap.partial").exists()
    first = import_snapshot(target_db, tmp_path / "snap", embedding=embedding_identity(source), chunk=3)
    assert first.vectors == "kept" and first.written == first.rows > 20
    for table in snapshot_tables.BY_NAME:
        assert dump(target_db, table) == dump(source.db, table), table
    again = import_snapshot(target_db, tmp_path / "snap", embedding=embedding_identity(source))
    assert again.written == 0 and again.rows == first.rows


def test_an_agent_export_holds_only_that_agents_rows(source, tmp_path):
    manifest = export_snapshot(source.db, tmp_path / "snap", agent="ops")
    assert manifest.agent == "ops" and manifest.table("memories").rows == 1
    assert manifest.table("entities").rows >= 1 and manifest.table("memory_history").rows >= 1
    default_rows = source.db.reader().execute("SELECT count(*) FROM entities WHERE agent_id = 'ops'").fetchone()[0]
    assert manifest.table("entities").rows == default_rows


def test_export_refuses_a_directory_that_holds_files(source, tmp_path):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x").write_text("keep me")
    with pytest.raises(SnapshotError) as err:
        export_snapshot(source.db, tmp_path / "busy")
    assert err.value.code == "snapshot_target_exists" and (tmp_path / "busy" / "x").read_text() == "keep me"


def _memories_in(db) -> int:
    return db.reader().execute("SELECT count(*) FROM memories").fetchone()[0]


@pytest.mark.parametrize("damage, code", [
    (lambda snap: (snap / "memories.parquet").write_bytes((snap / "memories.parquet").read_bytes()[:-40]),
     "snapshot_corrupt"),
    (lambda snap: (snap / "entities.parquet").write_bytes(b"X" + (snap / "entities.parquet").read_bytes()[1:]),
     "snapshot_corrupt"),
    (lambda snap: (snap / "relations.parquet").unlink(), "snapshot_corrupt"),
    (lambda snap: (snap / MANIFEST).unlink(), "snapshot_invalid"),
    (lambda snap: (snap / MANIFEST).write_text("{not json"), "snapshot_invalid"),
    (lambda snap: edit_manifest(snap, schema_version=10_000), "snapshot_schema_newer"),
    (lambda snap: edit_manifest(snap, rows_of_memories=3), "snapshot_corrupt"),
])
def test_a_damaged_or_newer_snapshot_is_refused_before_anything_is_written(source, target_db, tmp_path, damage,
                                                                           code):
    export_snapshot(source.db, tmp_path / "snap")
    damage(tmp_path / "snap")
    with pytest.raises(SnapshotError) as err:
        import_snapshot(target_db, tmp_path / "snap", embedding=embedding_identity(source))
    assert err.value.code == code
    assert _memories_in(target_db) == 0


def test_vectors_of_another_model_are_left_for_the_embedding_refresh(source, target_db, tmp_path):
    export_snapshot(source.db, tmp_path / "snap")
    report = import_snapshot(target_db, tmp_path / "snap", embedding=("nomic-embed-text", 768))
    assert report.vectors.startswith("left out") and "embeddings" not in report.tables
    assert target_db.reader().execute("SELECT count(*) FROM embeddings").fetchone()[0] == 0
    assert _memories_in(target_db) == 4


def test_a_newer_version_in_the_store_is_kept(source, target_db, tmp_path, make_service):
    export_snapshot(source.db, tmp_path / "snap")
    import_snapshot(target_db, tmp_path / "snap", embedding=embedding_identity(source))
    with target_db.write() as conn:
        conn.execute("UPDATE memories SET content = 'Bob now prefers opera', version = 3 WHERE version = 2")
    import_snapshot(target_db, tmp_path / "snap", embedding=embedding_identity(source))
    assert target_db.reader().execute("SELECT content FROM memories WHERE version = 3").fetchone()[0] \
        == "Bob now prefers opera"


def test_a_live_service_recalls_imported_memories_without_a_restart(source, tmp_path, embedder):
    export_snapshot(source.db, tmp_path / "snap")
    live = MemoryService(load_settings(tmp_path / "live", auth={"allowed_hosts": ["testserver"]}), embedder=embedder)
    try:
        with TestClient(create_app(service=live)) as client:
            assert recall(client, "which database did we choose for Signet")["results"] == []
            importer = Database(live.db.path)  # another connection, as `signet import` opens
            import_snapshot(importer, tmp_path / "snap", embedding=embedding_identity(live))
            importer.close()
            found = recall(client, "which database did we choose for Signet")["results"]
            assert found and found[0]["content"] == "We decided to use Postgres over MySQL for Signet"
            vector_only = client.post("/api/memory/recall", json={"query": "records from the fifties", "alpha": 1.0})
            assert "jazz" in vector_only.json()["results"][0]["content"]
    finally:
        live.close()


def test_the_cli_exports_and_imports_with_progress_and_refuses_a_damaged_snapshot(source, tmp_path):
    source.close()  # the CLI opens the workspace's store itself
    snap = tmp_path / "cli-snap"
    out = run_signet("--workspace", str(source.settings.workspace), "export", str(snap), "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    assert "memories" in out.stderr and "100%" in out.stderr and "exported" in out.stdout
    target = tmp_path / "new-ws"
    first = run_signet("--workspace", str(target), "import", str(snap))
    assert first.returncode == 0, first.stderr
    assert "vectors kept" in first.stdout
    second = run_signet("--workspace", str(target), "import", str(snap))
    assert "0 of" in second.stdout and "already present" in second.stdout
    (snap / "memories.jsonl").write_text("")
    damaged = run_signet("--workspace", str(tmp_path / "third"), "import", str(snap))
    assert damaged.returncode == 2 and "checksum" in damaged.stderr


# Backups named for days before the test's store existed: a code location loaded on an older store has them.
PAST_BACKUPS = store_backup_over(dg.DailyPartitionsDefinition(start_date="2026-11-01"))


def _backup(workspace, day, instance):
    result = dg.materialize([PAST_BACKUPS], instance=instance, partition_key=day,
                            resources={"signet": SignetStoreResource(workspace=str(workspace))})
    assert result.success
    return result.asset_materializations_for_node("store_backup")[0].metadata


def test_the_backup_asset_keeps_the_newest_days_and_each_restores(source, workspace, tmp_path, monkeypatch):
    monkeypatch.setenv("SIGNET_BACKUP__KEEP", "2")
    with dg.instance_for_test() as instance:
        for day in ("2026-11-20", "2026-11-21", "2026-11-22"):
            meta = _backup(workspace, day, instance)
    assert meta["integrity"].value == "ok" and meta["memories"].value == 4
    assert "| default | decision | 1 | 0 | 1 |" in meta["memories_by_agent_and_type"].value  # live, deleted, pinned
    assert "| db | 1 |" in meta["top_tags"].value and "| updated | 1 |" in meta["history_events"].value
    assert meta["removed_days"].value == ["2026-11-20"] and meta["kept_days"].value == ["2026-11-21", "2026-11-22"]
    backups = sorted(p.name for p in (workspace / "backups").iterdir())
    assert backups == ["2026-11-21", "2026-11-22"]
    copy = Database(workspace / "backups" / "2026-11-22" / "memories.db")  # the copy is a working store
    assert dump(copy, "memories") == dump(source.db, "memories")
    copy.close()
    restored = Database(tmp_path / "restored.db")
    migrate(restored)
    import_snapshot(restored, workspace / "backups" / "2026-11-22" / "snapshot", embedding=embedding_identity(source))
    assert dump(restored, "entities") == dump(source.db, "entities")
    restored.close()


def test_the_backup_schedule_backs_up_the_day_that_ended():
    schedule = defs.get_repository_def().get_schedule_def("backup_schedule")
    assert schedule.cron_schedule == "30 2 * * *" and schedule.job_name == "backup"
