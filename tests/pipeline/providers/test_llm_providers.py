"""LLM providers against fake servers on loopback that speak Ollama's and OpenAI's wire formats."""

import pytest

from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.llm.http import OllamaLlm, OpenAICompatibleLlm
from signet_pipeline.providers.llm.output import extract_json, strip_reasoning
from tests.fakes import FakeServer


def ollama(reply):
    def handler(path, body):
        if path == "/api/tags":
            return 200, {"models": [{"name": "qwen3:4b"}]}
        if path != "/api/generate":
            return 404, {"error": "not found"}
        return 200, {"model": body["model"], "created_at": "2026-11-22T00:00:00Z", "response": reply,
                     "done": True, "done_reason": "stop", "total_duration": 1000}
    return handler


def openai(reply):
    def handler(path, body):
        if path == "/v1/models":
            return 200, {"object": "list", "data": [{"id": "local-model", "object": "model"}]}
        if path != "/v1/chat/completions":
            return 404, {"error": {"message": "not found"}}
        return 200, {"id": "chatcmpl-1", "object": "chat.completion", "model": body["model"],
                     "choices": [{"index": 0, "finish_reason": "stop",
                                  "message": {"role": "assistant", "content": reply}}],
                     "usage": {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10}}
    return handler


def test_ollama_generate_and_available():
    with FakeServer(ollama("<think>let me see</think>\n```json\n{\"facts\": []}\n```")) as server:
        llm = OllamaLlm(base_url=server.url, model="qwen3:4b")
        assert llm.generate("extract", json=True) == '{"facts": []}'
        path, body, _ = server.requests[-1]
        assert path == "/api/generate"
        assert body == {"model": "qwen3:4b", "prompt": "extract", "stream": False, "format": "json"}
        llm.generate("plain")
        assert "format" not in server.requests[-1][1]
        assert llm.available() is True


def test_openai_compatible_generate_with_key(monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", "sk-local")
    with FakeServer(openai('Sure! Here it is: {"action": "add", "confidence": 0.9} hope that helps')) as server:
        llm = OpenAICompatibleLlm(base_url=server.url, model="local-model", api_key_env="TEST_LLM_KEY")
        reply = llm.generate("decide", json=True)
        assert extract_json(reply) == {"action": "add", "confidence": 0.9}
        path, body, headers = server.requests[-1]
        assert path == "/v1/chat/completions" and body["response_format"] == {"type": "json_object"}
        assert body["messages"] == [{"role": "user", "content": "decide"}]
        assert {k.lower(): v for k, v in headers.items()}["authorization"] == "Bearer sk-local"
        assert llm.available() is True


@pytest.mark.parametrize(
    ("reply", "needle"),
    [
        ((500, {"error": "model 'qwen3:4b' not found, try pulling it first"}),
         "HTTP 500: {\"error\": \"model 'qwen3:4b'"),
        ((200, "<html>not json</html>"), "JSONDecodeError"),
        ((200, {"done": True}), "KeyError"),
        ((200, {"error": "out of memory"}), "out of memory"),
    ],
)
def test_ollama_failures_are_provider_errors(reply, needle):
    with FakeServer(lambda path, body: reply) as server:
        with pytest.raises(ProviderError) as err:
            OllamaLlm(base_url=server.url, model="qwen3:4b").generate("x")
        assert needle in str(err.value) and "ollama (qwen3:4b)" in str(err.value)


def test_error_bodies_are_cut_to_200_characters():
    with FakeServer(lambda path, body: (502, "x" * 1000)) as server:
        with pytest.raises(ProviderError) as err:
            OpenAICompatibleLlm(base_url=server.url, model="m").generate("x")
        assert str(err.value).endswith("HTTP 502: " + "x" * 200)


def test_unreachable_and_slow_servers():
    assert OllamaLlm(base_url="http://127.0.0.1:9", model="m").available() is False
    with pytest.raises(ProviderError, match="Connect"):
        OllamaLlm(base_url="http://127.0.0.1:9", model="m").generate("x")

    import time

    def slow(path, body):
        time.sleep(1.0)
        return 200, {"response": "late"}

    with FakeServer(slow) as server:
        with pytest.raises(ProviderError, match="timed out"):
            OllamaLlm(base_url=server.url, model="m").generate("x", timeout=0.2)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ("<think>\nreasoning {not json}\n</think>\n{\"a\": 1}", {"a": 1}),
        ("```json\n[1, 2]\n```", [1, 2]),
        ('The answer is {"a": {"b": [1]}} and more text {', {"a": {"b": [1]}}),
        ("<think>never closed {\"x\": 1}", None),
        ("no json here", None),
        ("{broken", None),
        ("", None),
        # trailing commas, as small local models write them (issue 43: the first inner object came back)
        ('{"facts": [{"content": "a"},], "entities": [],}', {"facts": [{"content": "a"}], "entities": []}),
        ('Sure:\n```\n{"x": [1, 2,\n],\n}\n```', {"x": [1, 2]}),
        ('{"a": "keep ,] and ,} inside strings",}', {"a": "keep ,] and ,} inside strings"}),
        ('{"a": "a quote \\" then ,]",}', {"a": 'a quote " then ,]'}),
        ("[1,,]", None),
        ('The 27" monitor:\n{"facts": ["price, ]"]}', {"facts": ["price, ]"]}),  # a stray quote in the prose
    ],
)
def test_tolerant_json_extraction(text, expected):
    assert extract_json(text) == expected


def test_strip_reasoning_keeps_plain_text():
    assert strip_reasoning("  hello  ") == "hello"
    assert strip_reasoning("<THINK>x</THINK>answer") == "answer"
