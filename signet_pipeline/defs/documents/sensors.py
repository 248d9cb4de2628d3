"""The documents domain's sensors: each launches its queue's drain run when jobs are due
(queue/sensors.py says how a tick works), paced by documents.workerIntervalMs."""

from signet_pipeline.defs.documents.jobs import connectors_job, documents_job
from signet_pipeline.defs.queue.sensors import queue_sensor
from signet_pipeline.store.queue import CONNECTOR_SYNC, DOCUMENT_INGEST

document_jobs_sensor = queue_sensor(
    name="document_jobs_sensor", job_types=(DOCUMENT_INGEST,), job=documents_job,
    poll_ms=lambda pipeline: pipeline.documents.worker_interval_ms,
    description="Watches memory_jobs for due `document_ingest` jobs (queued by POST /api/documents) and, when no "
                "ingest_documents run is queued or running, requests one drain run; frees dead workers' leases.",
)

connector_jobs_sensor = queue_sensor(
    name="connector_jobs_sensor", job_types=(CONNECTOR_SYNC,), job=connectors_job,
    poll_ms=lambda pipeline: pipeline.documents.worker_interval_ms,
    description="Watches memory_jobs for due `connector_sync` jobs (queued by POST /api/connectors/{id}/sync) and, "
                "when no sync_connectors run is queued or running, requests one drain run; frees dead workers' leases.",
)
