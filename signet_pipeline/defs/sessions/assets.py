"""Session assets: ended sessions' transcripts become session_summary memories (queue-driven),
and MEMORY.md, the working-memory summary, is regenerated on its schedule."""

import dagster as dg

from signet_pipeline.defs.metadata import bullet_list, latency, table
from signet_pipeline.defs.queue.backlog import MEMORY_JOBS
from signet_pipeline.defs.queue.drain import DrainConfig, drain_queue
from signet_pipeline.defs.resources import LlmResource, SignetStoreResource
from signet_pipeline.defs.store import MEMORIES, SESSION_TRANSCRIPTS
from signet_pipeline.sessions.synthesis import agents_with_files, synthesize
from signet_pipeline.stages.drain.jobs import JobBatch
from signet_pipeline.stages.session_summary import run_session_jobs
from signet_pipeline.store.queue import SESSION_SUMMARY

GROUP = "extraction"


@dg.asset(
    group_name=GROUP, kinds={"python", "sqlite"}, deps=[MEMORY_JOBS, SESSION_TRANSCRIPTS],
    description="Session summaries: drains the `session_summary` queue (jobs queued by the session-end hook with "
                "the session's transcript), reads each transcript as user/assistant turns (tool calls, tool output "
                "and harness wrappers dropped), asks the LLM provider window by window (8,000 characters) for the "
                "statements worth keeping, and writes each window's statements as one session_summary memory "
                "(source_id = the session key; recall expand attaches the transcript). Those memories get extract "
                "jobs like any other. All provider calls precede the writes, so a failed job wrote nothing.",
)
def session_summaries(context: dg.AssetExecutionContext, config: DrainConfig, signet: SignetStoreResource,
                      llm: LlmResource) -> dg.MaterializeResult:
    svc = signet.service()
    provider = llm.create(svc.settings)
    batch: JobBatch = JobBatch()
    report = drain_queue(context, config, signet, (SESSION_SUMMARY,),
                         [lambda queue: lambda limit: batch.add(run_session_jobs(svc, queue, provider, limit))])
    if batch.failed:
        context.log.warning("%d session summary job(s) failed and will be retried: %s", len(batch.failed),
                            batch.failed[0])
    done = [r for r in batch.reports if r.skipped is None]
    warnings = [f"{r.session_key[:24]}: {w}" for r in batch.reports for w in r.warnings]
    return dg.MaterializeResult(metadata={
        **report.as_metadata(), "sessions": len(done), "windows": sum(r.windows for r in done),
        "windows_dropped": sum(r.windows_dropped for r in done), "statements": sum(r.statements for r in done),
        "memories_written": sum(len(r.memory_ids) for r in done), "deduped": sum(r.deduped for r in done),
        "skipped": sum(r.skipped is not None for r in batch.reports), "failures": len(batch.failed),
        "dead": batch.dead, "provider": provider.name, "model": provider.model, **latency(batch.llm_ms, "session"),
        "sessions_table": table(["session", "windows", "statements", "memories", "ms"],
                                [[r.session_key[:24], r.windows, r.statements, len(r.memory_ids), r.elapsed_ms]
                                 for r in done[:20]], empty="no sessions summarized"),
        "warnings": bullet_list(warnings[:50] + batch.failed[:20]),
    })


@dg.asset(
    group_name="sessions", kinds={"python", "markdown"}, deps=[MEMORIES],
    description="MEMORY.md: the working-memory summary session-start hands to each new session as recentContext. "
                "Selects the agent's pinned, important (>= 0.8) and last-7-days memories and its session summaries "
                "(60 at most), has the LLM provider write the summary (the rules provider, or a provider that fails, "
                "writes a deterministic structured one), backs the previous file up to memory/MEMORY.backup-<time>.md "
                "and writes $SIGNET_WORKSPACE/MEMORY.md; an isolated agent gets agents/<id>/MEMORY.md. Scheduled by "
                "memory.synthesis.schedule (daily, weekly or on-demand).",
)
def memory_md(context: dg.AssetExecutionContext, signet: SignetStoreResource, llm: LlmResource) -> dg.MaterializeResult:
    svc = signet.service()
    provider = llm.create(svc.settings)
    reports = [synthesize(svc, provider, agent) for agent in agents_with_files(svc)]
    for report in reports:
        context.log.info("%s: %d memories -> %s (%d chars, %s)", report.agent_id, report.memories, report.path,
                         report.chars, report.how)
    first = reports[0]
    return dg.MaterializeResult(metadata={
        "memories_used": sum(r.memories for r in reports), "chars": sum(r.chars for r in reports),
        "written_by": first.how, "path": dg.MetadataValue.path(first.path),
        "backup": first.backup or "none (first synthesis)",
        "preview": dg.MetadataValue.md(first.preview or "_empty_"),
        "agents": table(["agent", "memories", "chars", "written by", "file"],
                        [[r.agent_id, r.memories, r.chars, r.how, r.path] for r in reports]),
    })
