"""Write-behind embedding: the API's remember answers after the row commit, the vector follows on
the writer thread, and every later read waits for it."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.providers.embeddings.base import EmbeddingProvider
from signet_pipeline.store.db import scalar


class GatedEmbedder(EmbeddingProvider):
    """The real embedder behind a gate: calls block until the test opens it; records batch sizes."""

    def __init__(self, inner: EmbeddingProvider):
        super().__init__()
        self.inner, self.name, self.model = inner, inner.name, inner.model
        self.gate, self.batches = threading.Event(), []

    @property
    def dimensions(self):
        return self.inner.dimensions

    def _embed(self, texts):
        self.gate.wait(30)
        self.batches.append(len(texts))
        return self.inner._embed(texts)


@pytest.fixture
def gated_api(make_service, embedder):
    """(service, its gated embedder, an API client); the gate is open until a test shuts it."""
    inner = GatedEmbedder(embedder)
    inner.gate.set()
    svc = make_service(embedder_override=inner)
    with TestClient(create_app(service=svc)) as client:
        inner.batches.clear()
        yield svc, inner, client


def vectors(svc) -> int:
    return scalar(svc.db.reader(), "SELECT count(*) FROM embeddings")


def test_remember_answers_before_its_vector_and_a_recall_waits_for_it(gated_api):
    svc, gated, client = gated_api
    gated.gate.clear()  # from now on the writer's provider call hangs until the gate opens
    body = client.post("/api/memory/remember", json={"content": "The spare key hangs behind the garage door"}).json()
    assert body["embedded"] is True and vectors(svc) == 0  # answered; the vector is on its way
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(client.post, "/api/memory/recall", json={"query": "where is the key kept"})
        time.sleep(0.3)
        assert not pending.done()  # the recall waits for the vector (it cannot come while the gate is shut)
        gated.gate.set()
        hits = pending.result().json()["results"]
    assert vectors(svc) == 1
    hit = next(h for h in hits if h["id"] == body["id"])
    assert hit["source"] in ("vector", "hybrid")  # found by meaning too: the recall saw the vector


def test_a_burst_of_remembers_shares_one_provider_call(gated_api):
    svc, gated, client = gated_api
    gated.gate.clear()
    client.post("/api/memory/remember", json={"content": "Memory zero of the burst"})
    for i in range(1, 6):  # queued while the first call hangs
        client.post("/api/memory/remember", json={"content": f"Memory {i} of the burst about topic {i}"})
    gated.gate.set()
    assert svc.embed_behind.settle()
    assert gated.batches == [1, 5] and vectors(svc) == 6


def test_a_memory_forgotten_before_its_vector_gets_none(gated_api):
    svc, gated, client = gated_api
    gated.gate.clear()
    body = client.post("/api/memory/remember", json={"content": "A note that is forgotten at once"}).json()
    with svc.db.write() as conn:  # forgotten while the vector is computed (the API would wait for it)
        conn.execute("UPDATE memories SET is_deleted = 1 WHERE id = ?", (body["id"],))
    gated.gate.set()
    assert svc.embed_behind.settle()
    assert vectors(svc) == 0


def test_closing_the_service_writes_what_is_pending(gated_api, embedder):
    svc, gated, client = gated_api
    gated.gate.clear()
    client.post("/api/memory/remember", json={"content": "Written on the way out"})
    threading.Timer(0.2, gated.gate.set).start()
    svc.embed_behind.close()
    assert vectors(svc) == 1
    assert scalar(svc.db.reader(), "SELECT embedding_model FROM memories") == embedder.model
