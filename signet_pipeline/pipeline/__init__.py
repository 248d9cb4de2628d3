"""The asynchronous half: the job queue and the stages that consume it (no dagster imports)."""
