"""Plain retrieval baselines over the same turns with the same embedder, computed in the same run:
BM25 (FTS5, the same tokenizer and query words as recall, no cost budget), dense (cosine over
all turns) and the plain alpha-blend of the two.

The blend is the textbook one the reference system's recall amounts to: union of each leg's
top 50, alpha * cosine + (1 - alpha) * bm25 where both legs found a turn, one leg's score as is
otherwise. BM25 is normalized relative to the query's best hit (the spec's 1 / (1 + |s|) would
rank the weakest keyword match first and make the baseline needlessly weak).
"""

from __future__ import annotations

import apsw
import numpy as np

from signet_pipeline.providers.embeddings import EmbeddingProvider
from signet_pipeline.store.fulltext.functions import FTS_TOKENIZER
from signet_pipeline.text.fts_query import build_match

POOL = 50


class TurnIndex:
    """One conversation's turns, indexed for BM25 and dense search."""

    def __init__(self, dia_ids: list[str], texts: list[str], embedder: EmbeddingProvider):
        self.dia_ids = dia_ids
        self.vectors = embedder.embed(texts)
        self.embedder = embedder
        self.conn = apsw.Connection(":memory:")
        tokenizer = " ".join([FTS_TOKENIZER[0], *FTS_TOKENIZER[1]])
        self.conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(content, tokenize = '{tokenizer}')")
        self.conn.executemany("INSERT INTO t(rowid, content) VALUES (?, ?)", list(enumerate(texts)))

    def bm25(self, query: str, k: int = POOL) -> dict[int, float]:
        match = build_match(query)
        if not match:
            return {}
        hits = list(self.conn.execute("SELECT rowid, bm25(t) FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT ?",
                                      (match, k)))
        best = min((raw for _, raw in hits), default=0.0)
        return {row: (raw / best if best < 0 else 1.0) for row, raw in hits}

    def dense(self, query_vec: np.ndarray, k: int = POOL) -> dict[int, float]:
        scores = self.vectors @ query_vec
        top = np.argsort(-scores)[:k]
        return {int(i): float(scores[i]) for i in top}

    def rank_all(self, query: str, alpha: float, k: int) -> dict[str, list[list[str]]]:
        """Top-k turns for each baseline, as lists of dia_ids."""
        query_vec = self.embedder.embed_one(query)
        keyword, dense = self.bm25(query), self.dense(query_vec)
        blend: dict[int, float] = {}
        for row in keyword.keys() | dense.keys():
            if row in keyword and row in dense:
                blend[row] = alpha * dense[row] + (1 - alpha) * keyword[row]
            else:
                blend[row] = dense[row] if row in dense else keyword[row]

        def ranked(scores: dict[int, float]) -> list[list[str]]:
            return [[self.dia_ids[row]] for row, _ in sorted(scores.items(), key=lambda kv: -kv[1])[:k]]

        return {"bm25": ranked(keyword), "dense": ranked(dense), "blend": ranked(blend)}
