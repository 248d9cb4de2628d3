"""The extraction domain's sensor: memory_jobs_sensor launches process_memories when the extract,
structural_classify or prospective_index queue has due jobs (queue/sensors.py says how a tick works)."""

from signet_pipeline.defs.extraction.assets import MEMORY_QUEUES
from signet_pipeline.defs.extraction.jobs import process_memories_job
from signet_pipeline.defs.queue.sensors import queue_sensor

memory_jobs_sensor = queue_sensor(
    name="memory_jobs_sensor", job_types=MEMORY_QUEUES, job=process_memories_job,
    description="Watches memory_jobs for due `extract`, `structural_classify` and `prospective_index` jobs and, when "
                "no process_memories run is queued or running, requests one drain run. Also frees the leases of "
                "drain workers that stopped beating (failing their runs) and reaps leases older than "
                "worker.leaseTimeoutMs.",
)
