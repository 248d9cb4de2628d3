"""The Dagster code location: one folder per domain, each exposing its assets, jobs, sensors,
schedules and checks as `defs`, plus the shared resources.py, metadata.py and store.py (the
store's tables as external assets). definitions.py merges them into what workspace.yaml and
`signet up` load. A domain imports only its own modules, queue/ and the shared ones; this is the
only package that imports dagster (docs/architecture.md maps the folders).
"""
