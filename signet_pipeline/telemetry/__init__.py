"""Local telemetry and the shared structured log. Nothing leaves the machine: events and log
entries go into the store, bounded, and the API reads them back (/api/telemetry/*, /api/logs)."""
