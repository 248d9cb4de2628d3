"""The real Claude Code and Codex CLIs (from npm), wired by `signet connect` as a person would, each
running a whole headless session against a loopback stand-in of its model API: the request the
model gets carries a remembered memory, Claude Code's model calls memory_search through signet-mcp
and gets our memories back, and the session's transcript reaches the service, searchable.

.ci/run installs the CLIs (SIGNET_HARNESS_BIN names the folder holding `claude` and `codex`); without
them these tests are skipped."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from signet_api.app import create_app
from signet_pipeline.models import RememberRequest
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.write.remember import remember_many
from tests.conftest import remember
from tests.fakes import FakeServer, anthropic_message, responses_message
from tests.live_server import LiveServer

pytestmark = pytest.mark.slow
MEMORY = "The spare key hangs behind the garage door"
QUESTION = "where is my spare key?"
SIGNET = Path(sys.executable).parent / "signet"


def cli(name: str) -> str:
    folder = os.environ.get("SIGNET_HARNESS_BIN")
    found = shutil.which(name, path=folder) if folder else shutil.which(name)
    if found is None:
        pytest.skip(f"the {name} CLI is not installed (.ci/run installs it; SIGNET_HARNESS_BIN names its folder)")
    return found


def environment(home: Path, api_url: str, **extra: str) -> dict[str, str]:
    keep = ("PATH", "LANG", "TMPDIR", "SYSTEMROOT")
    return {**{k: os.environ[k] for k in keep if k in os.environ}, "HOME": str(home), "SIGNET_DAEMON_URL": api_url,
            **extra}


def connect(harness: str, env: dict[str, str]) -> None:
    done = subprocess.run([str(SIGNET), "connect", harness], env=env, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()


def stored(svc, harness: str, timeout: float = 30) -> dict[str, str]:
    """The transcripts the harness's session end left (its hook runs as the CLI exits)."""
    deadline = time.monotonic() + timeout
    while True:
        rows = {r[0]: r[1] for r in svc.db.reader().execute(
            "SELECT session_key, content FROM session_transcripts WHERE harness = ?", (harness,))}
        if rows or time.monotonic() > deadline:
            return rows
        time.sleep(0.2)


@pytest.fixture
def api(client):
    remember(client, MEMORY)
    # Enough for a session-start inject far over what a harness shows whole (10,000 characters).
    remember_many(client.app.state.service, [RememberRequest(
        content=f"Deploy note {i}: the staging cluster {i % 7} rotates its TLS certificates every {i % 30 + 1} days "
                f"and pages the on-call engineer when a renewal fails") for i in range(150)], pipeline_jobs=False)
    with LiveServer(create_app(service=client.app.state.service)) as server:
        yield server


def test_claude_code_session_gets_memories_calls_memory_search_and_hands_over_its_transcript(api, client, svc,
                                                                                              tmp_path):
    claude = cli("claude")

    def model(path: str, body: dict) -> tuple[int, object]:
        if not path.startswith("/v1/messages") or "count_tokens" in path:
            return 200, {"input_tokens": 10}
        last = body.get("messages", [{}])[-1].get("content")
        answered = isinstance(last, list) and any(p.get("type") == "tool_result" for p in last)
        offered = {t.get("name") for t in body.get("tools", [])}
        if "mcp__signet__memory_search" in offered and not answered:
            return 200, anthropic_message(tool=("mcp__signet__memory_search", {"query": "spare key"}))
        return 200, anthropic_message("Behind the garage door.")

    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir(parents=True)
    with FakeServer(model) as anthropic:
        env = environment(home, api.url, ANTHROPIC_BASE_URL=anthropic.url, ANTHROPIC_API_KEY="sk-test",
                          DISABLE_TELEMETRY="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1")
        connect("claude-code", env)
        done = subprocess.run([claude, "-p", QUESTION, "--allowedTools", "mcp__signet__memory_search"], env=env,
                              cwd=project, capture_output=True, timeout=240)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        assert "Behind the garage door." in done.stdout.decode()
    turns = [body for path, body, _ in anthropic.requests if path.startswith("/v1/messages") and body.get("messages")]
    assert turns and MEMORY in json.dumps(turns[0])  # session-start and the prompt's context reached the model
    # whole: over 10,000 characters Claude Code would show a 2 KB preview and a file path instead
    assert "persisted-output" not in json.dumps(turns[0]) and "Deploy note" in json.dumps(turns[0])
    offered = {t["name"] for t in turns[0]["tools"] if t["name"].startswith("mcp__signet__")}
    assert len(offered) == 20, sorted(offered)  # every tool, memory_feedback included
    results = [part for body in turns for part in body["messages"][-1]["content"]
               if isinstance(body["messages"][-1]["content"], list) and part.get("type") == "tool_result"]
    assert results and MEMORY in json.dumps(results[0])  # the tool's answer went back to the model
    transcripts = stored(svc, "claude-code")
    assert len(transcripts) == 1
    (key, text), = transcripts.items()
    assert text.startswith(f"User: {QUESTION}") and "Assistant: Behind the garage door." in text
    found = client.post("/api/sessions/search", json={"query": "spare key"}).json()
    assert key in json.dumps(found) and "queue-operation" not in json.dumps(found)


def test_codex_session_gets_memories_offers_the_tools_and_hands_over_its_transcript(api, client, svc, tmp_path):
    codex = cli("codex")

    def model(path: str, body: dict) -> tuple[int, object]:
        if path.rstrip("/").endswith("/models"):
            return 200, {"data": []}
        return 200, responses_message("Behind the garage door.")

    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir(parents=True)
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True)
    with FakeServer(model) as openai:
        # The person's own configuration (their model provider), which `signet connect` keeps.
        (codex_home / "config.toml").write_text(
            'model = "gpt-test"\nmodel_provider = "standin"\n\n[model_providers.standin]\nname = "stand-in"\n'
            f'base_url = "{openai.url}/v1"\nwire_api = "responses"\nenv_key = "STANDIN_KEY"\n')
        env = environment(home, api.url, CODEX_HOME=str(codex_home), STANDIN_KEY="sk-test")
        connect("codex", env)
        done = subprocess.run([codex, "exec", "--skip-git-repo-check", QUESTION], env=env, cwd=project,
                              capture_output=True, timeout=240)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
    turns = [body for path, body, _ in openai.requests if path.endswith("/responses")]
    assert turns and MEMORY in json.dumps(turns[0])  # hooks ran: Codex trusted what `signet connect` wrote
    assert "Full hook output saved to" not in json.dumps(turns[0])  # the context fit what Codex shows whole
    namespace = next(t for t in turns[0]["tools"] if t.get("name") == "mcp__signet")
    assert len(namespace["tools"]) == 20
    transcripts = stored(svc, "codex")
    assert list(transcripts.values()) == [f"User: {QUESTION}\n\nAssistant: Behind the garage door."]
    sessions = sessions_store.transcripts(svc.db.reader(), list(transcripts), "default")
    assert sessions == transcripts
    # Stop ends a turn, not the session: a checkpoint (Codex has no session end)
    ended = svc.db.reader().execute("SELECT ended_at FROM sessions WHERE session_key = ?", (list(transcripts)[0],))
    assert ended.fetchone() == (None,)
