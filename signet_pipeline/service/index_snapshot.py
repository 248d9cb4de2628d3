"""The vector index's arrays in one file beside the store, memory-mapped at start.

Reading a million vectors out of SQLite costs seconds; mapping a file costs nothing until its
pages are touched, and processes mapping the same file share its pages. The file is a cache: it
records the store it was built from and the `embedding_changes` position it reflects, and the
index applies the log from there (service/vectors.py). Layout: 8-byte magic, 8-byte header
length, a JSON header (that position and every array's dtype, shape and offset), then the arrays
at page-aligned offsets. A file is written under a temporary name, flushed and renamed into place,
so a reader sees a whole file or the previous one; a file that does not check out is ignored.
"""

from __future__ import annotations

import json
import mmap
import os
import time
from pathlib import Path

import numpy as np

MAGIC = b"SIGNETVX"
FORMAT = 1
_ALIGN = 4096
_STALE_TMP_S = 3600  # a temporary file this old was left by a crashed writer


def path_for(db_path: Path) -> Path:
    return Path(db_path).with_name("vector-index.bin")


def _aligned(size: int) -> int:
    return -(-size // _ALIGN) * _ALIGN


def _layout(arrays: dict[str, tuple[str, tuple[int, ...]]], header: dict) -> tuple[bytes, dict, int]:
    """The encoded header, each array's place and the file's size. The offsets are in the header,
    so the first array starts at the first page boundary the header leaves free."""
    start = _ALIGN
    while True:
        specs, at = {}, start
        for name, (dtype, shape) in arrays.items():
            specs[name] = {"dtype": dtype, "shape": list(shape), "offset": at}
            at += _aligned(int(np.prod(shape)) * np.dtype(dtype).itemsize)
        encoded = json.dumps({**header, "format": FORMAT, "arrays": specs}).encode()
        if 16 + len(encoded) <= start:
            return encoded, specs, at
        start = _aligned(16 + len(encoded))


class Writer:
    """A new snapshot filled through writable array views, then `commit()`ed into place."""

    def __init__(self, path: Path, header: dict, arrays: dict[str, tuple[str, tuple[int, ...]]]):
        self.path = Path(path)
        self.tmp = self.path.with_name(f"{self.path.name}.tmp-{os.getpid()}-{time.monotonic_ns()}")
        _drop_stale_tmp(self.path)
        encoded, specs, size = _layout(arrays, header)
        self._file = open(self.tmp, "w+b")
        try:  # reserve the blocks now: a full disk under a writable map would kill the process (SIGBUS)
            os.posix_fallocate(self._file.fileno(), 0, size)
        except OSError:
            self._file.close()
            self.tmp.unlink(missing_ok=True)
            raise
        self._map = mmap.mmap(self._file.fileno(), size)
        self._map[:16] = MAGIC + len(encoded).to_bytes(8, "little")
        self._map[16:16 + len(encoded)] = encoded
        self.arrays = {name: _view(self._map, spec, writable=True) for name, spec in specs.items()}

    def commit(self) -> None:
        self.arrays.clear()  # views must go before the map closes
        self._map.flush()
        self._map.close()
        os.fsync(self._file.fileno())
        self._file.close()
        os.replace(self.tmp, self.path)

    def abort(self) -> None:
        self.arrays.clear()
        try:
            self._map.close()
        except BufferError:  # a view escaped: the map closes when it is collected
            pass
        self._file.close()
        self.tmp.unlink(missing_ok=True)


def _view(buffer, spec: dict, *, writable: bool = False) -> np.ndarray:
    shape = tuple(spec["shape"])
    count = int(np.prod(shape))
    array = np.frombuffer(buffer, dtype=np.dtype(spec["dtype"]), count=count, offset=spec["offset"]).reshape(shape)
    if not writable:
        array.flags.writeable = False
    return array


def read(path: Path) -> tuple[dict, dict[str, np.ndarray]] | None:
    """(header, read-only arrays mapped from the file), or None when there is no whole file of
    this format at `path`."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < 16:
                return None
            buffer = mmap.mmap(f.fileno(), size, access=mmap.ACCESS_READ)
    except (FileNotFoundError, ValueError, OSError):
        return None
    try:
        if buffer[:8] != MAGIC:
            return None
        length = int.from_bytes(buffer[8:16], "little")
        header = json.loads(buffer[16:16 + length])
        if header.get("format") != FORMAT:
            return None
        specs = header["arrays"]
        for spec in specs.values():
            end = spec["offset"] + int(np.prod(spec["shape"])) * np.dtype(spec["dtype"]).itemsize
            if end > size:  # truncated
                return None
        return header, {name: _view(buffer, spec) for name, spec in specs.items()}
    except (ValueError, KeyError, TypeError):
        return None


def _drop_stale_tmp(path: Path) -> None:
    now = time.time()
    for tmp in path.parent.glob(f"{path.name}.tmp-*"):
        try:
            if now - tmp.stat().st_mtime > _STALE_TMP_S:
                tmp.unlink()
        except FileNotFoundError:
            pass
