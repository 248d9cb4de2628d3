"""Queue domain: the job queue every other domain drains, and the pieces they share to drain it.

- backlog.py: `memory_jobs` (asset spec, group queue) and `queue_backlog_sensor`, which records
  its depth, drain rate and ETA per job type as observations of that asset; `drain_observation`,
  what each drain run records there as it starts and ends.
- sensors.py: `queue_sensor`, the factory of the drain sensors (memory_jobs_sensor,
  document_jobs_sensor, connector_jobs_sensor, session_jobs_sensor live in their domains), and
  `IN_FLIGHT`, the run statuses that hold a slot.
- drain.py: `DrainConfig`, `drain_queue` (the drain shell of every queue-driven asset, which
  observes memory_jobs at its start and end) and
  `drain_job` (a drain asset's job, tagged `signet/queue` for dagster.yaml's one-run-per-queue limit).
"""

import dagster as dg

from signet_pipeline.defs.queue.backlog import MEMORY_JOBS, queue_backlog_sensor

defs = dg.Definitions(assets=[MEMORY_JOBS], sensors=[queue_backlog_sensor])
