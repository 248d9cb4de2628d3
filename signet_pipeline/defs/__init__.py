"""The Dagster code location: assets (thin shells over stages/), the jobs that select them, the
sensors that turn the queue into drain runs and observe its backlog, schedules, asset checks (the
diagnostics domains), resources and the Definitions object (definitions.py, what workspace.yaml and
`signet up` load). The only package that imports dagster; nothing imports it."""
