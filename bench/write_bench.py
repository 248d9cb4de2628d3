"""Single remember() calls in process, embedding included, on a working copy of a store.

Each call stores new content (no dedup hit). Next to it, the bare embedder on the same text
(`embed_one`) is timed: that is the floor of a remember with the default embedder, and
remember - embedding is what the write path itself costs.
"""

from __future__ import annotations

from collections.abc import Callable

from bench.stats import Timer, summary
from signet_pipeline.memory.models import RememberRequest
from signet_pipeline.memory.remember import remember
from signet_pipeline.memory.service import MemoryService

WARMUP = 10


def run(svc: MemoryService, contents: list[str], log: Callable[[str], None]) -> dict:
    for text in contents[:WARMUP]:
        remember(svc, RememberRequest(content=text))
    walls: list[float] = []
    embeds: list[float] = []
    rest: list[float] = []
    deduped = 0
    for text in contents[WARMUP:]:
        req = RememberRequest(content=text)
        with Timer() as t:
            result = remember(svc, req)
        deduped += result.deduped
        with Timer() as e:
            svc.embedder.embed_one(text)
        walls.append(t.ms)
        embeds.append(e.ms)
        rest.append(t.ms - e.ms)
    out = {"ours": summary(walls), "embed_floor": summary(embeds), "minus_embedding": summary(rest),
           "deduped": deduped}
    log(f"    remember(): p50 {out['ours']['p50']:.2f} ms  p95 {out['ours']['p95']:.2f} ms  "
        f"(embed_one p50 {out['embed_floor']['p50']:.2f} ms; {len(walls)} calls, {deduped} deduped)")
    return out
