"""The filesystem connector's sync: walk the root, read the files newer than the cursor and hand
each new or changed text to the document pipeline. Reads go through providers/local_files.py (the
allowed roots checked at every sync, no symlink followed); each file is written in its own short
transaction, so a crash mid-sync loses nothing and the job's retry resumes it. A bad file is a
per-file error; only an error that stops the walk fails the sync. Design: docs/internals.md.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import logging
import os
import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from signet_pipeline.analytics import error_event, record_errors
from signet_pipeline.connectors.models import FileError, FilesystemSettings, SyncRequest, SyncResult
from signet_pipeline.connectors.registry import local_files, settings_of
from signet_pipeline.errors import FileRefused
from signet_pipeline.providers.local_files import LocalFiles
from signet_pipeline.service import MemoryService
from signet_pipeline.store import documents as doc_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.queue import DOCUMENT_INGEST
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.documents import retire_chunks
from signet_pipeline.write.remember import Actor

ACTOR = Actor(name="connector-filesystem", type="pipeline")
log = logging.getLogger("signet.connectors")


@lru_cache(maxsize=256)
def _glob(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def matches(relative: str, patterns: list[str]) -> bool:
    return any(_glob(p).match(relative) for p in patterns)


def ignored(relative: str, ignore: list[str]) -> bool:
    parts = relative.split("/")
    return any(fnmatch.fnmatchcase(part, p) for p in ignore for part in parts) or matches(relative, ignore)


@dataclass(frozen=True)
class Found:
    path: str  # absolute
    mtime: float


def scan(root: Path, settings: FilesystemSettings, files: LocalFiles) -> Iterator[Found]:
    """Files under `root` (confined: a real path) matching the patterns, minus the ignored ones and
    the trees never read. Links and special files are listed too: reading them is refused, which
    the sync reports per file. Raises when the root cannot be walked (missing, not a directory)."""
    if not root.is_dir():
        raise FileNotFoundError(f"rootPath {root} is not a readable directory")

    def fail(exc: OSError) -> None:
        if Path(exc.filename or "") == root:
            raise exc

    for current, dirs, names in os.walk(root, onerror=fail):  # never descends into a linked directory
        rel_dir = os.path.relpath(current, root).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        dirs[:] = sorted(d for d in dirs if not ignored(rel_dir + d, settings.ignore_patterns)
                         and not files.excluded(os.path.join(current, d)))
        for name in sorted(names):
            relative = rel_dir + name
            if ignored(relative, settings.ignore_patterns) or not matches(relative, settings.patterns):
                continue
            path = os.path.join(current, name)
            try:
                mtime = os.lstat(path).st_mtime
            except OSError:
                continue  # vanished between listing and stat
            yield Found(path, mtime)


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def _store(svc: MemoryService, connector: dict, found: Found, text: str, *, force: bool) -> bool:
    """Insert or update the file's document and queue its ingest; False when the text is unchanged
    (a full sync, `force`, queues it anyway: chunks it already has are linked, not copied). A new
    document belongs to the connector's agent, with the visibility the operator configured (a
    document keeps the one it was created with)."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    title = Path(found.path).name
    with svc.db.write() as conn:
        now = now_iso()
        doc = doc_store.connector_document(conn, connector["id"], found.path)
        if doc is not None and not force and doc["content_hash"] == digest and doc["status"] != "failed":
            return False
        if doc is None:
            document_id = str(uuid.uuid4())
            doc_store.insert(conn, {"id": document_id, "source_url": found.path, "source_type": "text",
                                    "raw_content": text, "content_hash": digest, "title": title,
                                    "connector_id": connector["id"], "content_type": "text/plain",
                                    "agent_id": connector["agent_id"],
                                    "visibility": svc.settings.connectors.document_visibility,
                                    "created_at": now, "updated_at": now})
        else:
            document_id = doc["id"]
            doc_store.replace_content(conn, document_id, raw_content=text, content_hash=digest, title=title, now=now)
        job_store.enqueue(conn, job_type=DOCUMENT_INGEST, document_id=document_id, now=now,
                          max_attempts=svc.settings.pipeline.worker.max_retries)
    return True


def _remove_missing(svc: MemoryService, connector_id: str, present: set[str]) -> int:
    removed = 0
    for doc in doc_store.connector_documents(svc.db.reader(), connector_id):
        if doc["source_url"] in present:
            continue
        with svc.db.write() as conn:
            retire_chunks(conn, doc["id"], doc_store.owned_chunk_ids(conn, doc["id"]), actor=ACTOR,
                          reason="file removed", now=now_iso())
            doc_store.delete(conn, doc["id"])
        removed += 1
    return removed


def sync(svc: MemoryService, request: SyncRequest) -> SyncResult:
    """Run one sync. Never raises for the sync's own failures: they set the connector's status to
    `error` with `last_error` (the job completes; the operator fixes the cause and syncs again)."""
    started = time.perf_counter()
    result = SyncResult(full=request.full)
    row = doc_store.connector(svc.db.reader(), request.connector_id)
    if row is None:
        return result  # deleted while queued
    try:
        settings = settings_of(row)
        files = local_files(svc.settings)
        root = files.confine(settings.root_path)  # agent.yaml may no longer allow it
        since = 0.0 if request.full else float(json.loads(row["cursor_json"] or "{}").get("lastSyncAt", 0.0))
        scan_started = time.time()
        present: set[str] = set()
        for found in scan(root, settings, files):
            present.add(found.path)
            result.scanned += 1
            if found.mtime <= since:
                result.unchanged += 1
                continue
            try:
                text = _decode(files.read(found.path, max_bytes=settings.max_file_size, limit_name="maxFileSize"))
            except (OSError, ValueError, FileRefused) as exc:
                result.errors.append(FileError(path=found.path, error=str(exc)[:300]))
                continue
            if _store(svc, row, found, text, force=request.full):
                result.queued += 1
            else:
                result.unchanged += 1
        result.removed = _remove_missing(svc, row["id"], present)
    except Exception as exc:  # noqa: BLE001 - any abort is the connector's error, shown by health
        result.elapsed_ms = round((time.perf_counter() - started) * 1000, 1)
        error = f"{type(exc).__name__}: {exc}"[:500]
        with svc.db.write() as conn:
            doc_store.set_connector_status(conn, row["id"], "error", now=now_iso(), error=error,
                                           result=result.model_dump())
        record_errors(svc.db, [error_event("CONNECTOR_SYNC_FAIL", f"connector {row['id']}: {error}")])
        log.warning("connector %s sync failed: %s", row["id"], error)
        return result
    result.elapsed_ms = round((time.perf_counter() - started) * 1000, 1)
    with svc.db.write() as conn:
        doc_store.finish_sync(conn, row["id"], cursor={"lastSyncAt": scan_started}, now=now_iso(),
                              result=result.model_dump())
    return result
