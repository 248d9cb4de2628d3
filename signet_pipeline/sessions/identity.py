"""The agent's identity from its workspace files: `IDENTITY.md` first, then `AGENTS.md`; and the
identity files session-start injects (AGENTS.md, SOUL.md, IDENTITY.md, USER.md).

A file may open with YAML front matter (`name:`, `description:`, ...); otherwise `Name: value`
lines (bold or bulleted) are read, and the first heading and paragraph stand for the name and the
description. Fields found in IDENTITY.md win over AGENTS.md's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from signet_pipeline.service import MemoryService
from signet_pipeline.sessions.synthesis import memory_md_path

FILES = ("IDENTITY.md", "AGENTS.md")
MAX_BYTES = 256 * 1024
_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.DOTALL)
_FIELD = re.compile(r"^\s*(?:[-*]\s*)?\**([A-Za-z][A-Za-z _-]{0,30}?)\**\s*:\s*\**\s*(.+?)\s*$")
_HEADING = re.compile(r"^#{1,3}\s+(.+?)\s*#*\s*$")


def _parse(text: str) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    front = _FRONT.match(text)
    if front:
        try:
            data = yaml.safe_load(front.group(1))
        except yaml.YAMLError:
            data = None
        if isinstance(data, dict):
            fields.update({str(k).lower(): v for k, v in data.items()
                           if isinstance(v, str | int | float | bool | list)})
        text = text[front.end():]
    heading, paragraph, done = None, [], False
    for line in text.splitlines():
        if (m := _HEADING.match(line)) and heading is None:
            heading = m.group(1)
            continue
        if (m := _FIELD.match(line)) and not line.lstrip().startswith("#"):
            key = m.group(1).strip().lower().replace(" ", "_").replace("-", "_")
            fields.setdefault(key, m.group(2).strip("* "))
            continue
        if heading is not None and not done:  # the first paragraph after the heading only
            if line.strip():
                paragraph.append(line.strip())
            elif paragraph:
                done = True
    fields.setdefault("name", heading)
    if paragraph:
        fields.setdefault("description", " ".join(paragraph))
    return {k: v for k, v in fields.items() if v not in (None, "")}


def identity(workspace: Path) -> dict[str, Any]:
    found: dict[str, Any] = {}
    sources = []
    for name in FILES:
        path = workspace / name
        if not path.is_file():
            continue
        text = path.read_bytes()[:MAX_BYTES].decode("utf-8", errors="replace")
        for key, value in _parse(text).items():
            found.setdefault(key, value)
        sources.append(name)
    return {"name": found.get("name"), "description": found.get("description"), "sources": sources,
            **{k: v for k, v in found.items() if k not in ("name", "description")}}


# What session-start injects of the workspace, each file under its heading and cut to its budget: the
# reference daemon's character budgets at its default overall budget (sessions/inject.py scales them
# down with a smaller one). AGENTS.md first: how the agent works comes before who it is.
INJECTED = (("AGENTS.md", "Agent Instructions", 12_000), ("SOUL.md", "Soul", 4_000),
            ("IDENTITY.md", "Identity", 2_000), ("USER.md", "About Your User", 6_000))
WORKING_MEMORY_CHARS = 10_000  # MEMORY.md (sessions/synthesis.py)


def agent_file(svc: MemoryService, agent_id: str, name: str) -> Path | None:
    """The agent's own copy of a workspace file (in `agents/<id>/`, beside its MEMORY.md) when it
    has one, else the workspace's (written for every agent), else None."""
    for directory in dict.fromkeys((memory_md_path(svc, agent_id).parent, svc.settings.workspace)):
        path = directory / name
        if path.is_file():
            return path
    return None


def injected_files(svc: MemoryService, agent_id: str) -> list[tuple[str, str, int]]:
    """(heading, text, budget) of each identity file the agent has that is not blank."""
    found = []
    for name, heading, budget in INJECTED:
        path = agent_file(svc, agent_id, name)
        try:
            text = path.read_bytes()[:MAX_BYTES].decode("utf-8", errors="replace").strip() if path else ""
        except OSError:  # removed or unreadable since it was found: the session starts without it
            text = ""
        if text:
            found.append((heading, text, budget))
    return found
