"""GET /api/features and GET /api/config: flags and effective settings, credentials redacted."""

import pytest

from signet_pipeline.ops.settings_view import REDACTED, is_secret_name, redact


@pytest.mark.parametrize("name, secret", [
    ("apiKey", True), ("api_key", True), ("authSecret", True), ("password", True), ("tokenSecret", True),
    ("apiKeyEnv", False), ("api_key_env", False), ("maxTokens", False), ("model", False), ("baseUrl", False),
])
def test_secret_names(name, secret):
    assert is_secret_name(name) is secret


def test_redaction_walks_nested_settings():
    assert redact({"embedding": {"apiKey": "sk-123", "apiKeyEnv": "OPENAI_API_KEY"}, "auth": [{"secret": "s"}]}) == {
        "embedding": {"apiKey": REDACTED, "apiKeyEnv": "OPENAI_API_KEY"}, "auth": [{"secret": REDACTED}]}


def test_features_and_config_endpoints(make_service, workspace, monkeypatch):
    from fastapi.testclient import TestClient

    from signet_api.app import create_app

    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "agent.yaml").write_text(
        "search:\n  alpha: 0.5\nmemory:\n  pipelineV2:\n    hints:\n      enabled: false\n")
    monkeypatch.setenv("SIGNET_EMBEDDING__BASE_URL", "http://127.0.0.1:11434")
    svc = make_service()
    with TestClient(create_app(service=svc)) as client:
        flags = client.get("/api/features").json()
        config = client.get("/api/config").json()
    assert flags["hints"] is False and flags["pipeline"] is True and flags["mutationsFrozen"] is False
    assert config["files"] == [{"path": str(workspace / "agent.yaml"), "exists": True}]
    settings = config["settings"]
    assert settings["search"]["alpha"] == 0.5  # from agent.yaml
    assert settings["embedding"]["baseUrl"] == "http://127.0.0.1:11434"  # from the environment
    assert settings["embedding"]["apiKeyEnv"] == "OPENAI_API_KEY"  # the variable's name, not its value
