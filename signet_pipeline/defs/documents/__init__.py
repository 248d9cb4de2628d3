"""Documents domain: URLs, texts and connector files become chunk memories.

- assets.py: `document_ingest` (drains the document_ingest queue: fetch or read, chunk, write
  document_chunk memories) and `connector_sync` (drains the connector_sync queue: a sync reads new or
  changed files into documents and queues their ingest); group documents.
- jobs.py: `ingest_documents`, `sync_connectors` (tag signet/queue: the job type).
- sensors.py: `document_jobs_sensor`, `connector_jobs_sensor`, which launch them when jobs are due.
"""

import dagster as dg

from signet_pipeline.defs.documents.assets import connector_sync, document_ingest
from signet_pipeline.defs.documents.jobs import connectors_job, documents_job
from signet_pipeline.defs.documents.sensors import connector_jobs_sensor, document_jobs_sensor

defs = dg.Definitions(assets=[document_ingest, connector_sync], jobs=[documents_job, connectors_job],
                      sensors=[document_jobs_sensor, connector_jobs_sensor])
