"""Session summary asset (queue-driven): ended sessions' transcripts become session_summary
memories, which then go through extraction like any other memory."""

import dagster as dg

from signet_pipeline.assets.metadata import QueueBatchConfig, bullet_list, latency, table
from signet_pipeline.pipeline.session_summary import run_session_jobs
from signet_pipeline.resources import LlmResource, SignetStoreResource

GROUP = "extraction"


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"},
    description="Session summaries: leases a batch of `session_summary` jobs (queued by the session-end hook with "
                "the session's transcript), reads each transcript as user/assistant turns (tool calls, tool output "
                "and harness wrappers dropped), asks the LLM provider window by window (8,000 characters) for the "
                "statements worth keeping, and writes each window's statements as one session_summary memory "
                "(source_id = the session key; recall expand attaches the transcript). Those memories get extract "
                "jobs like any other. All provider calls precede the writes, so a failed job wrote nothing.",
)
def session_summaries(context: dg.AssetExecutionContext, config: QueueBatchConfig, signet: SignetStoreResource,
                      llm: LlmResource) -> dg.MaterializeResult:
    svc = signet.service()
    provider = llm.create(svc.settings)
    batch = run_session_jobs(svc, signet.queue(), provider, config.limit(svc.settings.pipeline.worker.batch_size),
                             config.job_ids or None)
    if batch.failed:
        context.log.warning("%d session summary job(s) failed and will be retried: %s", len(batch.failed),
                            batch.failed[0])
    done = [r for r in batch.reports if r.skipped is None]
    warnings = [f"{r.session_key[:24]}: {w}" for r in batch.reports for w in r.warnings]
    return dg.MaterializeResult(metadata={
        "sessions": len(done), "windows": sum(r.windows for r in done),
        "windows_dropped": sum(r.windows_dropped for r in done), "statements": sum(r.statements for r in done),
        "memories_written": sum(len(r.memory_ids) for r in done), "deduped": sum(r.deduped for r in done),
        "skipped": sum(r.skipped is not None for r in batch.reports), "failures": len(batch.failed),
        "dead": batch.dead, "provider": provider.name, "model": provider.model, **latency(batch.llm_ms, "session"),
        "sessions_table": table(["session", "windows", "statements", "memories", "ms"],
                                [[r.session_key[:24], r.windows, r.statements, len(r.memory_ids), r.elapsed_ms]
                                 for r in done[:20]], empty="no sessions summarized"),
        "warnings": bullet_list(warnings[:50] + batch.failed[:20]),
    })
