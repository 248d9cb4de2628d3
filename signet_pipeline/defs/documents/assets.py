"""Document assets (queue-driven): URLs and texts queued through /api/documents become chunk
memories; connector syncs feed files into the same queue."""

import dagster as dg

from signet_pipeline.defs.metadata import bullet_list, latency, table
from signet_pipeline.defs.queue.backlog import MEMORY_JOBS
from signet_pipeline.defs.queue.drain import DrainConfig, drain_queue
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.defs.store import DOCUMENTS
from signet_pipeline.stages.connectors import run_connector_jobs
from signet_pipeline.stages.documents import run_document_jobs
from signet_pipeline.stages.drain.jobs import JobBatch
from signet_pipeline.store.queue import CONNECTOR_SYNC, DOCUMENT_INGEST

GROUP = "documents"


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"}, deps=[MEMORY_JOBS, DOCUMENTS],
    description="Document ingest: drains the `document_ingest` queue; fetches each URL (30 s timeout, "
                "documents.maxContentBytes cap, text types only, HTML reduced to text and title) or reads the queued "
                "text, splits it into overlapping chunks (documents.chunkSize / chunkOverlap) and writes each as a "
                "document_chunk memory linked to the document. Status moves extracting -> chunking -> embedding -> "
                "indexing -> done (or failed, retried with backoff).",
)
def document_ingest(context: dg.AssetExecutionContext, config: DrainConfig,
                    signet: SignetStoreResource) -> dg.MaterializeResult:
    svc = signet.service()
    batch: JobBatch = JobBatch()
    report = drain_queue(context, config, signet, (DOCUMENT_INGEST,),
                         [lambda queue: lambda limit: batch.add(run_document_jobs(svc, queue, limit))])
    if batch.failed:
        context.log.warning("%d document(s) failed and will be retried: %s", len(batch.failed), batch.failed[0])
    done = [r for r in batch.reports if r.status == "done"]
    return dg.MaterializeResult(metadata={
        **report.as_metadata(), "documents": len(done), "chunks": sum(r.chunks for r in done),
        "memories": sum(r.memories for r in done),
        "deduped_chunks": sum(r.deduped for r in done), "bytes": sum(r.bytes for r in done),
        "failed_permanently": sum(r.status == "failed" for r in batch.reports),
        "skipped": sum(r.status == "skipped" for r in batch.reports), "failures": len(batch.failed),
        "dead": batch.dead, **latency(batch.llm_ms, "ingest"),
        "documents_table": table(["document", "title", "chunks", "memories", "bytes", "ms"],
                                 [[r.document_id[:8], r.title or "-", r.chunks, r.memories, r.bytes, r.elapsed_ms]
                                  for r in done[:20]], empty="no documents ingested"),
        "errors": bullet_list(batch.failed[:20]),
    })


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"}, deps=[MEMORY_JOBS],
    description="Connector syncs: drains the `connector_sync` queue (POST /api/connectors/{id}/sync). A filesystem "
                "sync walks rootPath, reads the files matching `patterns` (minus `ignorePatterns`) whose mtime is "
                "newer than the cursor (every file on a full sync), upserts one document per file (matched by its "
                "path) and queues its ingest; documents whose file is gone are deleted. Unreadable, oversized or "
                "non-UTF-8 files are per-file errors; a sync that cannot walk its root sets the connector's status "
                "to error.",
)
def connector_sync(context: dg.AssetExecutionContext, config: DrainConfig,
                   signet: SignetStoreResource) -> dg.MaterializeResult:
    svc = signet.service()
    batch: JobBatch = JobBatch()
    report = drain_queue(context, config, signet, (CONNECTOR_SYNC,),
                         [lambda queue: lambda limit: batch.add(run_connector_jobs(svc, queue, limit))])
    results = batch.reports
    file_errors = [e for r in results for e in r.errors]
    if file_errors:
        context.log.warning("%d file(s) could not be read: %s", len(file_errors), file_errors[0].path)
    return dg.MaterializeResult(metadata={
        **report.as_metadata(), "syncs": len(results), "files_scanned": sum(r.scanned for r in results),
        "files_queued": sum(r.queued for r in results), "files_unchanged": sum(r.unchanged for r in results),
        "documents_removed": sum(r.removed for r in results), "file_errors": len(file_errors),
        "failures": len(batch.failed),
        "file_errors_table": table(["file", "error"], [[e.path, e.error] for e in file_errors[:20]],
                                   empty="no file errors"),
        "errors": bullet_list(batch.failed[:20]),
    })
