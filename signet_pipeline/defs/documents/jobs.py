"""The documents domain's jobs: one drain run per queue (ingest_documents, sync_connectors)."""

from signet_pipeline.defs.documents.assets import connector_sync, document_ingest
from signet_pipeline.defs.queue.drain import drain_job
from signet_pipeline.store.queue import CONNECTOR_SYNC, DOCUMENT_INGEST

documents_job = drain_job(
    "ingest_documents", document_ingest, queue=DOCUMENT_INGEST, sensor="document_jobs_sensor",
    description="Drains the `document_ingest` queue: fetch or read, chunk, write chunk memories. ",
)

connectors_job = drain_job(
    "sync_connectors", connector_sync, queue=CONNECTOR_SYNC, sensor="connector_jobs_sensor",
    description="Drains the `connector_sync` queue: each requested sync reads new or changed files into documents "
                "and queues their ingest. ",
)
