"""Session checkpoints: periodic (every N prompts), pre-compaction and session-end triggers,
secret redaction, merge window, per-session cap, listing by session and project."""

import pytest

from signet_pipeline.sessions.checkpoints import redact
from tests.conftest import remember


@pytest.mark.parametrize("secret", [
    "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", "OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234",
    "token ghp_abcdefghijklmnopqrstuvwxyz0123", "aws AKIAABCDEFGHIJKLMNOP", "db_password: hunter2hunter2",
    "blob QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0MTIzNDU2Nzg5MA==",
])
def test_secrets_are_scrubbed(secret):
    scrubbed = redact(f"before {secret} after")
    assert "[redacted]" in scrubbed and scrubbed.startswith("before") and scrubbed.endswith("after")
    for part in ("eyJhbGciOiJIUzI1NiJ9", "sk-proj", "ghp_abc", "AKIAABC", "hunter2", "QUJDREVG"):
        assert part not in scrubbed


def prompt(client, text, key="cp1", **extra):
    return client.post("/api/hooks/user-prompt-submit",
                       json={"harness": "claude-code", "sessionKey": key, "project": "/src/signet", "userPrompt": text,
                             **extra})


def test_triggers_write_checkpoints_with_digests(client, make_service):
    remember(client, "We chose Postgres for the billing ledger", sessionId="cp1")
    for i in range(10):  # hooks.checkpointEveryPrompts = 10
        prompt(client, f"step {i}: deploy with SIGNET_TOKEN=abc123secretvalue please")
    periodic = client.get("/api/checkpoints/cp1").json()["checkpoints"]
    assert [c["trigger"] for c in periodic] == ["periodic"] and periodic[0]["promptCount"] == 10
    digest = periodic[0]["digest"]
    assert "## Session checkpoint (periodic)" in digest and "- prompts: 10" in digest
    assert "Postgres for the billing ledger" in digest and "abc123secretvalue" not in digest
    assert all("abc123secretvalue" not in q for q in periodic[0]["memoryQueries"])
    client.post("/api/hooks/pre-compaction", json={"harness": "claude-code", "sessionKey": "cp1", "messageCount": 40,
                                                   "sessionContext": "working on the ledger migration"})
    client.post("/api/hooks/session-end", json={"harness": "claude-code", "sessionKey": "cp1"})
    triggers = [c["trigger"] for c in client.get("/api/checkpoints/cp1").json()["checkpoints"]]
    assert triggers == ["session_end", "pre_compaction", "periodic"]
    by_project = client.get("/api/checkpoints", params={"project": "signet"}).json()["checkpoints"]
    assert len(by_project) == 3 and client.get("/api/checkpoints", params={"project": "other"}).json() == {
        "checkpoints": []}


def test_writes_within_the_window_merge_and_sessions_are_capped(make_service):
    from fastapi.testclient import TestClient

    from signet_api.app import create_app

    svc = make_service(hooks={"checkpointEveryPrompts": 1, "maxCheckpointsPerSession": 3})
    with TestClient(create_app(service=svc)) as client:
        prompt(client, "first prompt here", key="m1")
        prompt(client, "second prompt here", key="m1")  # within 2.5 s: the same row, updated
        rows = client.get("/api/checkpoints/m1").json()["checkpoints"]
        assert len(rows) == 1 and rows[0]["promptCount"] == 2
        with svc.db.write() as conn:  # age it past the merge window
            conn.execute("UPDATE session_checkpoints SET created_at = '2020-01-01T00:00:00.000Z'")
        for i in range(5):
            prompt(client, f"prompt number {i}", key="m1")
            with svc.db.write() as conn:
                conn.execute("UPDATE session_checkpoints SET created_at = '2020-01-01T00:00:00.000Z'")
        rows = client.get("/api/checkpoints/m1").json()["checkpoints"]
        assert len(rows) == 3 and rows[0]["promptCount"] == 7  # the newest three kept


def test_checkpoints_are_their_agents_own(client):
    remember(client, "Ana's private salary note", sessionId="priv", agentId="ana", visibility="private")
    remember(client, "Bo keeps the VPN hint in his notes", sessionId="priv", agentId="bo")
    client.post("/api/hooks/session-end", json={"harness": "claude-code", "sessionKey": "priv", "agentId": "bo"})
    mine = client.get("/api/checkpoints/priv", headers={"x-signet-agent-id": "bo"}).json()["checkpoints"]
    assert len(mine) == 1 and "VPN hint" in mine[0]["digest"] and "salary" not in mine[0]["digest"]
    assert client.get("/api/checkpoints/priv", headers={"x-signet-agent-id": "eve"}).json() == {"checkpoints": []}
    assert client.get("/api/checkpoints", headers={"x-signet-agent-id": "eve"}).json() == {"checkpoints": []}


@pytest.mark.parametrize("text, kept", [
    ('{"api_key": "abc123", "name": "x"}', '"api_key": "[redacted]"'),
    ("postgres://admin:pa55word@db.internal/prod", "postgres://[redacted]@db.internal/prod"),
    ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: [redacted]"),
    ("key AIzaSyA-abcdefghijklmnopqrstuvwxyz12345", "key [redacted]"),
])
def test_more_secret_shapes(text, kept):
    assert redact(text) == kept or kept in redact(text)


def test_ordinary_text_is_left_alone():
    for text in ("the monkey: banana", "see config.yaml and version 1.2.3", "https://example.com/docs/page"):
        assert redact(text) == text


def test_signet_tokens_are_scrubbed():
    from signet_pipeline.auth.tokens import issue

    token = issue(b"k" * 32, sub="ci", role="admin", ttl_s=60)[0]
    assert redact(f"export SIGNET_API_KEY {token}") == "export SIGNET_API_KEY [redacted]"
