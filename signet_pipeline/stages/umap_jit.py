"""numba's on-disk cache for UMAP's compiled code.

umap-learn declares most of its numba functions without `cache=True`, so every new process (each
project_embeddings run) compiled them again: 12-16 s of a 300-point fit on two cores, nearly all of
the run. With numba's cache turned on for them, every run after the first loads the machine code
instead (the same fit in under a second). numba keys the cache by each function's source file and
its own version, so an upgrade compiles afresh. It lives in NUMBA_CACHE_DIR (`signet up` points it
at $SIGNET_WORKSPACE/cache/numba), else where numba puts it by default (beside umap's source, or
the user's cache directory when that is read-only).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from numba.core.dispatcher import Dispatcher

PACKAGES = ("umap", "pynndescent")

_jitted: list[Dispatcher] = []


def cached_jit() -> list[Dispatcher]:
    """The jitted functions of the loaded umap and pynndescent modules, each with numba's disk cache
    on (turned on once per process, after umap is imported)."""
    if not _jitted:
        for name, module in list(sys.modules.items()):
            if module is None or name.partition(".")[0] not in PACKAGES:
                continue
            for obj in list(vars(module).values()):
                if isinstance(obj, Dispatcher) and obj.py_func.__module__ == name and obj not in _jitted:
                    if obj.stats.cache_path is None:
                        try:
                            obj.enable_caching()
                        except RuntimeError:  # no writable place for its cache: it compiles as before
                            continue
                    _jitted.append(obj)
    return _jitted


@dataclass(frozen=True)
class JitCounts:
    """Compiled versions (one per signature) of the jitted functions, loaded or compiled so far."""

    loaded: int
    compiled: int

    def since(self, before: JitCounts) -> JitCounts:
        return JitCounts(self.loaded - before.loaded, self.compiled - before.compiled)


def jit_counts() -> JitCounts:
    jitted = cached_jit()
    return JitCounts(sum(sum(d.stats.cache_hits.values()) for d in jitted),
                     sum(sum(d.stats.cache_misses.values()) for d in jitted))
