import pytest

from signet_pipeline.config import load_settings
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
