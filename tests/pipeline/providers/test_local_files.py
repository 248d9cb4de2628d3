"""The local-file reader (providers/local_files.py) on real files: allowed roots, the trees never
read, regular files only, no link followed (symbolic or hard), reads bounded by the size limit."""

import os
import time
from pathlib import Path

import pytest

from signet_pipeline.errors import FileRefused
from signet_pipeline.providers.local_files import LocalFiles

SETTING = "connectors.allowedRoots"


@pytest.fixture
def tree(tmp_path):
    """allowed/notes/{a.md, sub/b.md}, and a secret outside the allowed root."""
    (tmp_path / "allowed" / "notes" / "sub").mkdir(parents=True)
    (tmp_path / "allowed" / "notes" / "a.md").write_text("alpha")
    (tmp_path / "allowed" / "notes" / "sub" / "b.md").write_text("bravo")
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "key.md").write_text("TOP SECRET")
    return tmp_path


def _files(*roots, never=()):
    return LocalFiles.of(roots, never=never, setting=SETTING)


def _refused(call, code):
    with pytest.raises(FileRefused) as exc:
        call()
    assert exc.value.code == code, exc.value.message
    return exc.value.message


def test_a_root_must_lie_under_an_allowed_one(tree):
    files = _files(tree / "allowed")
    assert files.confine(str(tree / "allowed" / "notes")) == tree / "allowed" / "notes"
    (tree / "allowed" / "out").symlink_to(tree / "secret")
    for outside in ("/etc", tree / "secret", tree / "allowed" / "out", f"{tree}/allowed/../secret"):
        assert SETTING in _refused(lambda: files.confine(outside), "root_not_allowed")
    assert "none is set" in _refused(lambda: _files().confine(str(tree)), "root_not_allowed")


def test_the_workspace_and_system_trees_are_never_roots_even_under_slash(tree):
    workspace = tree / "ws"
    (workspace / "memory").mkdir(parents=True)
    (workspace / "server.log").write_text("OPENAI_API_KEY=sk-live")
    files = _files("/", never=[workspace])
    for root in (workspace, workspace / "memory", "/proc", "/proc/self", "/dev", "/dev/shm", "/sys"):
        _refused(lambda: files.confine(str(root)), "root_not_allowed")
    assert files.confine(str(tree)) == tree  # holds the workspace: allowed, its workspace part is not
    assert files.excluded(workspace / "memory") and not files.excluded(tree / "allowed")
    _refused(lambda: files.read(workspace / "server.log", max_bytes=1000), "path_not_allowed")
    _refused(lambda: files.read("/proc/self/environ", max_bytes=1000), "path_not_allowed")
    assert files.read(tree / "allowed" / "notes" / "a.md", max_bytes=1000) == b"alpha"


def test_only_regular_files_are_read_and_never_block(tree):
    notes = tree / "allowed" / "notes"
    os.mkfifo(notes / "pipe.md")
    files = _files(tree / "allowed")
    started = time.monotonic()
    assert "FIFO" in _refused(lambda: files.read(notes / "pipe.md", max_bytes=1000), "file_not_regular")
    _refused(lambda: files.read(notes / "sub", max_bytes=1000), "file_not_regular")
    # /dev is never read; past that guard a device still fails the regular-file check, unread.
    devices = LocalFiles(roots=(Path("/dev"),), never=(), setting=SETTING)
    _refused(lambda: devices.read("/dev/zero", max_bytes=1 << 20), "file_not_regular")
    assert time.monotonic() - started < 1.0


def test_a_file_over_the_limit_is_refused_unread(tree):
    notes = tree / "allowed" / "notes"
    with open(notes / "huge.md", "wb") as sparse:  # 8 GiB on paper, nothing on disk
        sparse.truncate(8 << 30)
    files = _files(tree / "allowed")
    started = time.monotonic()
    assert "maxFileSize" in _refused(lambda: files.read(notes / "huge.md", max_bytes=1 << 20,
                                                        limit_name="maxFileSize"), "file_too_large")
    assert time.monotonic() - started < 1.0
    (notes / "five.md").write_bytes(b"12345")
    assert files.read(notes / "five.md", max_bytes=5) == b"12345"
    _refused(lambda: files.read(notes / "five.md", max_bytes=4), "file_too_large")


def test_symbolic_links_are_never_followed_anywhere_in_the_path(tree):
    notes = tree / "allowed" / "notes"
    files = _files(tree / "allowed")
    (notes / "link.md").symlink_to(tree / "secret" / "key.md")
    (notes / "inside.md").symlink_to(notes / "a.md")  # even one that stays inside the root
    (notes / "dir").symlink_to(tree / "secret")
    for path in (notes / "link.md", notes / "inside.md", notes / "dir" / "key.md"):
        _refused(lambda: files.read(path, max_bytes=1000), "file_symlink")
    _refused(lambda: files.read(f"{notes}/sub/../../../secret/key.md", max_bytes=1000), "path_not_allowed")
    _refused(lambda: files.read("relative/a.md", max_bytes=1000), "path_not_allowed")


def test_a_hard_linked_file_is_refused(tree):
    notes = tree / "allowed" / "notes"
    os.link(tree / "secret" / "key.md", notes / "linked.md")
    files = _files(tree / "allowed")
    assert "hard link" in _refused(lambda: files.read(notes / "linked.md", max_bytes=1000), "file_hard_linked")
