"""What the reference's harness integrations call on every prompt and every few turns, answered
as they read it: user-prompt-submit's memoryCount / engine / queryTerms / sessionKnown, the
mid-session checkpoint extract (OpenClaw, Hermes), the skill-invocation report (OpenCode), and
the `signet-mcp` command their MCP configs launch."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import tomllib

from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.stages.session_summary import run_session_jobs
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.text.transcripts import conversation
from tests.cli.response_fields import carries
from tests.conftest import ROOT, remember
from tests.live_server import LiveServer

# The reference's hook response types (UserPromptSubmitResponse, CheckpointExtractResponse) and
# what its clients read: field -> JSON type, for the fields every answer must carry.
PROMPT_SUBMIT = {"inject": "string", "memoryCount": "number", "sessionKnown": "boolean", "engine": "string"}
CHECKPOINT = {"skipped": "boolean", "queued": "boolean"}


def hook(client, name, **body):
    return client.post(f"/api/hooks/{name}", json=body)


def test_user_prompt_submit_answers_what_the_harness_clients_read(client):
    remember(client, "The staging cluster runs Kubernetes 1.29")
    prompt = {"harness": "pi", "sessionKey": "p1", "userMessage": "which kubernetes version runs on staging?"}
    unknown = hook(client, "user-prompt-submit", **prompt).json()
    carries(unknown, PROMPT_SUBMIT)
    # Pi and Hermes re-run session-start when the service does not know the session.
    assert unknown["sessionKnown"] is False and unknown["memoryCount"] == len(unknown["memories"]) == 1
    assert unknown["engine"] == "hybrid" and unknown["queryTerms"] == prompt["userMessage"]
    assert hook(client, "session-start", harness="pi", sessionKey="p1").status_code == 200
    known = hook(client, "user-prompt-submit", **{**prompt, "userMessage": "and the staging kubernetes again"}).json()
    assert known["sessionKnown"] is True and known["memoryCount"] == 0  # given already
    other_agent = hook(client, "user-prompt-submit", **prompt, agentId="bob").json()
    assert other_agent["sessionKnown"] is False  # p1 is the default agent's session
    short = hook(client, "user-prompt-submit", harness="pi", sessionKey="p1", userMessage="ok").json()
    carries(short, PROMPT_SUBMIT)
    assert (short["memoryCount"], short["engine"], short["sessionKnown"]) == (0, "none", True)
    off = client.post("/api/hooks/user-prompt-submit", json=prompt, headers={"x-signet-no-hooks": "1"}).json()
    assert off["inject"] == "" and off["memoryCount"] == 0


def _jsonl(*turns: str) -> str:
    return "\n".join(json.dumps({"role": "user" if i % 2 == 0 else "assistant", "content": text})
                     for i, text in enumerate(turns))


TURNS = [f"Turn {i}: the billing service deploy on cluster {i} needs the blue-green switch checked first, "
         f"and the rollback plan for cluster {i} is written down in the operations runbook." for i in range(12)]


def test_checkpoint_extract_keeps_the_transcript_and_queues_only_what_is_new(client, svc):
    first = hook(client, "session-checkpoint-extract", harness="openclaw", sessionKey="oc1", project="/repo",
                 transcript=_jsonl(*TURNS[:8]))
    assert first.status_code == 200, first.text
    body = first.json()
    carries(body, CHECKPOINT)
    assert body["queued"] is True and body["skipped"] is False and isinstance(body["jobId"], int)
    replay = hook(client, "session-checkpoint-extract", harness="openclaw", sessionKey="oc1",
                  transcript=_jsonl(*TURNS[:8])).json()
    assert replay["queued"] is True and replay["jobId"] == body["jobId"]  # still pending: that job covers it
    (report,) = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports
    assert report.turns == 8 and report.memory_ids
    done = hook(client, "session-checkpoint-extract", harness="openclaw", sessionKey="oc1",
                transcript=_jsonl(*TURNS[:8])).json()
    assert (done["skipped"], done["queued"], done["reason"]) == (True, False, "nothing new since the last summary")
    little = hook(client, "session-checkpoint-extract", harness="openclaw", sessionKey="oc1",
                  transcript=_jsonl(*TURNS[:8], "ok")).json()
    assert little["skipped"] is True and "too little" in little["reason"]
    grown = hook(client, "session-checkpoint-extract", harness="openclaw", sessionKey="oc1",
                 transcript=_jsonl(*TURNS)).json()
    assert grown["queued"] is True and grown["jobId"] != body["jobId"], grown
    (second,) = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports
    assert second.turns == 4  # the four new turns only
    stored = svc.db.reader().execute("SELECT content, project FROM session_transcripts WHERE session_key = 'oc1'")
    assert list(stored) == [(conversation(_jsonl(*TURNS)), "/repo")]
    digests = svc.db.reader().execute("SELECT trigger FROM session_checkpoints WHERE session_key = 'oc1'")
    assert {row[0] for row in digests} == {"explicit"}


def test_a_plain_text_transcript_that_grows_is_summarized_from_where_it_stopped(client, svc):
    # Hermes sends its turns as plain text, one paragraph each.
    text = "\n\n".join(f"{'User' if i % 2 == 0 else 'Assistant'}: {t}" for i, t in enumerate(TURNS))
    part = "\n\n".join(text.split("\n\n")[:6])
    assert hook(client, "session-checkpoint-extract", harness="hermes-agent", sessionKey="h1",
                transcript=part).json()["queued"] is True
    (first,) = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports
    assert hook(client, "session-checkpoint-extract", harness="hermes-agent", sessionKey="h1",
                transcript=text).json()["queued"] is True
    (second,) = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports
    assert (first.turns, second.turns) == (6, 6)
    # A shorter transcript (a harness's trimmed window) does not replace the longer one kept.
    assert hook(client, "session-checkpoint-extract", harness="hermes-agent", sessionKey="h1",
                transcript=part).json()["skipped"] is True
    kept = svc.db.reader().execute("SELECT content FROM session_transcripts WHERE session_key = 'h1'").fetchone()[0]
    assert kept == text


def test_checkpoint_extract_refusals_and_no_ops(client, make_service):
    missing = hook(client, "session-checkpoint-extract", harness="openclaw", transcript=_jsonl(*TURNS))
    assert missing.status_code == 400 and missing.json()["code"] == "missing_session_key"
    assert hook(client, "session-checkpoint-extract", sessionKey="x").json()["code"] == "missing_harness"
    off = client.post("/api/hooks/session-checkpoint-extract", json={"harness": "openclaw", "sessionKey": "x"},
                      headers={"x-signet-no-hooks": "1"})
    assert off.json() == {"skipped": True}
    nothing = hook(client, "session-checkpoint-extract", harness="openclaw", sessionKey="empty").json()
    assert nothing["skipped"] is True and nothing["reason"] == "no transcript"
    hook(client, "session-checkpoint-extract", harness="openclaw", sessionKey="ana-1", agentId="ana",
         transcript=_jsonl(*TURNS))
    theirs = hook(client, "session-checkpoint-extract", harness="openclaw", sessionKey="ana-1", agentId="bob",
                  transcript=_jsonl(*TURNS, "Bob writes over Ana's session transcript here, which he may not do."))
    assert theirs.status_code == 409 and "another agent" in theirs.json()["error"]
    off_pipeline = make_service(memory={"pipelineV2": {"enabled": False}})
    with TestClient(create_app(service=off_pipeline)) as quiet:
        kept = hook(quiet, "session-checkpoint-extract", harness="openclaw", sessionKey="q1",
                    transcript=_jsonl(*TURNS)).json()
    assert kept["skipped"] is True and kept["transcriptSaved"] is True and "pipeline" in kept["reason"]


def test_skill_invocations_are_recorded_once_per_tool_call(client, svc):
    report = {"harness": "opencode", "skillName": "review", "agentId": "named-agent", "sessionId": "ses-1",
              "toolUseId": "call-1", "cwd": "/repo", "args": json.dumps({"name": "review"}), "success": True,
              "origin": "plugin", "runtimePath": "plugin", "latencyMs": 42}
    assert hook(client, "skill-invocation", **report).json() == {"recorded": True, "duplicate": False}
    # The same tool call reported again is the invocation already recorded.
    assert hook(client, "skill-invocation", **report).json() == {"recorded": True, "duplicate": True}
    assert hook(client, "skill-invocation", **{**report, "toolUseId": "call-2", "success": False,
                                               "errorText": "boom"}).json()["duplicate"] is False
    rows = list(svc.db.reader().execute(
        "SELECT agent_id, harness, skill_name, session_key, tool_use_id, success, latency_ms, error_text "
        "FROM skill_invocations ORDER BY id"))
    assert rows == [("named-agent", "opencode", "review", "ses-1", "call-1", 1, 42, None),
                    ("named-agent", "opencode", "review", "ses-1", "call-2", 0, 42, "boom")]
    bad = hook(client, "skill-invocation", harness="opencode", skillName="x", latencyMs="123abc")
    assert bad.status_code == 400
    assert hook(client, "skill-invocation", harness="opencode").json()["code"] == "missing_skill_name"
    assert client.post("/api/hooks/skill-invocation", json=report,
                       headers={"x-signet-no-hooks": "1"}).json() == {"recorded": False}


def test_signet_mcp_command_serves_mcp_on_stdio(svc):
    """The console script pyproject.toml declares runs the stdio server (as pip's wrapper would)."""
    target = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["signet-mcp"]
    module, func = target.split(":")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIGNET_")}
    with LiveServer(create_app(service=svc)) as server:
        env["SIGNET_DAEMON_URL"] = server.url
        wrapper = f"import sys; from {module} import {func}; sys.exit({func}())"
        proc = subprocess.Popen([sys.executable, "-c", wrapper], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=env, cwd=ROOT)
        lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
        try:
            for message in ({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                             "params": {"protocolVersion": "2024-11-05", "capabilities": {},
                                        "clientInfo": {"name": "claude-code", "version": "0"}}},
                            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                                "name": "memory_store", "arguments": {"content": "signet-mcp reaches the API"}}}):
                proc.stdin.write(json.dumps(message).encode() + b"\n")
                proc.stdin.flush()
                reply = json.loads(lines.get(timeout=60))
                assert reply["id"] == message["id"] and "result" in reply, reply
            assert reply["result"]["isError"] is False
        finally:
            proc.stdin.close()
            proc.wait(timeout=30)
    assert proc.returncode == 0, proc.stderr.read().decode()
    assert svc.db.reader().execute("SELECT count(*) FROM memories WHERE content = 'signet-mcp reaches the API'") \
        .fetchone()[0] == 1
