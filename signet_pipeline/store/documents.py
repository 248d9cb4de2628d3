"""SQL for documents and document_memories."""

from __future__ import annotations

import json
from typing import Any

import apsw

from signet_pipeline.store.agents import READ_POLICY_SQL
from signet_pipeline.store.db import Row, one, rows, scalar

_COLUMNS = ("id", "source_url", "source_type", "content_type", "title", "status", "error", "chunk_count",
            "memory_count", "agent_id", "visibility", "project", "created_at", "updated_at", "completed_at")
_SELECT = ", ".join(f"d.{c}" for c in _COLUMNS) + ", length(d.raw_content) AS content_length"


def insert(conn: apsw.Connection, values: dict[str, Any]) -> None:
    names = list(values)
    conn.execute(f"INSERT INTO documents({', '.join(names)}) VALUES ({', '.join(':' + n for n in names)})", values)


def get(conn: apsw.Connection, document_id: str) -> Row | None:
    return one(conn, f"SELECT {_SELECT} FROM documents d WHERE d.id = ?", (document_id,))


def source(conn: apsw.Connection, document_id: str) -> Row | None:
    """What ingest works from: the URL or the raw content, and who the chunks belong to."""
    return one(conn, "SELECT id, source_url, source_type, raw_content, title, status, agent_id, visibility, project "
                     "FROM documents WHERE id = ?", (document_id,))


def _visible(agent_id: str) -> tuple[str, dict[str, Any]]:
    # The memories' read policy (documents carry agent_id and visibility too; `m` is its alias).
    return READ_POLICY_SQL, {"agent_id": agent_id}


def visible(conn: apsw.Connection, document_id: str, agent_id: str) -> Row | None:
    where, params = _visible(agent_id)
    params["id"] = document_id
    return one(conn, f"SELECT {_SELECT.replace('d.', 'm.')} FROM documents m WHERE m.id = :id AND {where}", params)


def page(conn: apsw.Connection, agent_id: str, *, status: str | None, limit: int, offset: int) -> tuple[list[Row], int]:
    where, params = _visible(agent_id)
    if status:
        where += " AND m.status = :status"
        params["status"] = status
    params.update(limit=limit, offset=offset)
    found = rows(conn, f"SELECT {_SELECT.replace('d.', 'm.')} FROM documents m WHERE {where} "
                       "ORDER BY m.created_at DESC, m.id LIMIT :limit OFFSET :offset", params)
    total = int(scalar(conn, f"SELECT count(*) FROM documents m WHERE {where}", params) or 0)
    return found, total


def set_status(conn: apsw.Connection, document_id: str, status: str, *, now: str, error: str | None = None,
               **fields: Any) -> None:
    allowed = {"title", "content_type", "content_hash", "chunk_count", "memory_count", "completed_at"}
    extra = {k: v for k, v in fields.items() if k in allowed}
    sets = "".join(f", {k} = :{k}" for k in extra)
    conn.execute(f"UPDATE documents SET status = :status, error = :error, updated_at = :now{sets} WHERE id = :id",
                 {"status": status, "error": error, "now": now, "id": document_id, **extra})


def link(conn: apsw.Connection, document_id: str, memory_ids: list[tuple[int, str]]) -> int:
    """(chunk index, memory id) links; returns how many are new."""
    return len(list(conn.execute(
        "INSERT INTO document_memories(document_id, memory_id, chunk_index) "
        "SELECT ?, json_extract(value, '$[1]'), json_extract(value, '$[0]') FROM json_each(?) "
        "WHERE true ON CONFLICT DO NOTHING RETURNING 1", (document_id, json.dumps(memory_ids)))))


def chunks(conn: apsw.Connection, document_id: str) -> list[Row]:
    return rows(conn, "SELECT dm.chunk_index, m.id, m.content, m.type, m.created_at, m.is_deleted "
                      "FROM document_memories dm JOIN memories m ON m.id = dm.memory_id WHERE dm.document_id = ? "
                      "ORDER BY dm.chunk_index",
                (document_id,))


def owned_chunk_ids(conn: apsw.Connection, document_id: str) -> list[str]:
    """Chunk memories this document created and no other document links: what deleting it may
    take with it (a linked memory that was already there, or another document's, stays)."""
    return [r[0] for r in conn.execute(
        "SELECT dm.memory_id FROM document_memories dm JOIN memories m ON m.id = dm.memory_id "
        "WHERE dm.document_id = ? AND m.source_type = 'document' AND m.source_id = ? AND NOT EXISTS "
        "(SELECT 1 FROM document_memories o WHERE o.memory_id = dm.memory_id AND o.document_id <> dm.document_id)",
        (document_id, document_id))]


def unlink(conn: apsw.Connection, document_id: str, memory_ids: list[str]) -> None:
    conn.execute("DELETE FROM document_memories WHERE document_id = ? "
                 "AND memory_id IN (SELECT value FROM json_each(?))",
                 (document_id, json.dumps(memory_ids)))


def delete(conn: apsw.Connection, document_id: str) -> bool:
    conn.execute("DELETE FROM document_memories WHERE document_id = ?", (document_id,))
    return bool(list(conn.execute("DELETE FROM documents WHERE id = ? RETURNING 1", (document_id,))))


# -- connectors: the sources documents are pulled from --------------------------------------------

def insert_connector(conn: apsw.Connection, values: dict[str, Any]) -> None:
    conn.execute("INSERT INTO connectors(id, provider, display_name, settings, agent_id, created_at, updated_at) "
                 "VALUES (:id, :provider, :display_name, :settings, :agent_id, :now, :now)", values)


def connector(conn: apsw.Connection, connector_id: str) -> Row | None:
    return one(conn, "SELECT * FROM connectors WHERE id = ?", (connector_id,))


def connectors(conn: apsw.Connection) -> list[Row]:
    return rows(conn, "SELECT * FROM connectors ORDER BY created_at, id")


def delete_connector(conn: apsw.Connection, connector_id: str) -> bool:
    return conn.execute("DELETE FROM connectors WHERE id = ? RETURNING 1", (connector_id,)).fetchone() is not None


def set_connector_status(conn: apsw.Connection, connector_id: str, status: str, *, now: str,
                         error: str | None = None, result: dict[str, Any] | None = None) -> None:
    conn.execute("UPDATE connectors SET status = ?, updated_at = ?, "
                 "last_error = CASE WHEN ? = 'error' THEN ? ELSE last_error END, "
                 "last_error_at = CASE WHEN ? = 'error' THEN ? ELSE last_error_at END, "
                 "last_result = coalesce(?, last_result) WHERE id = ?",
                 (status, now, status, error, status, now, json.dumps(result) if result is not None else None,
                  connector_id))


def finish_sync(conn: apsw.Connection, connector_id: str, *, cursor: dict[str, Any], now: str,
                result: dict[str, Any]) -> None:
    """A successful sync: cursor, last_sync_at and status in one statement (one transaction)."""
    conn.execute("UPDATE connectors SET status = 'idle', cursor_json = ?, last_sync_at = ?, last_error = NULL, "
                 "last_error_at = NULL, last_result = ?, updated_at = ? WHERE id = ?",
                 (json.dumps(cursor), now, json.dumps(result), now, connector_id))


def connector_document(conn: apsw.Connection, connector_id: str, source_url: str) -> Row | None:
    """This connector's document of a file (another connector over the same file has its own)."""
    return one(conn, "SELECT id, content_hash, status FROM documents WHERE source_url = ? AND connector_id = ? "
                     "ORDER BY created_at LIMIT 1", (source_url, connector_id))


def connector_documents(conn: apsw.Connection, connector_id: str) -> list[Row]:
    return rows(conn, "SELECT id, source_url FROM documents WHERE connector_id = ?", (connector_id,))


def connector_document_count(conn: apsw.Connection, connector_id: str) -> int:
    return int(scalar(conn, "SELECT count(*) FROM documents WHERE connector_id = ?", (connector_id,)) or 0)


def replace_content(conn: apsw.Connection, document_id: str, *, raw_content: str, content_hash: str, title: str,
                    now: str) -> None:
    """New text for a document, queued again (ingest retires the chunks the new text no longer has)."""
    conn.execute("UPDATE documents SET raw_content = ?, content_hash = ?, title = ?, status = 'queued', error = NULL, "
                 "chunk_count = 0, memory_count = 0, completed_at = NULL, updated_at = ? WHERE id = ?",
                 (raw_content, content_hash, title, now, document_id))


def connector_health(conn: apsw.Connection) -> Row:
    return one(conn, "SELECT count(*) AS total, coalesce(sum(status = 'error'), 0) AS errors, "
                     "min(CASE WHEN status = 'error' THEN last_error_at END) AS oldest_error_at FROM connectors") or {}


def connector_usage(conn: apsw.Connection) -> list[Row]:
    """Per connector: its documents, how many finished ingest, and whether its last sync failed."""
    return rows(conn, "SELECT c.id, count(d.id) AS documents, coalesce(sum(d.status = 'done'), 0) AS ingested, "
                      "(c.status = 'error') AS failing FROM connectors c "
                      "LEFT JOIN documents d ON d.connector_id = c.id GROUP BY c.id")
