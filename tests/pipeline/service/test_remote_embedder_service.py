"""The service with an HTTP embedder: dimension learned from the provider, fail-fast cooldown."""

from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.config import EmbeddingConfig
from signet_pipeline.providers.embeddings import create_embedder
from tests.conftest import recall, remember
from tests.fakes import FakeServer, fake_vector


def test_ollama_embedder_end_to_end(make_service):
    def handler(path, body):
        return 200, {"embeddings": [fake_vector(t, 16) for t in body["input"]]}

    with FakeServer(handler) as server:
        embedder = create_embedder(EmbeddingConfig(provider="ollama", base_url=server.url))
        assert embedder.dimensions is None  # unknown until the provider answers
        svc = make_service(embedder_override=embedder)
        with TestClient(create_app(service=svc)) as c:
            body = remember(c, "Deploy keys rotate every ninety days")
            assert body["embedded"] is True
            out = recall(c, "Deploy keys rotate every ninety days")
            assert out["method"] == "hybrid" and out["results"][0]["id"] == body["id"]
            assert out["results"][0]["source"] == "hybrid"
            assert c.get(f"/api/memory/{body['id']}").json()["embedding_model"] == "nomic-embed-text"


def test_a_failing_provider_is_not_called_again_during_its_cooldown(make_service):
    calls = []

    def handler(path, body):
        calls.append(path)
        return 500, {"error": "out of memory"}

    with FakeServer(handler) as server:
        embedder = create_embedder(EmbeddingConfig(provider="ollama", base_url=server.url))
        svc = make_service(embedder_override=embedder)
        with TestClient(create_app(service=svc)) as c:
            remember(c, "note 0 while the embedder is down")  # its vector fails behind the answer
            for i in range(1, 5):  # then the provider cools down: no vector on its way, no call made
                assert remember(c, f"note {i} while the embedder is down")["embedded"] is False
            assert recall(c, "note 3 embedder")["method"] == "keyword"
            assert len(calls) == 1
            status = c.get("/api/embeddings/status").json()  # a status probe still asks
            assert status["available"] is False and "HTTP 500" in status["error"]
            assert len(calls) == 2
