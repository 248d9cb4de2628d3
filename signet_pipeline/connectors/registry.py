"""Connectors through the API: register, list, read, delete (optionally with their documents),
request a sync and report health. A sync request only marks the connector `syncing` and queues a
`connector_sync` job; a Dagster run executes it (filesystem.py), so the API never scans a disk."""

from __future__ import annotations

import json
import uuid
from typing import Any

from pydantic import ValidationError

from signet_pipeline.config import Settings
from signet_pipeline.connectors.models import PROVIDERS, ConnectorRequest, FilesystemSettings, view
from signet_pipeline.errors import InvalidRequest, NotFound
from signet_pipeline.providers.local_files import LocalFiles
from signet_pipeline.service import MemoryService
from signet_pipeline.store import documents as doc_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.queue import CONNECTOR_SYNC
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.documents import retire_chunks
from signet_pipeline.write.remember import Actor, ensure_writable


def _settings(provider: str, raw: dict[str, Any]) -> FilesystemSettings:
    if provider not in PROVIDERS:
        raise InvalidRequest(f"unknown connector provider {provider!r}; known: {', '.join(PROVIDERS)}",
                             code="unknown_provider")
    try:
        return FilesystemSettings.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'settings'}: {e['msg']}" for e in exc.errors())
        raise InvalidRequest(f"invalid {provider} settings: {problems}", code="invalid_settings") from exc


def settings_of(row: dict[str, Any]) -> FilesystemSettings:
    return FilesystemSettings.model_validate(json.loads(row["settings"]))


def local_files(settings: Settings) -> LocalFiles:
    """What connectors may read: under connectors.allowedRoots (agent.yaml, never the API), never
    the workspace (store, logs, agent.yaml) nor the auth secret, wherever it is kept."""
    return LocalFiles.of(settings.connectors.allowed_roots, never=(settings.workspace, settings.auth_secret_path),
                         setting="connectors.allowedRoots")


def register(svc: MemoryService, req: ConnectorRequest, *, agent_id: str) -> dict[str, Any]:
    """The root is checked now (FileRefused `root_not_allowed`, a 400) and kept as its real path;
    every sync checks it again against the settings of the day."""
    settings = _settings(req.provider, req.settings)
    root = local_files(svc.settings).confine(settings.root_path)
    settings = settings.model_copy(update={"root_path": str(root)})
    connector_id = str(uuid.uuid4())
    with svc.db.write() as conn:
        doc_store.insert_connector(conn, {"id": connector_id, "provider": req.provider, "agent_id": agent_id,
                                          "display_name": req.display_name, "settings": settings.as_json(),
                                          "now": now_iso()})
    return {"id": connector_id}


def _row(svc: MemoryService, connector_id: str) -> dict[str, Any]:
    row = doc_store.connector(svc.db.reader(), connector_id)
    if row is None:
        raise NotFound(f"connector {connector_id} not found", code="connector_not_found")
    return row


def listing(svc: MemoryService) -> dict[str, Any]:
    found = [view(r) for r in doc_store.connectors(svc.db.reader())]
    return {"connectors": found, "count": len(found)}


def get(svc: MemoryService, connector_id: str) -> dict[str, Any]:
    return view(_row(svc, connector_id))


def delete(svc: MemoryService, connector_id: str, *, cascade: bool, actor: Actor) -> dict[str, Any]:
    """The connector goes; with `cascade` its documents too (their chunk memories tombstoned)."""
    _row(svc, connector_id)
    if cascade:
        ensure_writable(svc)
    removed = 0
    with svc.db.write() as conn:
        if cascade:
            for doc in doc_store.connector_documents(conn, connector_id):
                removed += retire_chunks(conn, doc["id"], doc_store.owned_chunk_ids(conn, doc["id"]), actor=actor,
                                         reason="connector deleted", now=now_iso())
                doc_store.delete(conn, doc["id"])
        doc_store.delete_connector(conn, connector_id)
    return {"deleted": True, "memoriesDeleted": removed} if cascade else {"deleted": True}


def request_sync(svc: MemoryService, connector_id: str, *, full: bool) -> dict[str, Any]:
    """Mark the connector syncing and queue its sync, unless one is already on its way. A connector
    left `syncing` by a sync whose job is gone (dead after its retries) is queued again."""
    ensure_writable(svc)
    with svc.db.write() as conn:
        row = doc_store.connector(conn, connector_id)
        if row is None:
            raise NotFound(f"connector {connector_id} not found", code="connector_not_found")
        if row["status"] == "syncing" and job_store.live_for_payload(conn, CONNECTOR_SYNC, "connectorId", connector_id):
            return {"status": "syncing"}
        now = now_iso()
        doc_store.set_connector_status(conn, connector_id, "syncing", now=now)
        job_store.enqueue(conn, job_type=CONNECTOR_SYNC, now=now, payload={"connectorId": connector_id, "full": full},
                          max_attempts=svc.settings.pipeline.worker.max_retries)
    return {"status": "syncing"}


def health(svc: MemoryService, connector_id: str) -> dict[str, Any]:
    row = _row(svc, connector_id)
    return {"id": row["id"], "status": row["status"], "lastSyncAt": row["last_sync_at"], "lastError": row["last_error"],
            "documentCount": doc_store.connector_document_count(svc.db.reader(), connector_id)}
