"""The package layers of signet_pipeline, from the bottom up: a package imports only from layers
below it or within its own (tests/project/test_layering.py enforces it)."""

LAYERS: list[set[str]] = [
    # base modules, may import each other
    {"__init__", "config", "config_sections", "errors", "timeutil", "request_rules"},
    {"store", "text", "auth", "limits"},
    {"telemetry"},
    {"analytics", "providers", "models", "snapshots"},
    {"service"},
    {"graph"},
    {"recall", "write"},
    {"mutations", "sessions", "connectors"},
    {"ops"},
    {"stages"},
    {"defs"},
]
