"""Building (or reusing) a benchmark store and making throw-away working copies of it.

A store of `size` synthetic memories is built with `remember_many` (one embedding call and one
write transaction per 256-memory chunk, the production write path, default settings) and cached
under `bench/.data/cache/` keyed by size, seed, generator version and a fingerprint of the
migrations (a schema change means a rebuild). Later runs copy the cached
database into a working directory, so the benchmarks never modify the cache; the bulk-ingest
rate of a cached store is the one measured when it was built (recorded in build.json).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from bench import dataset
from signet_pipeline.config import DB_RELATIVE_PATH, load_settings
from signet_pipeline.models import RememberRequest
from signet_pipeline.providers.embeddings import EmbeddingProvider
from signet_pipeline.service import MemoryService
from signet_pipeline.timeutil import now_iso
from signet_pipeline.write.remember import remember_many

DATA_DIR = Path(__file__).resolve().parent / ".data"
SLICE = 4096  # memories per remember_many call (it chunks them by 256 inside)


@dataclass
class BuildInfo:
    size: int
    seed: int
    generator_version: int
    seconds: float
    rate_per_s: float  # memories per second through remember_many, embedding included
    embed_threads: int
    built_at: str
    db_mb: float
    cached: bool = False  # True when this run reused a store built earlier


def schema_fingerprint() -> str:
    """Short hash of the migrations: a store built under another schema is rebuilt, not reused
    (the service refuses a database whose applied migrations were edited since)."""
    from signet_pipeline.store.migrate import discover

    digest = hashlib.sha256("".join(f"{m.version}:{m.checksum};" for m in discover()).encode()).hexdigest()
    return digest[:10]


def cache_dir(size: int, seed: int) -> Path:
    return DATA_DIR / "cache" / f"mem-n{size}-s{seed}-g{dataset.GENERATOR_VERSION}-schema{schema_fingerprint()}"


def _prune_stale(final: Path, size: int, seed: int, log: Callable[[str], None]) -> None:
    """Remove caches of the same size and seed built for another schema or generator."""
    for old in final.parent.glob(f"mem-n{size}-s{seed}-*"):
        if old != final and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
            log(f"  removed stale cache {old.name} (other schema or generator)")


def _db_files(workspace: Path) -> list[Path]:
    db = workspace / DB_RELATIVE_PATH
    return [p for p in (db, db.with_name(db.name + "-wal")) if p.exists()]


def ensure_store(size: int, seed: int, embedder: EmbeddingProvider, mems: list[dataset.Memory],
                 log: Callable[[str], None]) -> tuple[Path, BuildInfo]:
    """The cached workspace for (size, seed), built now if missing. A file lock per (size, seed)
    makes a second benchmark wait for a build in progress instead of building beside it."""
    (DATA_DIR / "cache").mkdir(parents=True, exist_ok=True)
    with open(DATA_DIR / "cache" / f".lock-n{size}-s{seed}", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _ensure_store(size, seed, embedder, mems, log)


def _ensure_store(size: int, seed: int, embedder: EmbeddingProvider, mems: list[dataset.Memory],
                  log: Callable[[str], None]) -> tuple[Path, BuildInfo]:
    final = cache_dir(size, seed)
    info_file = final / "build.json"
    if info_file.exists() and (final / DB_RELATIVE_PATH).exists():
        info = BuildInfo(**json.loads(info_file.read_text()))
        info.cached = True
        log(f"  reusing cached store {final.relative_to(DATA_DIR.parent.parent)} (built {info.built_at}, "
            f"bulk ingest then {info.rate_per_s:.0f} memories/s)")
        return final, info

    final.parent.mkdir(parents=True, exist_ok=True)
    _prune_stale(final, size, seed, log)
    building = final.with_name(final.name + ".building")
    shutil.rmtree(building, ignore_errors=True)
    settings = load_settings(building)
    svc = MemoryService(settings, embedder=embedder)
    try:
        log(f"  building store of {size:,} memories (remember_many, embedder threads="
            f"{settings.embedding.threads}) ...")
        started = time.perf_counter()
        for start in range(0, size, SLICE):
            reqs = [RememberRequest(content=m.content) for m in mems[start:start + SLICE]]
            results = remember_many(svc, reqs)
            deduped = sum(r.deduped for r in results)
            if deduped:
                raise RuntimeError(f"{deduped} synthetic memories were deduplicated: generator bug")
            done = min(size, start + SLICE)
            if done == size or (done // SLICE) % 5 == 0:
                elapsed = time.perf_counter() - started
                log(f"    {done:>7,} / {size:,}  {elapsed:6.1f} s  {done / elapsed:6.0f} memories/s")
        seconds = time.perf_counter() - started
    finally:
        svc.close()  # last connection closed: WAL checkpointed into the main file
    db_mb = sum(p.stat().st_size for p in _db_files(building)) / 1e6
    info = BuildInfo(size=size, seed=seed, generator_version=dataset.GENERATOR_VERSION, seconds=round(seconds, 2),
                     rate_per_s=round(size / seconds, 1), embed_threads=settings.embedding.threads,
                     built_at=now_iso(), db_mb=round(db_mb, 1))
    (building / "build.json").write_text(json.dumps(asdict(info), indent=2))
    shutil.rmtree(final, ignore_errors=True)
    building.rename(final)
    log(f"  built in {seconds:.1f} s ({info.rate_per_s:.0f} memories/s), {db_mb:.0f} MB; cached for next runs")
    return final, info


def any_cached(size: int, seed: int) -> Path | None:
    """A cached store of this size and seed under any schema (newest first), for benchmarks that
    only need populated tables: opening a working copy migrates it forward."""
    found = sorted((d for d in (DATA_DIR / "cache").glob(f"mem-n{size}-s{seed}-g{dataset.GENERATOR_VERSION}-*")
                    if (d / "build.json").exists()), key=lambda d: d.stat().st_mtime, reverse=True)
    return found[0] if found else None


def working_copy(cached: Path, dest: Path) -> Path:
    """A fresh workspace holding a copy of the cached database (benchmarks may write to it)."""
    shutil.rmtree(dest, ignore_errors=True)
    (dest / DB_RELATIVE_PATH).parent.mkdir(parents=True)
    for src in _db_files(cached):
        shutil.copyfile(src, dest / DB_RELATIVE_PATH.parent / src.name)
    return dest
