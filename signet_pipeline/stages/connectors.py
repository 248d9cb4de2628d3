"""Connector syncs as queue jobs: each `connector_sync` job (queued by POST
/api/connectors/{id}/sync) runs one sync (connectors/filesystem.py), which queues document ingest
for the files it found new or changed."""

from __future__ import annotations

from signet_pipeline.connectors.filesystem import sync
from signet_pipeline.connectors.models import SyncRequest, SyncResult
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.drain.jobs import JobBatch, run_queue_jobs
from signet_pipeline.store.queue import CONNECTOR_SYNC, JobQueue


def run_connector_jobs(svc: MemoryService, queue: JobQueue, limit: int,
                       ids: list[int] | None = None) -> JobBatch[SyncResult]:
    return run_queue_jobs(
        svc.db, queue, ("connector", "filesystem"), CONNECTOR_SYNC, limit=limit, ids=ids, target="payload",
        provider_event="provider.call",
        work=lambda job, _completion: sync(svc, SyncRequest.model_validate_json(job["payload"] or "{}")),
        result=lambda report: report.model_dump(exclude={"errors"}) | {"errors": len(report.errors)})
