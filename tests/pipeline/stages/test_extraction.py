"""Extraction stage: spec validation rules, through a real HTTP provider on a fake server."""

import json

from signet_pipeline.providers.llm.http import OllamaLlm
from signet_pipeline.stages.extraction.facts import (
    MAX_ENTITIES,
    MAX_FACTS,
    MAX_INPUT_CHARS,
    TRUNCATION_MARKER,
    build_prompt,
    extract,
    parse_extraction,
)
from tests.fakes import FakeServer


def test_valid_output_passes_through():
    reply = json.dumps({
        "facts": [{"content": "Maria adopted a beagle named Biscuit", "type": "fact", "confidence": 0.9}],
        "entities": [{"source": "Maria", "relationship": "adopted", "target": "Biscuit", "confidence": 0.8}],
    })
    result = parse_extraction(reply)
    assert [f.content for f in result.facts] == ["Maria adopted a beagle named Biscuit"]
    assert result.entities[0].target == "Biscuit" and result.warnings == []


def test_invalid_items_become_warnings_and_valid_ones_survive():
    reply = json.dumps({
        "facts": [
            {"content": "too short", "type": "fact", "confidence": 0.9},
            {"content": "x" * 2500, "type": "preference", "confidence": 0.5},
            {"content": "Tom teaches physics at a high school", "type": "opinion", "confidence": 7},
            {"content": "Lena runs a bakery near the river", "type": "FACT", "confidence": "high"},
            "not an object",
        ],
        "entities": [{"source": "Tom", "relationship": "", "target": "school"},
                     {"source": "Lena", "relationship": "runs", "target": "bakery", "confidence": -1}],
    })
    result = parse_extraction(reply)
    assert [len(f.content) for f in result.facts] == [2000, 36, 33]
    assert [f.type for f in result.facts] == ["preference", "fact", "fact"]
    assert [f.confidence for f in result.facts] == [0.5, 1.0, 0.5]
    assert [(e.source, e.confidence) for e in result.entities] == [("Lena", 0.0)]
    joined = " | ".join(result.warnings)
    for needle in ("shorter than 10", "truncated", "coerced to fact", "clamped", "not a number",
                   "not an object", "non-empty source"):
        assert needle in joined


def test_caps_and_garbage_never_raise():
    many = {"facts": [{"content": f"fact number {i} is long enough", "type": "fact", "confidence": 1}
                      for i in range(30)],
            "entities": [{"source": f"a{i}", "relationship": "r", "target": "b", "confidence": 1} for i in range(60)]}
    result = parse_extraction(json.dumps(many))
    assert len(result.facts) == MAX_FACTS and len(result.entities) == MAX_ENTITIES
    for garbage in ("", "not json", "[1, 2]", '{"facts": "nope"}', "<think>hmm"):
        assert parse_extraction(garbage).facts == []


def test_long_input_is_truncated_with_a_marker():
    prompt = build_prompt("a" * (MAX_INPUT_CHARS + 500))
    assert "a" * MAX_INPUT_CHARS + " " + TRUNCATION_MARKER in prompt and "a" * (MAX_INPUT_CHARS + 1) not in prompt


def test_extract_through_ollama_with_a_chain_of_thought_model():
    reply = "<think>The user mentions a dog.</think>\n```json\n" + json.dumps(
        {"facts": [{"content": "Maria adopted a beagle named Biscuit", "type": "fact", "confidence": 0.9}],
         "entities": []}) + "\n```"

    with FakeServer(lambda path, body: (200, {"model": body["model"], "response": reply, "done": True})) as server:
        result = extract(OllamaLlm(base_url=server.url, model="qwen3:4b"), "Maria: I adopted a beagle, Biscuit!")
        assert [f.content for f in result.facts] == ["Maria adopted a beagle named Biscuit"]
        sent = server.requests[0][1]
        assert sent["format"] == "json" and "Maria: I adopted a beagle, Biscuit!" in sent["prompt"]
