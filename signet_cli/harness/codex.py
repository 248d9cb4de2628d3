"""Codex's configuration: hooks in hooks.json ($CODEX_HOME, default ~/.codex; a project's
DIR/.codex/hooks.json), the MCP server as `[mcp_servers.signet]` in config.toml beside it, and each
hook's trust in the person's config.toml: Codex runs a hook that is not managed only once its
`[hooks.state."<hooks.json>:<event>:<group>:<handler>"]` holds the hash of what it runs (what its
review screen writes when the person trusts it; running `signet connect codex` is that consent)."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from signet_cli.harness import hook_entries, toml_tables
from signet_cli.harness.config_files import Edit, json_edit, read_json, read_text, with_entry
from signet_cli.harness.hook_entries import Wiring
from signet_cli.harness.toml_tables import TablePath

HARNESS = "codex"
# Codex event -> our hook. Stop ends each turn and Codex has no session end, so each Stop hands over
# the transcript so far as a checkpoint (summarized from where the last summary stopped): as a
# session-end, as the reference wires it, it would end the session after its first turn.
EVENTS = {"SessionStart": "session-start", "UserPromptSubmit": "user-prompt-submit", "PreCompact": "pre-compaction",
          "PostCompact": "compaction-complete", "Stop": "checkpoint"}
SERVER: TablePath = ("mcp_servers", "signet")
NOTE = "written by `signet connect codex`; `signet disconnect codex` removes it"
DEFAULT_TIMEOUT_S = 600  # what Codex assumes for a hook without one


def codex_home(wiring: Wiring) -> Path:
    return Path(wiring.env.get("CODEX_HOME") or wiring.home() / ".codex").expanduser()


def label(event: str) -> str:
    """Codex's name for an event in trust keys: SessionStart -> session_start."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def trusted_hash(event: str, grp: dict[str, Any], handler: dict[str, Any]) -> str:
    """The hash Codex compares a hook's trust with: sha256 over the canonical JSON (sorted keys, no
    spaces) of the event's label, the group's matcher and the one handler, normalized as Codex
    normalizes it (a timeout always, at least 1 s; async false unless set)."""
    normalized = {"type": "command", "command": handler["command"],
                  "timeout": max(int(handler.get("timeout", DEFAULT_TIMEOUT_S)), 1),
                  "async": bool(handler.get("async", False))}
    if handler.get("statusMessage"):
        normalized["statusMessage"] = handler["statusMessage"]
    identity: dict[str, Any] = {"event_name": label(event), "hooks": [normalized]}
    if isinstance(grp.get("matcher"), str):
        identity["matcher"] = grp["matcher"]
    canonical = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def plan(wiring: Wiring, connect: bool) -> list[Edit]:
    home = codex_home(wiring)
    folder = wiring.project / ".codex" if wiring.project is not None else home
    hooks_path, servers_path, trust_path = folder / "hooks.json", folder / "config.toml", home / "config.toml"
    before, hooks_file = read_json(hooks_path)
    old = hook_entries.events_of(hooks_file, hooks_path)
    ours = {name: hook_entries.group(wiring, event, HARNESS) for name, event in EVENTS.items()}
    new = hook_entries.merge(old, ours) if connect else hook_entries.strip(old)
    edits = [json_edit(hooks_path, before, with_entry(hooks_file, "hooks", new), hooks_file)]
    stale, moved, trusted = _trust(str(hooks_path.resolve()), old, new)
    server: dict[TablePath, dict[str, Any]] = {}
    if connect:
        server[SERVER] = {"command": str(wiring.signet_mcp), "args": []}
        if wiring.mcp_env():
            server[(*SERVER, "env")] = wiring.mcp_env()
    if servers_path == trust_path:
        return [*edits, _toml_edit(trust_path, stale | {SERVER}, moved, {**trusted, **server})]
    return [*edits, _toml_edit(servers_path, {SERVER}, {}, server), _toml_edit(trust_path, stale, moved, trusted)]


def _trust(source: str, old: dict[str, list[Any]], new: dict[str, list[Any]]) -> tuple[
        set[TablePath], dict[TablePath, TablePath], dict[TablePath, dict[str, Any]]]:
    """(the trust entries of our old hooks, the person's entries that move with their hooks, ours
    for the new hooks). Codex keys a hook's trust by its position in hooks.json."""
    def key(event: str, g: int, h: int) -> TablePath:
        return ("hooks", "state", f"{source}:{label(event)}:{g}:{h}")

    stale = {key(e, g, h) for e, at in hook_entries.positions(old, mine=True).items() for g, h in at}
    # The person's own hooks move up when one of ours before them goes: their trust moves with them.
    theirs_old, theirs_new = hook_entries.positions(old, mine=False), hook_entries.positions(new, mine=False)
    moved = {key(e, *a): key(e, *b) for e in theirs_old for a, b in zip(theirs_old[e], theirs_new[e]) if a != b}
    trusted = {key(e, g, h): {"enabled": True, "trusted_hash": trusted_hash(e, new[e][g], new[e][g]["hooks"][h])}
               for e, at in hook_entries.positions(new, mine=True).items() for g, h in at}
    return stale, moved, trusted


def _toml_edit(path: Path, drop: set[TablePath], rename: dict[TablePath, TablePath],
               add: dict[TablePath, dict[str, Any]]) -> Edit:
    before = read_text(path)
    parsed = toml_tables.parse(path, before)
    expected = _expected(parsed, drop | set(add), rename, add)
    if _solid(expected) == _solid(parsed):
        return Edit(path, before, before)
    gone = drop | set(add)  # ours are written anew, at the end
    after = toml_tables.edit(before or "", lambda p: any(p[:len(d)] == d for d in gone), rename,
                             [toml_tables.table(p, values, NOTE if p == SERVER else None) for p, values in add.items()])
    toml_tables.check(path, after, _solid(expected), _solid)
    return Edit(path, before, after)


def _expected(data: dict[str, Any], drop: set[TablePath], rename: dict[TablePath, TablePath],
              add: dict[TablePath, dict[str, Any]]) -> dict[str, Any]:
    """What the file should say after the edit: the tables dropped, renamed and added, nothing else."""
    out = copy.deepcopy(data)
    moved = {new: _pop(out, old) for old, new in rename.items()}
    for path in drop:
        _pop(out, path)
    for path, values in {**{p: v for p, v in moved.items() if v is not None}, **add}.items():
        node = out
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = dict(values)
    return out


def _pop(data: dict[str, Any], path: TablePath) -> Any:
    node: Any = data
    for part in path[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    return node.pop(path[-1], None) if isinstance(node, dict) else None


def _solid(value: Any) -> Any:
    """`value` without empty tables: whether a table whose entries all left stays behind as an empty
    header or vanishes with them (an implicit one) says nothing about the configuration."""
    if isinstance(value, dict):
        kept = {k: _solid(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v != {}}
    if isinstance(value, list):
        return [_solid(v) for v in value]
    return value
