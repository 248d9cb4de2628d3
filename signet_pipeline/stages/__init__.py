"""Pipeline work, as plain functions: extraction (facts, decisions, controlled writes: extraction/),
hints, structural classification, documents, session summaries and continuity, communities,
projection, embedding refresh, retention, dedup, repairs and maintenance; and how a queue is drained
(drain/: the drain loop, worker heartbeats, the job runner). The only home of pipeline work: the
Dagster assets in defs/ only call these. May import every domain package (ops and below); not defs."""
