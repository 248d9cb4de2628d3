"""Wiring agent harnesses to the API: `signet hook` (hook.py, what a harness runs on its lifecycle
events) and `signet connect` / `disconnect` (connect.py), which write Claude Code's (claude_code.py)
and Codex's (codex.py) own configuration: their hooks (hook_entries.py) and MCP server entry, edited
in place with a backup (config_files.py, toml_tables.py)."""
