"""A large store as a snapshot: N synthetic memories with vectors, written as Parquet the way
`signet export` writes it, for `signet import` to load (bench/scale_bench.py).

Vectors are computed in bulk once, not through remember: the offline embedder embeds a pool of
P distinct sentences (bench/dataset.py) in batches and caches them; memory i holds sentence
i mod P, marked with its take ("(take 3)") beyond the first P, and the pool vector plus a little
noise (cosine ~0.98 to it), so every memory has its own content, hash and vector. The pool keeps
the build to minutes on two cores; recall cost does not depend on whether a vector is exactly the
embedding of its text, but relevance figures at this size are not quality figures.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path

import numpy as np
import polars as pl

from bench import dataset
from bench.store import DATA_DIR, schema_fingerprint
from signet_pipeline import __version__
from signet_pipeline.config import ONNX_DIMENSIONS, ONNX_MODEL
from signet_pipeline.snapshots.manifest import MANIFEST, Column, EmbeddingInfo, Manifest, TableFile, sha256_of
from signet_pipeline.store.migrate import discover
from signet_pipeline.text.content import normalize_content

CHUNK = 100_000
NOISE = 0.2  # relative norm of the noise added to a pool vector (cosine ~0.98)
_MEMORY_COLUMNS: list[tuple[str, str]] = [
    ("id", "text"), ("type", "text"), ("content", "text"), ("normalized_content", "text"), ("content_hash", "text"),
    ("importance", "real"), ("tags", "text"), ("who", "text"), ("project", "text"), ("source_type", "text"),
    ("pinned", "integer"), ("agent_id", "text"), ("visibility", "text"), ("is_deleted", "integer"),
    ("extraction_status", "text"), ("embedding_model", "text"), ("version", "integer"),
    ("update_count", "integer"), ("access_count", "integer"), ("created_at", "text"), ("updated_at", "text"),
]
_EMBEDDING_COLUMNS = [("content_hash", "text"), ("vector", "vector"), ("dimensions", "integer"), ("model", "text"),
                      ("source_type", "text"), ("source_id", "text"), ("created_at", "text"), ("updated_at", "text")]
_HISTORY_COLUMNS = [("id", "text"), ("memory_id", "text"), ("event", "text"), ("new_content", "text"),
                    ("changed_by", "text"), ("actor_type", "text"), ("created_at", "text")]


def pool_vectors(pool: list[str], seed: int, log) -> np.ndarray:
    """The pool's vectors, embedded once with the offline model and cached."""
    path = DATA_DIR / "cache" / f"pool-{len(pool)}-s{seed}-g{dataset.GENERATOR_VERSION}.npy"
    if path.exists():
        return np.load(path)
    from signet_pipeline.providers.embeddings.onnx import OnnxMiniLM

    embedder = OnnxMiniLM(threads=2)
    out = np.zeros((len(pool), ONNX_DIMENSIONS), dtype=np.float32)
    started = time.perf_counter()
    for at in range(0, len(pool), 1024):
        out[at:at + 1024] = np.asarray(embedder.embed(pool[at:at + 1024]), dtype=np.float32)
        if at % 20_480 == 0:
            rate = (at + 1024) / (time.perf_counter() - started)
            log(f"  embedded {at + 1024:,}/{len(pool):,} ({rate:,.0f}/s)")
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, out)
    return out


def _write(frames, path: Path, cols: list[tuple[str, str]], table: str, family: str) -> TableFile:
    lazy = pl.concat(frames, how="vertical", rechunk=False).lazy()
    lazy.sink_parquet(path, row_group_size=CHUNK // 4, compression="zstd")
    rows = sum(f.height for f in frames)
    return TableFile(table=table, family=family, file=path.name, rows=rows, bytes=path.stat().st_size,
                     sha256=sha256_of(path), columns=[Column(name=n, type=t) for n, t in cols])


def build(size: int, pool_size: int, seed: int, log=print) -> Path:
    """The snapshot directory for (size, pool, seed), written now unless cached."""
    root = DATA_DIR / "cache" / f"scale-n{size}-p{pool_size}-s{seed}-schema{schema_fingerprint()}"
    if (root / MANIFEST).exists():
        return root
    started = time.perf_counter()
    pool = [m.content for m in dataset.memories(pool_size, seed)]
    vectors = pool_vectors(pool, seed, log)
    rng = np.random.default_rng(seed)
    root.mkdir(parents=True, exist_ok=True)
    memories, embeddings, history = [], [], []
    base = 1_700_000_000
    for start in range(0, size, CHUNK):
        n = min(CHUNK, size - start)
        idx = np.arange(start, start + n)
        texts = [pool[i % pool_size] if i < pool_size else f"{pool[i % pool_size]} (take {i // pool_size + 1})"
                 for i in idx]
        norm = [normalize_content(t) for t in texts]
        ids = [str(uuid.UUID(int=rng.integers(0, 2**63) << 64 | int(i))) for i in idx]
        stamps = [time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(base + int(i) * 30)) for i in idx]
        noise = rng.standard_normal((n, ONNX_DIMENSIONS)).astype(np.float32)
        noise *= NOISE / np.linalg.norm(noise, axis=1, keepdims=True)
        vec = vectors[idx % pool_size] + noise * (idx >= pool_size)[:, None]
        vec /= np.linalg.norm(vec, axis=1, keepdims=True)
        hashes = [c.content_hash for c in norm]
        memories.append(pl.DataFrame({
            "id": ids, "type": "fact", "content": [c.storage for c in norm],
            "normalized_content": [c.normalized for c in norm], "content_hash": hashes, "importance": 0.8,
            "tags": "[]", "who": None, "project": None, "source_type": "manual", "pinned": 0,
            "agent_id": "default", "visibility": "global", "is_deleted": 0, "extraction_status": "none",
            "embedding_model": ONNX_MODEL, "version": 1, "update_count": 0, "access_count": 0,
            "created_at": stamps, "updated_at": stamps,
        }, schema={n: {"text": pl.String, "real": pl.Float64, "integer": pl.Int64}[t] for n, t in _MEMORY_COLUMNS}))
        embeddings.append(pl.DataFrame({
            "content_hash": hashes, "vector": pl.Series(vec, dtype=pl.Array(pl.Float32, ONNX_DIMENSIONS)),
            "dimensions": ONNX_DIMENSIONS, "model": ONNX_MODEL, "source_type": "memory", "source_id": ids,
            "created_at": stamps, "updated_at": stamps}))
        history.append(pl.DataFrame({
            "id": [str(uuid.UUID(int=rng.integers(0, 2**63) << 64 | int(i))) for i in idx], "memory_id": ids,
            "event": "created", "new_content": [c.storage for c in norm], "changed_by": "scale-bench",
            "actor_type": "operator", "created_at": stamps}))
        log(f"  generated {start + n:,}/{size:,} rows")
    tables = [_write(memories, root / "memories.parquet", _MEMORY_COLUMNS, "memories", "memories"),
              _write(embeddings, root / "embeddings.parquet", _EMBEDDING_COLUMNS, "embeddings", "memories"),
              _write(history, root / "memory_history.parquet", _HISTORY_COLUMNS, "memory_history", "history")]
    manifest = Manifest(schema_version=max(m.version for m in discover()), signet_version=__version__,
                        created_at=time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()), file_format="parquet",
                        embedding=EmbeddingInfo(model=ONNX_MODEL, dimensions=ONNX_DIMENSIONS), tables=tables)
    (root / MANIFEST).write_text(manifest.model_dump_json(indent=2))
    (root / "build.json").write_text(json.dumps({"size": size, "pool": pool_size, "seed": seed,
                                                 "seconds": round(time.perf_counter() - started, 1)}))
    return root


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--pool", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    print(build(args.size, args.pool, args.seed))
