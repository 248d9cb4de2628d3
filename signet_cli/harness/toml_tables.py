"""Editing a TOML file by whole tables, leaving every other line as the person wrote it (comments,
order, spacing): tables are dropped, renamed or appended, and the result is checked by parsing it,
so an edit that would change anything but the tables named is refused, not written."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from signet_cli.harness.config_files import Unparseable

TablePath = tuple[str, ...]
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def parse(path: Path, text: str | None) -> dict[str, Any]:
    try:
        return tomllib.loads(text or "")
    except tomllib.TOMLDecodeError as exc:
        raise Unparseable(f"{path} is not valid TOML ({exc}); fix or move it, then run again") from exc


def _basic(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c >= " " and c != "\x7f" else f"\\u{ord(c):04x}" for c in escaped) + '"'


def key(part: str) -> str:
    """One key as a table header writes it: bare when it can be, else a basic string."""
    return part if _BARE.match(part) else _basic(part)


def header(path: TablePath) -> str:
    return "[" + ".".join(key(p) for p in path) + "]"


def value(v: Any) -> str:
    """A string, integer, boolean, or a list or table of them, as TOML."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _basic(v)
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    raise TypeError(f"no TOML form here for {type(v).__name__}")


def table(path: TablePath, values: Mapping[str, Any], note: str | None = None) -> str:
    lines = [header(path)] + ([f"# {note}"] if note else []) + [f"{key(k)} = {value(v)}" for k, v in values.items()]
    return "\n".join(lines) + "\n"


def _header_path(line: str) -> TablePath | None:
    stripped = line.strip()
    if not stripped.startswith("["):
        return None
    try:
        node: Any = tomllib.loads(stripped + "\n")
    except tomllib.TOMLDecodeError:
        return None
    path: list[str] = []
    while isinstance(node, dict) and len(node) == 1:
        name, node = next(iter(node.items()))
        path.append(name)
        if isinstance(node, list):
            node = node[-1] if node else None
    return tuple(path)


def edit(text: str, drop: Callable[[TablePath], bool], rename: Mapping[TablePath, TablePath],
         append: list[str]) -> str:
    """`text` without the tables `drop` selects (and their sub-tables), with the headers in `rename`
    renamed (a renamed table is never dropped), and the blocks in `append` at the end. Every kept
    line is kept as written; the comments and blank lines that end a dropped table stay, as they
    belong to the table after it."""
    out: list[str] = []
    dropped: list[str] = []  # the current dropped table's lines
    dropping = False
    for line in text.splitlines(keepends=True):
        path = _header_path(line)
        if path is not None:
            if dropping:  # its trailing comments and blank lines introduce this header
                tail = len(dropped)
                while tail > 0 and (not dropped[tail - 1].strip() or dropped[tail - 1].lstrip().startswith("#")):
                    tail -= 1
                out.extend(dropped[tail:])
            dropping = path not in rename and drop(path)
            dropped = []
            if path in rename:
                line = header(rename[path]) + "\n"
        if dropping:
            dropped.append(line)
        else:
            out.append(line)
    kept = "".join(out).rstrip("\n")
    blocks = [kept] if kept.strip() else []
    return "\n\n".join(blocks + [b.strip("\n") for b in append]) + "\n" if blocks or append else ""


def check(path: Path, after_text: str, expected: dict[str, Any],
          normal: Callable[[Any], Any] = lambda v: v) -> None:
    """The edited file parses and says exactly what was intended (compared as `normal` makes them);
    else nothing is written."""
    try:
        after = tomllib.loads(after_text)
    except tomllib.TOMLDecodeError as exc:
        raise Unparseable(f"{path}: the edit would not parse ({exc}): an entry of ours may be written in another "
                          "form (an inline table or dotted keys); remove it, then run again") from exc
    if normal(after) != expected:
        raise Unparseable(f"{path} defines an entry of ours in a form this command does not edit (an inline table or "
                          "dotted keys); remove it, then run again")
