"""The agent's identity from its workspace files: `IDENTITY.md` first, then `AGENTS.md`.

A file may open with YAML front matter (`name:`, `description:`, ...); otherwise `Name: value`
lines (bold or bulleted) are read, and the first heading and paragraph stand for the name and the
description. Fields found in IDENTITY.md win over AGENTS.md's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

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
            fields.update({str(k).lower(): v for k, v in data.items() if isinstance(v, str | int | float | bool | list)})
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
