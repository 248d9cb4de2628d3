"""Optional embedding reranker (spec "Optional Reranking" / "Embedding-Based Reranker"), off by
default: the top N results are re-scored 0.7 x score + 0.3 x full-content cosine with the query,
a result without a stored vector keeps its score, the tail is untouched. Past the deadline or on
any error the original order stands. Recall already scores every candidate on its cosine, so
this mostly re-weights what is there (docs/BENCHMARKS.md has the measurement).
"""

from __future__ import annotations

import logging
import time

from signet_pipeline.config_sections import RerankerConfig

log = logging.getLogger("signet.rerank")

SCORE_WEIGHT = 0.7


def rerank(ranked: list[tuple[float, str, str]], cosines: dict[str, float],
           cfg: RerankerConfig) -> list[tuple[float, str, str]]:
    """`ranked`: (score, source, id) best first; `cosines`: raw cosine by id."""
    deadline = time.perf_counter() + cfg.timeout_ms / 1000
    try:
        head, tail = ranked[:cfg.top_n], ranked[cfg.top_n:]
        rescored = [(SCORE_WEIGHT * score + (1 - SCORE_WEIGHT) * cosines[mid] if mid in cosines else score, src, mid)
                    for score, src, mid in head]
        if time.perf_counter() > deadline:
            return ranked
        return sorted(rescored, key=lambda t: -t[0]) + tail
    except Exception:  # the reranker is optional: never fail a recall because of it
        log.exception("reranker failed; original order kept")
        return ranked
