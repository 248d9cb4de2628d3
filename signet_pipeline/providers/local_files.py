"""Reading files of this machine, the file counterpart of fetch.py. A path is read only under a
root the operator allowed (compared as real paths), never inside a tree no caller may read (/proc,
/sys, /dev, plus the caller's: the workspace), and only as a regular file with a single link, up to
a size limit. Each directory is opened relative to its parent with O_NOFOLLOW, so the path checked
is the path opened: a symlink swapped in after the check fails the open (docs/internals.md)."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePath

from signet_pipeline.errors import FileRefused

SYSTEM_TREES = (Path("/proc"), Path("/sys"), Path("/dev"))  # never read, whatever is allowed
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _within(path: PurePath, tree: PurePath) -> bool:
    return path == tree or tree in path.parents


def _real(path: str | Path) -> Path:
    return Path(os.path.realpath(Path(path).expanduser()))


def _symlink() -> FileRefused:
    return FileRefused("a symbolic link (or a non-directory) on its path: links are not followed", code="file_symlink")


def _not_regular(mode: int) -> FileRefused:
    if stat.S_ISLNK(mode):
        return _symlink()
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return FileRefused(f"{kind}, not a regular file", code="file_not_regular")


@dataclass(frozen=True)
class LocalFiles:
    roots: tuple[Path, ...]  # real paths the operator allowed
    never: tuple[Path, ...]  # real paths never read, even under an allowed root
    setting: str  # where the operator lists the roots, named in errors

    @classmethod
    def of(cls, allowed: Iterable[str | Path], *, never: Iterable[str | Path] = (), setting: str) -> LocalFiles:
        return cls(roots=tuple(_real(p) for p in allowed), never=tuple(_real(p) for p in (*SYSTEM_TREES, *never)),
                   setting=setting)

    def excluded(self, path: str | PurePath) -> bool:
        """Inside a tree never read (a walk under an allowed root skips it)."""
        return any(_within(PurePath(path), tree) for tree in self.never)

    def confine(self, root: str | Path) -> Path:
        """The real path of a tree to read (a connector's root): under an allowed root and inside
        no tree never read. It may hold one (`/` or a home with the workspace): excluded() says
        what a walk skips, and read() refuses it anyway."""
        real = _real(root)
        if not self.roots:
            raise FileRefused(f"{root} may not be read: no directory is allowed ({self.setting} in agent.yaml: "
                              "none is set)", code="root_not_allowed")
        if not any(_within(real, allowed) for allowed in self.roots):
            raise FileRefused(f"{root} is not under a directory listed in {self.setting} (agent.yaml)",
                              code="root_not_allowed")
        if self.excluded(real):
            raise FileRefused(f"{root} is never read (the workspace, /proc, /sys and /dev are off limits)",
                              code="root_not_allowed")
        return real

    def read(self, path: str | Path, *, max_bytes: int, limit_name: str = "the size limit") -> bytes:
        """The bytes of a regular file under an allowed root (see the module doc), else FileRefused;
        OSError when it vanished or cannot be opened."""
        target = PurePath(path)
        if not target.is_absolute() or ".." in target.parts or not any(_within(target, r) for r in self.roots) \
                or self.excluded(target):
            raise FileRefused(f"outside {self.setting}, or in a tree never read", code="path_not_allowed")
        fd = self._open(target)
        try:
            st = os.fstat(fd)  # of what was opened: the checks before it could have raced a swap
            if not stat.S_ISREG(st.st_mode):
                raise _not_regular(st.st_mode)
            if st.st_nlink != 1:
                raise FileRefused(f"has {st.st_nlink} hard links: refused (the content may live outside the root)",
                                  code="file_hard_linked")
            if st.st_size > max_bytes:
                raise FileRefused(f"{st.st_size} bytes is over {limit_name} ({max_bytes})", code="file_too_large")
            data = _read_at_most(fd, max_bytes + 1)
        finally:
            os.close(fd)
        if len(data) > max_bytes:
            raise FileRefused(f"more than {max_bytes} bytes is over {limit_name}", code="file_too_large")
        return data

    @staticmethod
    def _open(target: PurePath) -> int:
        fd = os.open(target.anchor, _DIR_FLAGS)
        try:
            for part in target.parts[1:-1]:
                parent, fd = fd, os.open(part, _DIR_FLAGS, dir_fd=fd)
                os.close(parent)
            # Not even opened when not a regular file (a device's open may act); fstat re-checks.
            mode = os.stat(target.name, dir_fd=fd, follow_symlinks=False).st_mode
            if not stat.S_ISREG(mode):
                raise _not_regular(mode)
            return os.open(target.name, _FILE_FLAGS, dir_fd=fd)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):  # what O_NOFOLLOW / O_DIRECTORY answer a link
                raise _symlink() from exc
            raise
        finally:
            os.close(fd)


def _read_at_most(fd: int, limit: int) -> bytes:
    parts, left = [], limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)
