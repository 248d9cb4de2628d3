import json
import os
import types
import typing
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel, SecretStr, ValidationError
from pydantic.alias_generators import to_camel

from signet_pipeline.config import Settings, load_settings
from signet_pipeline.errors import ConfigError


def write_config(workspace, text):
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "agent.yaml").write_text(text)


def test_defaults(workspace):
    s = load_settings(workspace)
    assert s.search.alpha == 0.7 and s.search.min_score == 0.1
    assert s.embedding.provider == "onnx" and s.server.port == 3850 and s.server.host == "127.0.0.1"
    assert s.pipeline.enabled and not s.pipeline.shadow_mode and s.pipeline.worker.lease_timeout_ms == 300_000
    assert s.db_path == workspace / "memory" / "memories.db"


def test_agent_yaml_keys_from_the_reference_system(workspace):
    write_config(workspace, """
agent: {name: my-agent}          # unrelated sections are ignored
search:
  alpha: 0.5
  min_score: 0.2
memory:
  decay_rate: 0.99
  pipelineV2:
    enabled: true
    shadowMode: true
    minFactConfidenceForWrite: 0.8
    worker: {maxRetries: 5}
embedding:
  provider: ollama
  model: nomic-embed-text
  dimensions: 768
  base_url: http://127.0.0.1:11434
""")
    s = load_settings(workspace)
    assert (s.search.alpha, s.search.min_score, s.memory.decay_rate) == (0.5, 0.2, 0.99)
    assert s.pipeline.shadow_mode and s.pipeline.min_fact_confidence_for_write == 0.8
    assert s.pipeline.worker.max_retries == 5
    assert (s.embedding.provider, s.embedding.model, s.embedding.dimensions) == ("ollama", "nomic-embed-text", 768)
    assert s.embedding.resolved_base_url() == "http://127.0.0.1:11434"


def test_env_overrides_the_file(workspace, monkeypatch):
    write_config(workspace, "search:\n  alpha: 0.5\n")
    monkeypatch.setenv("SIGNET_SEARCH__ALPHA", "0.9")
    monkeypatch.setenv("SIGNET_MEMORY__PIPELINEV2__SHADOW_MODE", "true")
    s = load_settings(workspace)
    assert s.search.alpha == 0.9 and s.pipeline.shadow_mode


def test_workspace_from_env(tmp_path, monkeypatch):
    monkeypatch.setenv("SIGNET_WORKSPACE", str(tmp_path / "elsewhere"))
    assert load_settings().workspace == tmp_path / "elsewhere"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("search:\n  alpha: 1.5\n", "search.alpha"),
        ("embedding:\n  provider: magic\n", "embedding.provider"),
        ("memory:\n  pipelineV2:\n    worker:\n      maxRetries: 99\n", "memory.pipelineV2.worker.maxRetries"),
        ("search: [1, 2]\n", "search"),
    ],
)
def test_bad_config_fails_fast_naming_the_key(workspace, text, needle):
    write_config(workspace, text)
    with pytest.raises(ConfigError) as err:
        load_settings(workspace)
    assert needle in str(err.value)


def test_unparseable_yaml_is_a_config_error(workspace):
    write_config(workspace, "search: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_settings(workspace)


@pytest.mark.parametrize("embedding", [{"model": "bge-small-en"}, {"dimensions": 768}])
def test_the_onnx_provider_accepts_only_the_model_it_ships(workspace, embedding):
    with pytest.raises(ConfigError, match="provider onnx runs all-MiniLM-L6-v2"):
        load_settings(workspace, embedding=embedding)
    assert load_settings(workspace, embedding={**embedding, "provider": "ollama"}).embedding.provider == "ollama"


def _leaf_fields(model=Settings, instance=None, path=()):
    """(path of (field name, agent.yaml key) pairs, field, the owning model, its default) of every leaf setting."""
    for name, field in model.model_fields.items():
        if name == "workspace":  # the argument of load_settings, not a key
            continue
        value = getattr(instance, name) if instance is not None else field.default
        step = path + ((name, field.alias or name),)
        if isinstance(value, BaseModel):
            yield from _leaf_fields(type(value), value, step)
        else:
            yield step, field, model, value


def _bounded(field, default, kind):
    """Numbers near the default within the field's bounds."""
    low = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
    low = next((m.gt for m in field.metadata if hasattr(m, "gt")), low)
    high = next((m.le for m in field.metadata if hasattr(m, "le")), None)
    base = default if default is not None else (low if low is not None else 1)
    out = [base + 1, base - 1, *([(base + high) / 2, high] if high is not None else []),
           *([(base + low) / 2] if low is not None else [])]
    return [kind(v) for v in out if (low is None or v >= low) and (high is None or v <= high) and kind(v) != default]


def _candidates(field, default):
    """Values other than the default a field could take (the first its section accepts is used)."""
    annotation = field.annotation
    optional = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    kind = next(a for a in typing.get_args(annotation) if a is not type(None)) if optional else annotation
    if typing.get_origin(annotation) is typing.Literal:
        return [a for a in typing.get_args(annotation) if a != default]
    if kind is bool:
        return [not default]
    if kind in (int, float):
        return _bounded(field, default, kind)
    if kind is dict or typing.get_origin(kind) is dict:
        return [{"someKey": 1}]
    if typing.get_origin(kind) is list:
        item = typing.get_args(kind)[0]
        if isinstance(item, type) and issubclass(item, BaseModel):
            return [[{"name": "a", "read_policy": "group", "group": "g"}]]
        return [["/tmp/signet-config-test"]]
    return ["/tmp/signet-config-test" if kind is Path else "postgresql://u@h/db" if kind is SecretStr else "x-test"]


# Settings that are only valid together with another one of their section.
_CONTEXT = {("embedding", "model"): {"provider": "ollama"}, ("embedding", "dimensions"): {"provider": "ollama"}}


def _spelled(value, camel):
    """A list of roster entries with its keys in the given spelling."""
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return [{(to_camel(k) if camel else k): v for k, v in item.items()} for item in value]
    return value


def _nest(keys, value, context):
    node = {keys[-1]: value, **context}
    for key in reversed(keys[:-1]):
        node = {key: node}
    return node


def test_every_leaf_setting_loads_by_camel_case_snake_case_and_env(workspace, monkeypatch):
    """Each leaf: its agent.yaml key (camelCase), its snake_case name, and SIGNET_<SECTION>__<FIELD> all
    set it, so no field needs its own validation alias for them."""
    for var in [v for v in os.environ if v.startswith("SIGNET_")]:
        monkeypatch.delenv(var)
    checked = 0
    for path, field, owner, default in _leaf_fields():
        names, keys = [n for n, _ in path], [k for _, k in path]
        context = _CONTEXT.get(tuple(names[-2:]), {})
        value = expected = None
        for candidate in _candidates(field, default):
            try:
                expected = getattr(owner.model_validate({**context, names[-1]: _spelled(candidate, False)}), names[-1])
            except ValidationError:
                continue
            value = candidate
            break
        assert value is not None, f"no test value for {'.'.join(keys)}"

        def loaded():
            s = load_settings(workspace)
            for name in names:
                s = getattr(s, name)
            return s

        for spelling, camel in ((keys, True), (names, False)):
            write_config(workspace, yaml.safe_dump(_nest(spelling, _spelled(value, camel), context)))
            assert loaded() == expected, f"agent.yaml {'.'.join(spelling)}"
        (workspace / "agent.yaml").unlink()
        env = "SIGNET_" + "__".join(names).upper()
        raw = json.dumps(value) if isinstance(value, list | dict) else str(value).lower() if isinstance(value, bool) \
            else str(value)
        with monkeypatch.context() as m:
            m.setenv(env, raw)
            for key, extra in context.items():
                m.setenv("SIGNET_" + "__".join([*names[:-1], key]).upper(), extra)
            assert loaded() == expected, env
        checked += 1
    assert checked > 100


def test_removed_settings_in_agent_yaml_still_load(workspace):
    """dampening.*, reranker.* and graph.boostWeight/boostTimeoutMs were removed: an agent.yaml that
    still sets them loads, the keys ignored like any unknown one."""
    write_config(workspace, """
memory:
  pipelineV2:
    graph: {enabled: false, boostWeight: 0.15, boostTimeoutMs: 800}
    dampening: {gravityEnabled: true, hubEnabled: true, resolutionEnabled: true, hubPenalty: 0.5}
    reranker: {enabled: true, topN: 5, timeoutMs: 100}
""")
    pipeline = load_settings(workspace).pipeline
    assert not pipeline.graph.enabled
    assert not {"dampening", "reranker"} & set(type(pipeline).model_fields)
    assert set(type(pipeline.graph).model_fields) == {"enabled"}
