"""The sessions domain's sensor: session_jobs_sensor launches summarize_sessions when session_summary
jobs are due (queue/sensors.py says how a tick works)."""

from signet_pipeline.defs.queue.sensors import queue_sensor
from signet_pipeline.defs.sessions.jobs import sessions_job
from signet_pipeline.store.queue import SESSION_SUMMARY

session_jobs_sensor = queue_sensor(
    name="session_jobs_sensor", job_types=(SESSION_SUMMARY,), job=sessions_job,
    description="Watches memory_jobs for due `session_summary` jobs (queued by the session-end hook when it stores a "
                "transcript) and, when no summarize_sessions run is queued or running, requests one drain run; frees "
                "dead workers' leases.",
)
