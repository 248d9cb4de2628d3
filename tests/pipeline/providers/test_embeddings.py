import socket

import numpy as np
import pytest

from signet_pipeline.config import EmbeddingConfig
from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.embeddings import create_embedder
from signet_pipeline.providers.embeddings.onnx import OnnxMiniLM, packaged_model_path, packaged_tokenizer_path
from tests.fakes import FakeServer, fake_vector


def test_onnx_model_loads_offline_with_the_network_disabled(monkeypatch):
    def no_network(*args, **kwargs):
        raise OSError("network disabled in this test")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert packaged_model_path().is_file() and "site-packages" in str(packaged_model_path())
    assert packaged_tokenizer_path().is_file()
    model = OnnxMiniLM()
    vectors = model.embed(["The cat sat on the mat.", "A kitten rested on the rug.", "Quarterly tax filing deadline"])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    sims = vectors @ vectors.T
    assert sims[0, 1] > 0.5 > sims[0, 2]


def test_batched_and_single_embeddings_agree(embedder):
    texts = ["short", "a much longer sentence that needs more tokens than the first one", "mid length text"]
    batched = embedder.embed(texts)
    single = np.vstack([embedder.embed_one(t) for t in texts])
    assert np.allclose(batched, single, atol=1e-4)


def test_long_input_is_truncated_not_rejected(embedder):
    assert embedder.embed_one("word " * 5000).shape == (384,)


def ollama_handler(path, body):
    if path != "/api/embed":
        return 404, {"error": "not found"}
    return 200, {"model": body["model"], "embeddings": [fake_vector(t, 8) for t in body["input"]],
                 "total_duration": 1000, "load_duration": 10, "prompt_eval_count": 3}


def openai_handler(path, body):
    if path != "/v1/embeddings":
        return 404, {"error": {"message": "not found"}}
    data = [{"object": "embedding", "index": i, "embedding": fake_vector(t, 8)} for i, t in enumerate(body["input"])]
    return 200, {"object": "list", "data": list(reversed(data)), "model": body["model"],
                 "usage": {"prompt_tokens": 3, "total_tokens": 3}}


def test_ollama_provider_speaks_api_embed():
    with FakeServer(ollama_handler) as server:
        provider = create_embedder(EmbeddingConfig(provider="ollama", model="nomic-embed-text", base_url=server.url))
        vectors = provider.embed(["alpha", "beta"])
        assert vectors.shape == (2, 8) and provider.dimensions == 8
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
        path, body, _ = server.requests[0]
        assert path == "/api/embed" and body == {"model": "nomic-embed-text", "input": ["alpha", "beta"]}
        assert provider.status().available is True


def test_openai_provider_speaks_v1_embeddings_and_orders_by_index(monkeypatch):
    monkeypatch.setenv("TEST_EMBED_KEY", "sk-test")
    with FakeServer(openai_handler) as server:
        provider = create_embedder(EmbeddingConfig(provider="openai", model="text-embedding-3-small",
                                                   base_url=server.url, api_key_env="TEST_EMBED_KEY"))
        vectors = provider.embed(["one", "two", "three"])
        expected = np.asarray([fake_vector(t, 8) for t in ("one", "two", "three")], dtype=np.float32)
        expected /= np.linalg.norm(expected, axis=1, keepdims=True)
        assert np.allclose(vectors, expected)
        _, body, headers = server.requests[0]
        assert body["model"] == "text-embedding-3-small" and "dimensions" not in body
        assert {k.lower(): v for k, v in headers.items()}["authorization"] == "Bearer sk-test"


@pytest.mark.parametrize(
    ("reply", "needle"),
    [
        ((500, {"error": "model not loaded"}), "HTTP 500: {\"error\": \"model not loaded\"}"),
        ((200, "this is not json"), "ollama"),
        ((200, {"embeddings": [[1.0, 2.0]]}), "expected 2 embeddings"),
        ((200, {"unexpected": True}), "KeyError"),
    ],
)
def test_http_provider_errors_are_provider_errors(reply, needle):
    with FakeServer(lambda path, body: reply) as server:
        provider = create_embedder(EmbeddingConfig(provider="ollama", base_url=server.url))
        with pytest.raises(ProviderError) as err:
            provider.embed(["a", "b"])
        assert needle in str(err.value)


def test_status_reports_an_unavailable_provider():
    with FakeServer(lambda path, body: (503, {"error": "loading"})) as server:
        provider = create_embedder(EmbeddingConfig(provider="ollama", base_url=server.url))
        status = provider.status()
        assert (status.available, status.provider, status.model) == (False, "ollama", "nomic-embed-text")
        assert "HTTP 503" in status.error
        assert provider.status() is status  # cached for 30 s


def test_unreachable_provider_is_reported_not_raised_at_startup():
    provider = create_embedder(EmbeddingConfig(provider="ollama", base_url="http://127.0.0.1:9", timeout_ms=500))
    assert provider.dimensions is None
    with pytest.raises(ProviderError):
        provider.embed(["x"])


def test_openai_provider_asks_for_the_configured_dimensions():
    with FakeServer(openai_handler) as server:
        provider = create_embedder(EmbeddingConfig(provider="openai", base_url=server.url, dimensions=8))
        provider.embed(["x"])
        assert server.requests[0][1]["dimensions"] == 8
