"""`signet hook EVENT -H HARNESS` as a harness runs it: a separate process with the harness's JSON
on stdin, against the real API under uvicorn. Each event's output form, a hook that never hurts the
agent (API down, silent or refusing: exit 0, nothing on stdout, one line on stderr, within its
budget), the imports it stays without, and transcripts stored as their conversation."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time

import pytest

from signet_api.app import create_app
from signet_cli.harness.hook import fit
from signet_cli.harness.http_post import HttpError, _parse, split_url
from signet_pipeline.models import RememberRequest
from signet_pipeline.store import sessions as sessions_store
from signet_pipeline.write.remember import remember_many
from tests.conftest import ROOT, remember
from tests.live_server import LiveServer

MEMORY = "The spare key hangs behind the garage door"
CLAUDE_TRANSCRIPT = [
    {"type": "queue-operation", "operation": "enqueue", "content": "where is the spare key?"},
    {"type": "attachment", "attachment": {"type": "hook_additional_context", "content": ["[signet memory]"]}},
    {"type": "user", "isMeta": True,
     "message": {"role": "user", "content": "<local-command-caveat>x</local-command-caveat>"}},
    {"type": "user", "message": {"role": "user", "content": "where is the spare key? it is for the pomegranate shed"}},
    {"type": "assistant", "message": {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "hidden"}, {"type": "text", "text": "Behind the garage door."},
        {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]}},
    {"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                                             "content": "secret-tool-output"}]}},
]


def hook(server_url: str | None, event: str, harness: str, payload: dict | str | None, *args: str,
         env: dict | None = None, timeout: float = 60) -> tuple[subprocess.CompletedProcess, float]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SIGNET_")}
    if server_url:
        environment["SIGNET_DAEMON_URL"] = server_url
    environment.update(env or {})
    stdin = payload if isinstance(payload, str) else json.dumps(payload) if payload is not None else ""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "signet_cli", "hook", event, "-H", harness, *args],
                          input=stdin.encode(), capture_output=True, env=environment, timeout=timeout, cwd=ROOT)
    return done, time.perf_counter() - started


@pytest.fixture
def api(client):
    remember(client, MEMORY)
    with LiveServer(create_app(service=client.app.state.service)) as server:
        yield server


def test_session_start_and_prompt_inject_in_the_harness_json_form(api):
    start, _ = hook(api.url, "session-start", "claude-code", {"session_id": "k1", "cwd": "/work/app",
                                                                "source": "startup", "hook_event_name": "SessionStart"})
    assert start.returncode == 0 and start.stderr == b"", start.stderr
    out = json.loads(start.stdout)
    assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert MEMORY in out["hookSpecificOutput"]["additionalContext"]
    # Given at the start: the prompt leaves it out (the session's ledger); a new session gets it.
    prompt = {"session_id": "k1", "cwd": "/work/app", "prompt": "where is the spare key kept?"}
    again, _ = hook(api.url, "user-prompt-submit", "claude-code", prompt)
    assert again.returncode == 0 and again.stdout == b""
    codex, _ = hook(api.url, "user-prompt-submit", "codex", {**prompt, "session_id": "k2"})
    context = json.loads(codex.stdout)["hookSpecificOutput"]
    assert context["hookEventName"] == "UserPromptSubmit" and MEMORY in context["additionalContext"]
    plain, _ = hook(api.url, "user-prompt-submit", "pi", {**prompt, "session_id": "k3"})
    assert plain.stdout.decode().startswith("[signet memory]") and MEMORY in plain.stdout.decode()
    short, _ = hook(api.url, "user-prompt-submit", "codex", {**prompt, "session_id": "k4", "prompt": "ok"})
    assert short.returncode == 0 and short.stdout == b""  # nothing to add: nothing printed


def test_pre_compaction_gives_claude_code_its_instructions_and_codex_nothing(api):
    claude, _ = hook(api.url, "pre-compaction", "claude-code", {"session_id": "k1", "trigger": "auto"})
    assert claude.returncode == 0 and claude.stdout.decode().startswith("Summarize this session")
    codex, _ = hook(api.url, "pre-compaction", "codex", {"session_id": "k1", "trigger": "auto"})
    assert codex.returncode == 0 and codex.stdout == b"" and codex.stderr == b""  # Codex reads JSON only


def test_compaction_complete_keeps_the_summary_from_the_payload_or_the_transcript(api, svc, tmp_path):
    done, _ = hook(api.url, "compaction-complete", "claude-code",
                   {"session_id": "k5", "compact_summary": "We chose SQLite for the job queue.", "trigger": "auto"})
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""
    rollout = tmp_path / "rollout.jsonl"
    rollout.write_text("\n".join(json.dumps(e) for e in [
        {"type": "compacted", "payload": {"message": "An older summary."}},
        {"type": "response_item", "payload": {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "go on"}]}},
        {"type": "compacted", "payload": {"message": "Codex's summary: the queue moved to SQLite."}}]))
    codex, _ = hook(api.url, "compaction-complete", "codex", {"session_id": "k6", "transcript_path": str(rollout)})
    assert codex.returncode == 0, codex.stderr
    summaries = {r[0]: r[1] for r in svc.db.reader().execute(
        "SELECT source_id, content FROM memories WHERE type = 'session_summary'")}
    assert summaries == {"k5": "We chose SQLite for the job queue.",
                         "k6": "Codex's summary: the queue moved to SQLite."}
    none, _ = hook(api.url, "compaction-complete", "codex", {"session_id": "k7"})
    assert none.returncode == 0 and b"no compaction summary" in none.stderr


def test_session_end_stores_the_conversation_not_the_harness_records(api, client, svc, tmp_path):
    transcript = tmp_path / "session.jsonl"
    transcript.write_text("\n".join(json.dumps(e) for e in CLAUDE_TRANSCRIPT) + "\n")
    done, _ = hook(api.url, "session-end", "claude-code", {"session_id": "k8", "transcript_path": str(transcript),
                                                           "cwd": "/work/app", "reason": "exit"})
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b"", done.stderr
    kept = sessions_store.transcripts(svc.db.reader(), ["k8"], "default")["k8"]
    assert kept == ("User: where is the spare key? it is for the pomegranate shed\n\n"
                    "Assistant: Behind the garage door.")
    found = client.post("/api/sessions/search", json={"query": "pomegranate"}).json()
    excerpt = json.dumps(found)
    assert "pomegranate" in excerpt and "queue-operation" not in excerpt and "secret-tool-output" not in excerpt


def test_a_reference_client_sending_only_the_path_gets_the_conversation_stored(client, svc, tmp_path, monkeypatch):
    """The reference's own CLI sends transcriptPath; a trusted local caller's file is read, and
    kept as its conversation too."""
    transcript = tmp_path / "claude" / "s.jsonl"
    transcript.parent.mkdir()
    transcript.write_text("\n".join(json.dumps(e) for e in CLAUDE_TRANSCRIPT))
    svc.settings.hooks.transcript_roots = [transcript.parent]
    r = client.post("/api/hooks/session-end", json={"harness": "claude-code", "sessionKey": "k9",
                                                     "transcriptPath": str(transcript)})
    assert r.status_code == 200 and r.json()["transcriptSaved"] is True
    kept = sessions_store.transcripts(svc.db.reader(), ["k9"], "default")["k9"]
    assert kept.startswith("User: where is the spare key?") and "queue-operation" not in kept


def test_api_down_exits_zero_at_once_with_one_line(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    done, seconds = hook(f"http://127.0.0.1:{port}", "user-prompt-submit", "claude-code",
                         {"session_id": "k", "prompt": "where is the key?"})
    assert done.returncode == 0 and done.stdout == b""
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "not reachable" in lines[0], lines
    assert seconds < 10  # a process start and a refused connect (the budget is 4 s)


def test_an_api_that_never_answers_is_left_within_the_budget():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)  # accepts connections, never answers
        port = listener.getsockname()[1]
        done, seconds = hook(f"http://127.0.0.1:{port}", "session-start", "codex", {"session_id": "k"},
                             "--timeout", "1.5")
    assert done.returncode == 0 and done.stdout == b""
    assert "no answer" in done.stderr.decode() and len(done.stderr.decode().strip().splitlines()) == 1
    assert 1.4 < seconds < 15


def test_a_refusing_api_is_one_line_with_its_code(make_service):
    team = make_service(auth={"mode": "team"})
    with LiveServer(create_app(service=team)) as server:
        done, _ = hook(server.url, "user-prompt-submit", "claude-code", {"session_id": "k", "prompt": "where is it?"})
    assert done.returncode == 0 and done.stdout == b""
    assert "answered 401" in done.stderr.decode() and len(done.stderr.decode().strip().splitlines()) == 1


def test_bad_stdin_and_the_no_hooks_guard_never_fail(api):
    bad, _ = hook(api.url, "user-prompt-submit", "claude-code", "{not json")
    assert bad.returncode == 0 and b"not JSON" in bad.stderr
    off, _ = hook(api.url, "session-start", "claude-code", {"session_id": "k"}, env={"SIGNET_NO_HOOKS": "1"})
    assert off.returncode == 0 and off.stdout == b"" and off.stderr == b""
    # argparse's exit 2 is what Claude Code reads as "block this prompt": a wrong command is a line, exit 0
    wrong, _ = hook(api.url, "no-such-event", "claude-code", {"session_id": "k"})
    assert wrong.returncode == 0 and wrong.stdout == b"" and b"hook not run" in wrong.stderr
    legacy, _ = hook(api.url, "user-prompt-submit", "codex", {"session_id": "k9", "prompt": "where is the spare key"},
                     "--codex-json")  # the reference CLI's flag, in hooks it wrote
    assert legacy.returncode == 0 and MEMORY in legacy.stdout.decode() and legacy.stderr == b""


def test_the_hook_process_imports_no_heavy_library(api):
    """It starts on every prompt: no pydantic, httpx, numpy, onnxruntime, Dagster, FastAPI, and
    not http.client's email parser either."""
    code = ("import sys, io\nfrom signet_cli.main import main\n"
            "sys.stdin = io.TextIOWrapper(io.BytesIO(b'{\"session_id\": \"k\", \"prompt\": \"where is the key\"}'))\n"
            "main(['hook', 'user-prompt-submit', '-H', 'codex'])\n"
            "heavy = {'pydantic', 'httpx', 'numpy', 'onnxruntime', 'dagster', 'fastapi', 'email', 'typing'}\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & heavy))")
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("SIGNET_")}, "SIGNET_DAEMON_URL": api.url}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().strip().splitlines()[-1] == "[]"


def test_answers_are_read_as_http_says():
    assert split_url("http://[::1]:3850/base/") == ("http", "::1", 3850, "/base")
    assert split_url("https://mem.example") == ("https", "mem.example", 443, "")
    chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3\r\n: 1\r\n1\r\n}\r\n0\r\n\r\n"
    assert _parse(chunked)[2] == b'{"a": 1}'
    with pytest.raises(HttpError):
        _parse(b"SSH-2.0-OpenSSH\r\n")
    with pytest.raises(HttpError):
        split_url("ftp://x")


def test_a_slow_answer_in_pieces_is_read_whole():
    """An answer that arrives in several packets (and without Content-Length) is read to its end."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]

        def serve() -> None:
            conn, _ = listener.accept()
            with conn:
                conn.recv(65536)
                for piece in (b"HTTP/1.1 200 OK\r\n", b"Content-Type: application/json\r\n\r\n",
                              b'{"inject": "[signet memory]\\n- ', b'piecewise"}'):
                    conn.sendall(piece)
                    time.sleep(0.05)

        threading.Thread(target=serve, daemon=True).start()
        done, _ = hook(f"http://127.0.0.1:{port}", "user-prompt-submit", "pi", {"session_id": "k", "prompt": "a b"})
    assert done.stdout.decode().strip() == "[signet memory]\n- piecewise"


def test_session_start_fits_what_the_harness_shows_whole(api, client, svc):
    """Claude Code and Codex show a hook's context whole up to 10,000 characters (a 2 KB preview and a
    file path beyond): the hook asks for an inject composed to fit."""
    remember_many(svc, [RememberRequest(content=f"Runbook step {i}: drain node {i} of the blue pool before patching "
                                                f"its kernel, then wait for the health checks") for i in range(300)],
                  pipeline_jobs=False)
    whole = client.post("/api/hooks/session-start", json={"harness": "pi", "sessionKey": "w1"}).json()["inject"]
    assert len(whole) > 20_000
    sized = client.post("/api/hooks/session-start", json={"harness": "pi", "sessionKey": "w2",
                                                           "budgetChars": 10_000}).json()["inject"]
    assert len(sized) <= 10_000 and sized.startswith("[signet active]") and "Runbook step" in sized
    for harness in ("claude-code", "codex"):
        done, _ = hook(api.url, "session-start", harness, {"session_id": f"w-{harness}"})
        context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
        assert len(context.encode()) <= 10_000 and "Runbook step" in context


def test_fit_cuts_after_a_whole_line():
    text = "line one\nline two\nline three"
    assert fit(text, 100) == text and fit(text, 20) == "line one\nline two"
    assert fit("é" * 10, 7, count_bytes=True) == "ééé"


def test_a_transcript_over_the_read_limit_is_read_from_its_end(tmp_path, monkeypatch):
    from signet_cli.harness import hook as hook_module

    transcript = tmp_path / "long.jsonl"
    transcript.write_text("\n".join(json.dumps({"type": "user", "message": {"role": "user", "content": f"turn {i}"}})
                                    for i in range(1000)) + "\n")
    monkeypatch.setattr(hook_module, "MAX_TRANSCRIPT_FILE_BYTES", 2000)
    text = hook_module._transcript_text({"transcript_path": str(transcript)})
    assert text.rstrip().endswith('"turn 999"}}') and '"turn 0"' not in text
    assert text.startswith("{")  # from the first whole line on


def test_the_host_header_brackets_an_ipv6_address():
    try:
        listener = socket.socket(socket.AF_INET6)
        listener.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    with listener:
        listener.listen(1)
        port = listener.getsockname()[1]
        seen: list[bytes] = []

        def serve() -> None:
            conn, _ = listener.accept()
            with conn:
                seen.append(conn.recv(65536))
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")

        threading.Thread(target=serve, daemon=True).start()
        from signet_cli.harness.http_post import post

        assert post(f"http://[::1]:{port}", "/x", {}, {}, 5) == {}
    assert f"Host: [::1]:{port}\r\n".encode() in seen[0]
