"""The bulk path of a snapshot import (issue 26): one transaction with the indexes and insert
triggers set aside and rebuilt once. It writes what the per-row path writes, a fresh or running
service finds what it wrote, the triggers are back after it, and a bad snapshot leaves the store
exactly as it was."""

import re
import subprocess
import sys
import threading

import polars as pl
import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.config import load_settings
from signet_pipeline.errors import SnapshotError
from signet_pipeline.models import RememberRequest
from signet_pipeline.service import MemoryService
from signet_pipeline.snapshots import bulk_import
from signet_pipeline.snapshots.export import export_snapshot
from signet_pipeline.snapshots.restore import import_snapshot
from signet_pipeline.store import bulk_load, snapshot_tables
from signet_pipeline.store.db import Database
from signet_pipeline.store.migrate import migrate
from signet_pipeline.write.remember import remember
from tests.conftest import recall, run_signet, settle
from tests.pipeline.embedding_identity import embedding_identity
from tests.pipeline.snapshots.snapshot_files import dump, edit_manifest, fill, first, forge, forged_takeover


@pytest.fixture
def source(make_service):
    svc = make_service(auth={"mode": "team"})
    return svc, fill(svc)


@pytest.fixture
def snap(source, tmp_path):
    export_snapshot(source[0].db, tmp_path / "snap")
    return tmp_path / "snap"


def _service(tmp_path, embedder, name: str) -> MemoryService:
    return MemoryService(load_settings(tmp_path / name, auth={"allowed_hosts": ["testserver"]}), embedder=embedder)


@pytest.fixture
def target(tmp_path, embedder):
    """A store in use: memories of two agents, their vectors and history."""
    svc = _service(tmp_path, embedder, "target")
    remember(svc, RememberRequest(content="The lighthouse keeper logs the tide at dawn"))
    remember(svc, RememberRequest(content="Marta waters the orchids every Sunday", agentId="ops"))
    settle(svc)
    yield svc
    svc.close()


def _import(svc_or_path, snap, source_svc, **kwargs):
    """Import over a connection of its own, as `signet import` does."""
    db = Database(svc_or_path.db.path if isinstance(svc_or_path, MemoryService) else svc_or_path)
    migrate(db)
    try:
        return import_snapshot(db, snap, embedding=embedding_identity(source_svc), **kwargs)
    finally:
        db.close()


def _state(db: Database) -> dict:
    """Everything an import may touch: every snapshot table, the schema (triggers and indexes
    included), the change log, the vector table and the full-text index."""
    conn = db.reader()
    conn.execute("INSERT INTO memories_fts(memories_fts) VALUES ('integrity-check')")  # raises when out of step
    return {
        "tables": {name: dump(db, name) for name in snapshot_tables.BY_NAME},
        "schema": sorted(conn.execute("SELECT type, name, sql FROM sqlite_master").fetchall(), key=repr),
        "changes": conn.execute("SELECT * FROM embedding_changes ORDER BY seq").fetchall(),
        "vec": conn.execute("SELECT rowid FROM vec_embeddings ORDER BY rowid").fetchall(),
        "fts": conn.execute("SELECT rowid FROM memories_fts WHERE memories_fts MATCH 'the' ORDER BY rowid").fetchall(),
    }


def _words(client, word: str) -> list[str]:
    response = client.get("/memory/search", params={"q": word})
    assert response.status_code == 200, response.text
    return [r["content"] for r in response.json()["results"]]


def test_the_bulk_path_writes_every_row_and_a_rerun_writes_nothing(source, snap, tmp_path):
    svc, _ = source
    db = Database(tmp_path / "new" / "memories.db")
    migrate(db)
    fresh = Database(tmp_path / "fresh" / "memories.db")
    migrate(fresh)
    report = import_snapshot(db, snap, embedding=embedding_identity(svc), bulk=True)
    assert report.bulk and report.written == report.rows > 20 and report.refused == 0
    for table in snapshot_tables.BY_NAME:
        assert dump(db, table) == dump(svc.db, table), table
    structure = ("SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') "
                 "AND tbl_name IN (?, ?, ?) ORDER BY name")  # the indexes and triggers are back
    assert db.reader().execute(structure, bulk_load.TABLES).fetchall() \
        == fresh.reader().execute(structure, bulk_load.TABLES).fetchall()
    assert _state(db)["vec"] and len(_state(db)["changes"]) == 1  # one log entry, not one per vector
    again = import_snapshot(db, snap, embedding=embedding_identity(svc), bulk=True)
    assert again.written == 0 and again.rows == report.rows
    db.close()
    fresh.close()


def test_a_fresh_service_finds_bulk_imported_memories_by_a_word_and_by_meaning_and_triggers_are_back(
        source, snap, tmp_path, embedder):
    svc, ids = source
    assert _import(load_settings(tmp_path / "restored").db_path, snap, svc, bulk=True).bulk
    fresh = _service(tmp_path, embedder, "restored")
    try:
        with TestClient(create_app(service=fresh)) as client:
            assert _words(client, "Postgres") == ["We decided to use Postgres over MySQL for Signet"]
            assert "jazz" in recall(client, "records from the fifties", alpha=1.0)["results"][0]["content"]
            history = client.get(f"/api/memory/{ids['jazz']}/history").json()
            assert "updated" in {event["event"] for event in history["history"]}
            logged = fresh.db.reader().execute("SELECT max(seq) FROM embedding_changes").fetchone()[0]
            later = remember(fresh, RememberRequest(content="The kayak rental opens at nine on weekdays")).id
            settle(fresh)
            assert _words(client, "kayak") == ["The kayak rental opens at nine on weekdays"]
            changed = fresh.db.reader().execute("SELECT e.id FROM embedding_changes c JOIN embeddings e "
                                                "ON e.id = c.embedding_id WHERE c.seq > ?", (logged,)).fetchall()
            assert changed, "the insert trigger logs the new vector again"
            boat = recall(client, "where can I hire a small boat", alpha=1.0)["results"]
            assert boat[0]["id"] == later
    finally:
        fresh.close()


def test_a_running_service_sees_a_bulk_import_at_once(source, snap, tmp_path, embedder):
    svc, _ = source
    live = _service(tmp_path, embedder, "live")
    try:
        with TestClient(create_app(service=live)) as client:
            assert recall(client, "which database did we choose for Signet")["results"] == []  # its index is loaded
            _import(live, snap, svc, bulk=True)
            found = recall(client, "which database did we choose for Signet")["results"]
            assert found and found[0]["content"] == "We decided to use Postgres over MySQL for Signet"
            by_meaning = recall(client, "records from the fifties", alpha=1.0)["results"]
            assert "jazz" in by_meaning[0]["content"]
    finally:
        live.close()


def _importance_out_of_range(snap):
    rows = pl.read_parquet(snap / "memories.parquet")
    bad = first(snap, "memories", id="bad-importance", content_hash="b" * 64, importance=5.0)
    forge(snap, "memories", edit=lambda frame: pl.concat([frame.head(2), pl.DataFrame([bad], schema=frame.schema),
                                                          frame.tail(rows.height - 2)]))


def _history_without_event(snap):
    forge(snap, "memory_history", add=[{**first(snap, "memory_history"), "id": "h-bad", "event": None}])


def _same_content_twice(snap):
    forge(snap, "memories", add=[first(snap, "memories", id="a-second-id", is_deleted=0)])


def _foreign_row_in_an_agent_snapshot(snap):
    forge(snap, "memories", add=[first(snap, "memories", id="planted", agent_id="a2", content_hash="e" * 64)])
    manifest = (snap / "manifest.json").read_text()
    (snap / "manifest.json").write_text(manifest.replace('"agent":null', '"agent":"default"'))


@pytest.mark.parametrize("damage, code, says", [
    (_importance_out_of_range, "snapshot_invalid", "memories.parquet"),  # a CHECK fails midway through memories
    (_history_without_event, "snapshot_invalid", "memory_history.parquet"),  # after memories and vectors are in
    (_same_content_twice, "snapshot_invalid", "UNIQUE"),  # the unique index rebuilt at the end refuses it
    (_foreign_row_in_an_agent_snapshot, "snapshot_foreign_rows", "not agent default's"),
    (lambda snap: edit_manifest(snap, rows_of_memories=3), "snapshot_corrupt", "the manifest says 3"),
    (lambda snap: (snap / "manifest.json").write_text("{not json"), "snapshot_invalid", "not a valid snapshot"),
], ids=["check-midway", "not-null-in-history", "duplicate-content", "foreign-rows", "row-count", "manifest"])
def test_a_bad_snapshot_leaves_the_store_as_it_was(source, snap, target, damage, code, says):
    damage(snap)
    before = _state(target.db)
    with pytest.raises(SnapshotError) as err:
        _import(target, snap, source[0], bulk=True)
    assert err.value.code == code and says in str(err.value)
    assert _state(target.db) == before
    with TestClient(create_app(service=target)) as client:  # and it goes on working
        assert _words(client, "lighthouse") == ["The lighthouse keeper logs the tide at dawn"]


def _copy(svc: MemoryService, path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    svc.db.reader().execute("VACUUM INTO ?", (str(path),))


def _newer_own_version(snap, ids):
    forge(snap, "memories", edit=lambda frame: frame.with_columns(
        pl.when(pl.col("id") == ids["pg"]).then(pl.lit("We moved Signet to SQLite")).otherwise(pl.col("content"))
        .alias("content"), pl.when(pl.col("id") == ids["pg"]).then(9).otherwise(pl.col("version")).alias("version"),
        pl.when(pl.col("id") == ids["pg"]).then(pl.lit("c" * 64)).otherwise(pl.col("content_hash"))
        .alias("content_hash")))


def _new_rows_and_a_repeat(snap, ids):
    forge(snap, "memories", add=[
        first(snap, "memories", id="brand-new", content="Rosa fixes bikes", content_hash="a" * 64),
        {**pl.read_parquet(snap / "memories.parquet").filter(pl.col("id") == ids["pg"]).row(0, named=True),
         "id": "same-words-other-id"},
    ])


@pytest.mark.parametrize("forge, agent", [
    (lambda snap, ids: (forged_takeover(snap, ids["other"])), None),
    (_newer_own_version, None),
    (_new_rows_and_a_repeat, None),
    (_new_rows_and_a_repeat, "default"),
], ids=["takeover", "newer-version", "new-and-repeat", "as-one-agent"])
def test_bulk_and_per_row_imports_write_the_same_rows(source, snap, tmp_path, forge, agent):
    """Into a store already holding the snapshot's rows (merges), both paths agree row for row."""
    svc, ids = source
    forge(snap, ids)
    for name in ("bulk", "rows"):
        _copy(svc, tmp_path / name / "memories.db")
    bulk = _import(tmp_path / "bulk" / "memories.db", snap, svc, bulk=True, agent=agent)
    rows = _import(tmp_path / "rows" / "memories.db", snap, svc, bulk=False, agent=agent)
    assert bulk.bulk and not rows.bulk
    assert {n: t.model_dump() for n, t in bulk.tables.items()} == {n: t.model_dump() for n, t in rows.tables.items()}
    stores = [Database(tmp_path / name / "memories.db") for name in ("bulk", "rows")]
    try:
        assert _state(stores[0])["tables"] == _state(stores[1])["tables"]
        assert _state(stores[0])["fts"] == _state(stores[1])["fts"]
    finally:
        for db in stores:
            db.close()


def test_the_import_takes_the_bulk_path_when_it_pays(source, snap, tmp_path, monkeypatch):
    svc, _ = source
    small = tmp_path / "small" / "memories.db"
    assert not _import(small, snap, svc).bulk  # a few rows: per row
    monkeypatch.setattr(bulk_import, "MIN_ROWS", 5)
    assert _import(tmp_path / "empty" / "memories.db", snap, svc).bulk  # many rows into an empty store
    assert not _import(small, snap, svc).bulk  # a store holding as many rows already: per row


def test_the_cli_can_keep_to_the_per_row_path(source, snap, tmp_path):
    source[0].close()
    out = run_signet("--workspace", str(tmp_path / "cli-ws"), "import", str(snap), "--no-bulk")
    assert out.returncode == 0, out.stderr
    assert "vectors kept" in out.stdout


def test_the_insert_triggers_set_aside_are_the_only_ones_on_the_bulk_tables(tmp_path):
    """A new insert trigger on these tables keeps firing per row during a bulk load: correct but
    slower; add what it does to bulk_load.deferred and its name to REPLACED_TRIGGERS."""
    db = Database(tmp_path / "store.db")
    migrate(db)
    found = {name for name, sql in db.reader().execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN (?, ?, ?)", bulk_load.TABLES)
        if re.search(r"\bINSERT\s+ON\b", sql, re.IGNORECASE)}
    assert found == set(bulk_load.REPLACED_TRIGGERS)
    db.close()


_KILLED_MIDWAY = """
import os, signal, sys
from signet_pipeline.store.db import Database
from signet_pipeline.snapshots.restore import import_snapshot

def progress(table, done, total):
    if table == "memory_history":  # memories and vectors are in, triggers and indexes are gone
        os.kill(os.getpid(), signal.SIGKILL)

import_snapshot(Database(sys.argv[1]), sys.argv[2], embedding=(sys.argv[3], int(sys.argv[4])), bulk=True,
                chunk=1, progress=progress)
"""


def test_a_bulk_import_killed_midway_leaves_the_store_as_it_was(source, snap, target):
    before = _state(target.db)
    model, dims = embedding_identity(source[0])
    killed = subprocess.run([sys.executable, "-c", _KILLED_MIDWAY, str(target.db.path), str(snap), model, str(dims)],
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode == -9, killed.stderr
    assert _state(target.db) == before
    with TestClient(create_app(service=target)) as client:
        later = remember(target, RememberRequest(content="The ferry to the island leaves at noon")).id
        settle(target)
        assert _words(client, "ferry") == ["The ferry to the island leaves at noon"]
        assert recall(client, "when does the boat go", alpha=1.0)["results"][0]["id"] == later


def test_a_writer_waits_for_the_bulk_import_and_its_row_is_indexed(source, snap, target):
    """While the triggers are set aside nobody else can write: the import holds the write lock."""
    written: list[str] = []
    writer = threading.Thread(target=lambda: written.append(
        remember(target, RememberRequest(content="The bakery on Elm Street sells rye on Fridays")).id))

    def progress(table, done, total):
        if table == "embeddings" and not writer.is_alive() and not written:
            writer.start()
            writer.join(0.5)
            assert writer.is_alive(), "a write went through while the import held the store"

    _import(target, snap, source[0], bulk=True, chunk=1, progress=progress)
    writer.join(30)
    assert written
    settle(target)
    with TestClient(create_app(service=target)) as client:
        assert _words(client, "bakery") == ["The bakery on Elm Street sells rye on Fridays"]
        assert recall(client, "where can I buy bread", alpha=1.0)["results"][0]["id"] == written[0]
        assert _words(client, "Postgres") == ["We decided to use Postgres over MySQL for Signet"]
