"""Claude Code's configuration, as its own `claude mcp add` and settings files keep it: hooks in
settings.json (the person's: $CLAUDE_CONFIG_DIR or ~/.claude; a project's: DIR/.claude/settings.json),
the MCP server in ~/.claude.json (user scope; $CLAUDE_CONFIG_DIR/.claude.json when that is set) or
in a project's DIR/.mcp.json."""

from __future__ import annotations

from pathlib import Path

from signet_cli.harness import hook_entries
from signet_cli.harness.config_files import Edit, Unparseable, json_edit, read_json, with_entry
from signet_cli.harness.hook_entries import Wiring

HARNESS = "claude-code"
# Claude Code event -> our hook. PostCompact carries the summary Claude Code wrote (compact_summary).
EVENTS = {"SessionStart": "session-start", "UserPromptSubmit": "user-prompt-submit", "PreCompact": "pre-compaction",
          "PostCompact": "compaction-complete", "SessionEnd": "session-end"}
SERVER = "signet"


def paths(wiring: Wiring) -> tuple[Path, Path]:
    """(settings.json with the hooks, the file with the MCP servers)."""
    if wiring.project is not None:
        return wiring.project / ".claude" / "settings.json", wiring.project / ".mcp.json"
    configured = wiring.env.get("CLAUDE_CONFIG_DIR")
    if configured:
        config_dir = Path(configured).expanduser()
        return config_dir / "settings.json", config_dir / ".claude.json"
    return wiring.home() / ".claude" / "settings.json", wiring.home() / ".claude.json"


def plan(wiring: Wiring, connect: bool) -> list[Edit]:
    settings_path, servers_path = paths(wiring)
    before, settings = read_json(settings_path)
    hooks = hook_entries.events_of(settings, settings_path)
    ours = {name: hook_entries.group(wiring, event, HARNESS) for name, event in EVENTS.items()}
    wired = hook_entries.merge(hooks, ours) if connect else hook_entries.strip(hooks)
    edits = [json_edit(settings_path, before, with_entry(settings, "hooks", wired), settings)]
    before, config = read_json(servers_path)
    servers = config.get("mcpServers", {})
    if not isinstance(servers, dict):
        raise Unparseable(f"{servers_path}: \"mcpServers\" is not an object; fix it, then run again")
    kept = {name: entry for name, entry in servers.items() if name != SERVER}
    if connect:
        kept[SERVER] = {"type": "stdio", "command": str(wiring.signet_mcp), "args": [], "env": wiring.mcp_env()}
    edits.append(json_edit(servers_path, before, with_entry(config, "mcpServers", kept), config))
    return edits

