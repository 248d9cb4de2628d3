"""The sessions domain's jobs: summarize_sessions (drains the session_summary queue) and
synthesize_memory_md."""

import dagster as dg

from signet_pipeline.defs.queue.drain import drain_job
from signet_pipeline.defs.sessions.assets import memory_md, session_summaries
from signet_pipeline.store.queue import SESSION_SUMMARY

sessions_job = drain_job(
    "summarize_sessions", session_summaries, queue=SESSION_SUMMARY, sensor="session_jobs_sensor",
    description="Drains the `session_summary` queue: ended sessions' transcripts -> session_summary memories. ",
)

memory_md_job = dg.define_asset_job(
    "synthesize_memory_md", selection=dg.AssetSelection.assets(memory_md),
    description="Regenerate MEMORY.md for the default agent and every isolated agent (memory.synthesis.schedule).",
)
