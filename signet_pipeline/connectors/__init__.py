"""Connectors (spec "Connector Framework"): sources the document pipeline pulls from. `filesystem`
is the built-in provider; registry.py is what the API calls, filesystem.py the sync a Dagster run
executes."""
