"""Sessions domain: what ended sessions leave behind.

- assets.py: `session_summaries` (drains the session_summary queue: transcripts -> session_summary
  memories; group extraction, as those memories feed extraction) and `memory_md` (the MEMORY.md
  working-memory summary; group sessions).
- jobs.py: `summarize_sessions` (tag signet/queue: session_summary), `synthesize_memory_md`.
- sensors.py: `session_jobs_sensor`, which launches summarize_sessions when jobs are due.
- schedules.py: `synthesize_memory_md_schedule` (memory.synthesis.schedule).
"""

import dagster as dg

from signet_pipeline.defs.sessions.assets import memory_md, session_summaries
from signet_pipeline.defs.sessions.jobs import memory_md_job, sessions_job
from signet_pipeline.defs.sessions.schedules import memory_md_schedule
from signet_pipeline.defs.sessions.sensors import session_jobs_sensor

defs = dg.Definitions(assets=[session_summaries, memory_md], jobs=[sessions_job, memory_md_job],
                      sensors=[session_jobs_sensor], schedules=[memory_md_schedule])
