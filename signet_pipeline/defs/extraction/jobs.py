"""The extraction domain's job: process_memories, one drain run over the memory queues."""

from signet_pipeline.defs.extraction.assets import memory_pipeline
from signet_pipeline.defs.queue.drain import drain_job

MEMORY_QUEUE_TAG = "memory"  # the extract, structural_classify and prospective_index queues

process_memories_job = drain_job(
    "process_memories", memory_pipeline, queue=MEMORY_QUEUE_TAG, sensor="memory_jobs_sensor",
    description="Drains the memory queues in one run: extraction (lease -> extract -> decide -> controlled writes) "
                "first, then structural classification, then prospective hints, batch after batch. ",
    note=" hints_backfill queues hints for old memories first.",
)
