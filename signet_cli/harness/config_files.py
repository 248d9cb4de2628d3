"""A harness's configuration file as `signet connect` edits it: read (a file it cannot parse is
refused, never overwritten), changed in memory, then shown as a diff or written atomically with a
backup of what was there."""

from __future__ import annotations

import difflib
import json
import os
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any


class Unparseable(Exception):
    """A configuration file that is not what its format says: left alone, the person is told."""


@dataclass(frozen=True)
class Edit:
    path: Path
    before: str | None  # None: the file does not exist
    after: str | None  # None: it still does not (nothing to write)

    @property
    def changes(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        return "".join(difflib.unified_diff((self.before or "").splitlines(keepends=True),
                                            (self.after or "").splitlines(keepends=True),
                                            fromfile=f"{self.path} (now)" if self.before is not None else "/dev/null",
                                            tofile=f"{self.path} (connected)"))


def read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise Unparseable(f"{path} is not UTF-8 text ({exc.reason}); fix or move it, then run again") from exc


def read_json(path: Path) -> tuple[str | None, dict[str, Any]]:
    """(the text, its object); a missing or empty file is an empty object."""
    text = read_text(path)
    if text is None or not text.strip():
        return text, {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise Unparseable(f"{path} is not valid JSON ({exc}); fix or move it, then run again") from exc
    if not isinstance(data, dict):
        raise Unparseable(f"{path} holds a JSON {type(data).__name__}, not an object; fix or move it, then run again")
    return text, data


def with_entry(data: dict[str, Any], name: str, value: dict[str, Any]) -> dict[str, Any]:
    """`data` with `name` set to `value` in its place, or without it when `value` is empty."""
    out = dict(data)
    if value:
        out[name] = value
    else:
        out.pop(name, None)
    return out


def json_edit(path: Path, before: str | None, data: dict[str, Any], original: dict[str, Any]) -> Edit:
    """The file unchanged when its content did not change (a second run writes nothing), else the
    new content in the harness's own style (two-space indent)."""
    if data == original:
        return Edit(path, before, before)
    return Edit(path, before, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def apply(edit: Edit, stamp: str | None = None) -> Path | None:
    """Write the edit atomically (same directory, then rename; the file's mode kept); the old
    content is kept beside it first. Returns the backup's path, if there was a file to back up."""
    assert edit.after is not None, "an edit that writes nothing is not applied"
    target = edit.path.resolve() if edit.path.is_symlink() else edit.path  # dotfiles kept by stow or chezmoi
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o600  # it may hold an MCP server's secrets
    backup = None
    if edit.before is not None:
        stamp = stamp or datetime.now().strftime("%Y%m%dT%H%M%S")
        backup = edit.path.with_name(f"{edit.path.name}.signet-{stamp}.bak")
        n = 1
        while backup.exists():  # two runs in one second keep both backups
            backup, n = edit.path.with_name(f"{edit.path.name}.signet-{stamp}-{n}.bak"), n + 1
        with os.fdopen(os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode), "w", encoding="utf-8") as f:
            f.write(edit.before)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(edit.after)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return backup
