"""Hook entries in the shape Claude Code's settings.json and Codex's hooks.json share:
`{"hooks": {"EventName": [{"matcher": ..., "hooks": [{"type": "command", "command": ..., "timeout": s}]}]}}`.
Ours are recognized by their command (`signet hook ...`, ours or the reference CLI's), so the
person's own entries stay untouched and in order, and ours go after them."""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from signet_cli.harness.config_files import Unparseable
from signet_cli.harness.hook import EVENTS

OUR_COMMAND = re.compile(r"(?:^|[\s/\\'\"])signet(?:\.exe|\.cmd)?['\"]?\s+hook\s+[a-z][a-z-]*")
GRACE_S = 3  # the harness's timeout leaves the hook time to give up on its own and exit 0


@dataclass(frozen=True)
class Wiring:
    """What `signet connect` writes into a harness's configuration, and where."""

    signet: Path  # the `signet` executable the hooks run (absolute: the harness's PATH may not have it)
    signet_mcp: Path  # the MCP server on stdio
    url: str | None  # the API, when not the default the commands find in the environment
    project: Path | None  # the project's own configuration instead of the person's
    env: Mapping[str, str]  # where the harness keeps its configuration (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME)

    def home(self) -> Path:
        return Path(self.env.get("HOME") or Path.home())

    def mcp_env(self) -> dict[str, str]:
        return {"SIGNET_DAEMON_URL": self.url} if self.url else {}


def is_ours(handler: Any) -> bool:
    return isinstance(handler, dict) and isinstance(handler.get("command"), str) \
        and OUR_COMMAND.search(handler["command"]) is not None


def group(wiring: Wiring, event: str, harness: str) -> dict[str, Any]:
    """Our matcher group for one harness event: `signet hook EVENT -H HARNESS`."""
    url = wiring.url
    command = (f"{shlex.quote(str(wiring.signet))} hook {event} -H {harness}"
               + (f" --url {shlex.quote(url)}" if url else ""))
    return {"hooks": [{"type": "command", "command": command,
                       "timeout": math.ceil(EVENTS[event].budget_s) + GRACE_S}]}


def events_of(settings: dict[str, Any], path: Path) -> dict[str, list[Any]]:
    """settings["hooks"], checked for the shape both harnesses read; refused when it is not."""
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise Unparseable(f"{path}: \"hooks\" is not an object; fix it, then run again")
    for name, groups in hooks.items():
        if not isinstance(groups, list):
            raise Unparseable(f"{path}: hooks.{name} is not a list of matcher groups; fix it, then run again")
    return hooks


def strip(hooks: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """The hooks without ours: a group that held only ours goes, an event left empty goes."""
    kept: dict[str, list[Any]] = {}
    for name, groups in hooks.items():
        left = []
        for grp in groups:
            handlers = grp.get("hooks") if isinstance(grp, dict) else None
            if not isinstance(handlers, list) or not any(is_ours(h) for h in handlers):
                left.append(grp)
                continue
            theirs = [h for h in handlers if not is_ours(h)]
            if theirs:
                left.append({**grp, "hooks": theirs})
        if left or not groups:
            kept[name] = left
    return kept


def merge(hooks: dict[str, list[Any]], ours: dict[str, dict[str, Any]]) -> dict[str, list[Any]]:
    """The person's hooks as they were, then ours, one group per event."""
    merged = strip(hooks)
    for name, grp in ours.items():
        merged[name] = [*merged.get(name, []), grp]
    return merged


def positions(hooks: dict[str, list[Any]], mine: bool) -> dict[str, list[tuple[int, int]]]:
    """(group index, handler index) of each handler, ours or the person's, event by event, in order
    (Codex keys a hook's trust by this position)."""
    found: dict[str, list[tuple[int, int]]] = {}
    for name, groups in hooks.items():
        for g, grp in enumerate(groups):
            handlers = grp.get("hooks") if isinstance(grp, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if is_ours(handler) == mine:
                    found.setdefault(name, []).append((g, h))
    return found
