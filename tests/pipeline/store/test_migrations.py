import pytest

from signet_pipeline.errors import MigrationError
from signet_pipeline.store import migrate as migrations
from signet_pipeline.store.db import Database, rows, scalar


@pytest.fixture
def db(tmp_path):
    database = Database(tmp_path / "memory" / "memories.db")
    yield database
    database.close()


def objects(db):
    return {(r["type"], r["name"]) for r in rows(db.reader(), "SELECT type, name FROM sqlite_master")}


def test_migrates_an_empty_database(db):
    applied = migrations.migrate(db)
    assert applied == [m.version for m in migrations.discover()]
    found = objects(db)
    for table in ("memories", "memories_fts", "embeddings", "embedding_changes", "memory_history", "memory_jobs",
                  "schema_migrations", "schema_migrations_audit", "store_meta"):
        assert ("table", table) in found, table
    for trigger in ("memories_ai", "memories_ad", "memories_au"):
        assert ("trigger", trigger) in found
    assert ("index", "idx_memories_agent_content_hash_unique") in found
    recorded = rows(db.reader(), "SELECT version, checksum FROM schema_migrations")
    assert all(len(r["checksum"]) == 64 for r in recorded)
    assert scalar(db.reader(), "PRAGMA journal_mode") == "wal"
    assert scalar(db.reader(), "PRAGMA foreign_keys") == 1


def test_rerun_is_a_no_op_and_each_file_is_idempotent(db):
    migrations.migrate(db)
    assert migrations.migrate(db) == []
    # Running a file's SQL again on a migrated database must not fail (IF NOT EXISTS everywhere) —
    # except ALTER TABLE files, which SQLite cannot guard: the version record alone keeps them to one run.
    for mig in migrations.discover():
        if "ALTER TABLE" in mig.sql:
            continue
        with db.write() as conn:
            conn.execute(mig.sql)
    assert scalar(db.reader(), "SELECT count(*) FROM schema_migrations_audit") == len(migrations.discover())


def test_an_edited_applied_migration_is_refused(db):
    migrations.migrate(db)
    first = migrations.discover()[0]
    edited = migrations.Migration(first.version, first.name, first.sql + "\n-- edited\n")
    with pytest.raises(MigrationError, match="checksum"):
        migrations.migrate(db, [edited])


def test_a_migration_that_does_not_create_what_it_declares_rolls_back(db):
    migrations.migrate(db)
    broken = migrations.Migration(999, "broken", "CREATE TABLE IF NOT EXISTS ok_table(x); "
                                                 "SELECT 1 -- CREATE TABLE IF NOT EXISTS ghost(x)")
    with pytest.raises(MigrationError, match="ghost"):
        migrations.migrate(db, [broken])
    assert ("table", "ok_table") not in objects(db)
    assert 999 not in migrations.applied_versions(db)


def test_unique_partial_index_allows_a_deleted_twin_and_other_agents(db):
    migrations.migrate(db)
    insert = ("INSERT INTO memories(id, agent_id, content, normalized_content, content_hash, is_deleted, created_at, "
              "updated_at) VALUES (?, ?, 'x', 'x', 'h', ?, 't', 't')")
    with db.write() as conn:
        conn.execute(insert, ("a", "default", 1))
        conn.execute(insert, ("b", "default", 0))
        conn.execute(insert, ("c", "alice", 0))
    import apsw

    with pytest.raises(apsw.ConstraintError):
        with db.write() as conn:
            conn.execute(insert, ("d", "alice", 0))


def test_reads_by_hash_and_id_use_their_indexes(db):
    migrations.migrate(db)
    conn = db.reader()
    plan = " ".join(str(r) for r in conn.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM memories m WHERE m.content_hash IN ('a', 'b') AND m.is_deleted = 0"))
    assert "content_hash" in plan and "tombstones" not in plan


def test_processes_migrating_a_new_database_at_once_apply_each_version_once(tmp_path):
    import multiprocessing

    path = str(tmp_path / "race.db")
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_open_and_migrate, args=(path,)) for _ in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=60)
    assert [p.exitcode for p in procs] == [0] * 6
    db = Database(path)
    assert scalar(db.reader(), "SELECT count(*) FROM schema_migrations_audit") == len(migrations.discover())
    db.close()


def _open_and_migrate(path: str) -> None:
    db = Database(path)
    migrations.migrate(db)
    db.close()


def test_connectors_registered_before_ownership_belong_to_default(db):
    migrations.migrate(db, [m for m in migrations.discover() if m.version < 24])
    with db.write() as conn:
        conn.execute("INSERT INTO connectors(id, provider, display_name, created_at, updated_at) "
                     "VALUES ('c1', 'filesystem', 'notes', 't', 't')")
    assert 24 in migrations.migrate(db)
    assert scalar(db.reader(), "SELECT agent_id FROM connectors WHERE id = 'c1'") == "default"


def test_the_hints_index_is_rebuilt_with_one_row_per_memory(db):
    # Before 0033 a memory's hints went in with OR IGNORE, and FTS5 counted each replaced document as a
    # row: BM25 gave a word every hint document holds a weight. The rebuild counts each memory once.
    migrations.migrate(db, [m for m in migrations.discover() if m.version < 33])
    with db.write() as conn:
        for i in range(4):
            conn.execute("INSERT INTO memories(id, content, normalized_content, content_hash, created_at, updated_at) "
                         "VALUES (?, 'x', 'x', ?, 't', 't')", (f"m{i}", f"h{i}"))
            conn.executemany("INSERT OR IGNORE INTO memory_hints(memory_id, hint, model, created_at) "
                             "VALUES (?, ?, 'm', 't')", [(f"m{i}", f"What did Bo say about {w}?") for w in "abc"])

    def weights():
        return [r[0] for r in db.reader().execute(
            "SELECT bm25(memory_hints_fts) FROM memory_hints_fts WHERE memory_hints_fts MATCH '\"say\"'")]

    assert len(weights()) == 4 and all(abs(w) > 0.1 for w in weights())  # the drifted counts
    assert 33 in migrations.migrate(db)
    assert len(weights()) == 4 and all(abs(w) < 1e-3 for w in weights())
