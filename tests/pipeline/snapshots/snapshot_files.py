"""Building snapshots to import: a store filled with one of each kind of row, a table's rows to
compare, and edits to an exported snapshot's files (a damaged manifest; forged rows with the
manifest's checksums recomputed, as anyone holding the files can: checksums catch damage, not edits)."""

import json

import polars as pl

from signet_pipeline.graph.persist import persist_triples
from signet_pipeline.models import ExtractedEntity, RememberRequest
from signet_pipeline.snapshots.manifest import MANIFEST, Manifest, sha256_of
from signet_pipeline.store import snapshot_tables
from signet_pipeline.store.db import Database, one
from signet_pipeline.text.content import normalize_content
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import remember
from tests.conftest import settle


def fill(svc) -> dict[str, str]:
    ids = {
        "pg": remember(svc, RememberRequest(content="We decided to use Postgres over MySQL for Signet",
                                            tags=["db", "decision"], pinned=True)).id,
        "jazz": remember(svc, RememberRequest(content="Bob likes late-night jazz records")).id,
        "gone": remember(svc, RememberRequest(content="The staging server lives in Frankfurt")).id,
        "other": remember(svc, RememberRequest(content="Priya Sharma maintains the billing service",
                                               agentId="ops", visibility="private")).id,
    }
    with svc.db.write() as conn:  # a second version with history, and a tombstone
        # as an update writes it: the content's hash with it, and its vector under that hash
        new_hash = normalize_content("Bob likes jazz records from the fifties").content_hash
        conn.execute("UPDATE embeddings SET content_hash = ? WHERE content_hash = "
                     "(SELECT content_hash FROM memories WHERE id = ?)", (new_hash, ids["jazz"]))
        conn.execute("UPDATE memories SET content = 'Bob likes jazz records from the fifties', content_hash = ?, "
                     "version = 2 WHERE id = ?", (new_hash, ids["jazz"]))
        conn.execute("INSERT INTO memory_history(id, memory_id, event, old_content, new_content, changed_by, "
                     "created_at) VALUES ('h-1', ?, 'updated', 'Bob likes late-night jazz records', "
                     "'Bob likes jazz records from the fifties', 'test', ?)", (ids["jazz"], now_iso()))
        conn.execute("UPDATE memories SET is_deleted = 1, deleted_at = ? WHERE id = ?", (now_iso(), ids["gone"]))
    source_row = one(svc.db.reader(), "SELECT * FROM memories WHERE id = ?", (ids["pg"],))
    persist_triples(svc, source_row, [ExtractedEntity(source="Signet", relationship="uses", target="Postgres",
                                                      confidence=0.9)])
    settle(svc)
    return ids


def dump(db: Database, table: str) -> list[tuple]:
    spec = snapshot_tables.BY_NAME[table]
    conn = db.reader()
    cols = [c for c, _ in snapshot_tables.columns(conn, table) if c not in spec.skip]
    return sorted(conn.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall(), key=repr)


def edit_manifest(snap, *, schema_version=None, rows_of_memories=None):
    data = json.loads((snap / MANIFEST).read_text())
    if schema_version is not None:
        data["schema_version"] = schema_version
    for entry in data["tables"]:
        if entry["table"] == "memories" and rows_of_memories is not None:
            entry["rows"] = rows_of_memories
    (snap / MANIFEST).write_text(json.dumps(data))


def _manifest(snap) -> Manifest:
    return Manifest.model_validate_json((snap / MANIFEST).read_text())


def forge(snap, table: str, *, add: list[dict] = (), edit=None, full: bool = False) -> None:
    """Edit a table file of the snapshot (add rows, or rewrite them), then fix the manifest up so
    that every check passes; `full` also drops the manifest's agent (claims a full snapshot)."""
    manifest = _manifest(snap)
    entry = manifest.table(table)
    path = snap / entry.file
    frame = pl.read_parquet(path)
    if edit is not None:
        frame = edit(frame)
    if add:
        frame = pl.concat([frame, pl.DataFrame([{**dict.fromkeys(frame.columns), **row} for row in add],
                                               schema=frame.schema)])
    frame.write_parquet(path)
    entry.rows, entry.bytes, entry.sha256 = frame.height, path.stat().st_size, sha256_of(path)
    if full:
        manifest.agent = None
    (snap / MANIFEST).write_text(manifest.model_dump_json())


def first(snap, table: str, **changes) -> dict:
    return {**pl.read_parquet(snap / _manifest(snap).table(table).file).row(0, named=True), **changes}


def forged_takeover(snap, victim: str) -> None:
    """The reported attack: a1's memory row copied onto a2's private memory id, made global,
    version 99; and a history row for it."""
    forge(snap, "memories", add=[first(snap, "memories", id=victim, agent_id="a1", visibility="global",
                                       version=99, content="Forged: nothing to see",
                                       normalized_content="forged: nothing to see", content_hash="f" * 64)])
    forge(snap, "memory_history", add=[{"id": "h-forged", "memory_id": victim, "event": "updated",
                                        "new_content": "Forged: nothing to see", "created_at": now_iso()}])
