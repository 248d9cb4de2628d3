"""Single remember() calls in process, embedding included, on a working copy of a store.

Each call stores new content (no dedup hit). Next to it, the bare embedder on the same text
(`embed_one`) is timed: that is the floor of a remember with the default embedder, and
remember - embedding is what the write path itself costs. Calls alternate between the service
as configured and a second one on the same store with the inline entity linker off
(`graphEnabled: false`), which prices the linker.
"""

from __future__ import annotations

from collections.abc import Callable

from bench.stats import Timer, summary
from signet_pipeline.models import RememberRequest
from signet_pipeline.service import MemoryService
from signet_pipeline.write.remember import remember

WARMUP = 10


def run(svc: MemoryService, svc_no_linker: MemoryService, contents: list[str], log: Callable[[str], None]) -> dict:
    for i, text in enumerate(contents[:WARMUP]):
        remember(svc if i % 2 else svc_no_linker, RememberRequest(content=text))
    walls: list[float] = []
    embeds: list[float] = []
    rest: list[float] = []
    no_linker: list[float] = []
    deduped = 0
    for i, text in enumerate(contents[WARMUP:]):
        req = RememberRequest(content=text)
        if i % 2:
            with Timer() as t:
                deduped += remember(svc_no_linker, req).deduped
            no_linker.append(t.ms)
            continue
        with Timer() as t:
            result = remember(svc, req)
        deduped += result.deduped
        with Timer() as e:
            svc.embedder.embed_one(text)
        walls.append(t.ms)
        embeds.append(e.ms)
        rest.append(t.ms - e.ms)
    out = {"ours": summary(walls), "embed_floor": summary(embeds), "minus_embedding": summary(rest),
           "no_linker": summary(no_linker), "deduped": deduped}
    log(f"    remember(): p50 {out['ours']['p50']:.2f} ms  p95 {out['ours']['p95']:.2f} ms  "
        f"(embed_one p50 {out['embed_floor']['p50']:.2f} ms; without the linker p50 {out['no_linker']['p50']:.2f} ms; "
        f"{len(walls)} + {len(no_linker)} calls, {deduped} deduped)")
    return out
