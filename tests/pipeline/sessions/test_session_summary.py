"""Session summaries: session-end queues a job for the stored transcript; the job turns the
conversation into session_summary memories (rules provider offline, an OpenAI-compatible model
through a fake server), which then enter extraction like any other memory."""

from __future__ import annotations

import json

import dagster as dg
import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.defs.resources import LlmResource, SignetStoreResource
from signet_pipeline.defs.sessions.assets import session_summaries
from signet_pipeline.defs.sessions.sensors import session_jobs_sensor
from signet_pipeline.providers.llm.http import OpenAICompatibleLlm
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.stages.session_summary import parse_statements, run_session_jobs
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.queue import EXTRACT, SESSION_SUMMARY, JobQueue
from signet_pipeline.text.transcripts import Turn, compaction_summary, conversation, newest, turns, windows
from tests.conftest import recall
from tests.fakes import FakeServer
from tests.pipeline.sessions.session_end import end, line, openai, user_turns

CLAUDE_CODE = "\n".join([
    json.dumps({"type": "summary", "summary": "Deploy setup"}),
    line("user", "user", "<system-reminder>You are in plan mode.</system-reminder>We deploy the billing service "
                         "with Helm on the staging cluster."),
    line("assistant", "assistant", [{"type": "thinking", "thinking": "the user wants helm"},
                                    {"type": "text", "text": "Let me look at the chart."},
                                    {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]),
    line("user", "user", [{"type": "tool_result", "tool_use_id": "t1", "content": "Chart.yaml values.yaml"}]),
    line("user", "user", "I prefer blue-green deploys over rolling updates."),
    line("assistant", "assistant", [{"type": "text", "text": "We decided to pin the chart version to 4.2."}]),
])

CODEX = "\n".join(json.dumps(e) for e in [
    {"type": "session_meta", "payload": {"id": "s1", "cwd": "/repo"}},
    {"type": "response_item", "payload": {"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": "<environment_context>cwd /repo</environment_context>"}]}},
    {"type": "response_item", "payload": {"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": "The integration tests need Docker running."}]}},
    {"type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{}"}},
    {"type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [
        {"type": "output_text", "text": "Understood."}]}},
])


def test_harness_transcripts_become_user_and_assistant_turns():
    assert turns(CLAUDE_CODE) == [
        Turn("User", "We deploy the billing service with Helm on the staging cluster."),
        Turn("Assistant", "Let me look at the chart."),
        Turn("User", "I prefer blue-green deploys over rolling updates."),
        Turn("Assistant", "We decided to pin the chart version to 4.2."),
    ]
    assert turns(CODEX) == [Turn("User", "The integration tests need Docker running."),
                            Turn("Assistant", "Understood.")]
    array = json.dumps([{"role": "user", "content": "hello there"}, {"role": "system", "content": "rules"}])
    assert turns(array) == [Turn("User", "hello there")]
    assert turns("user: plain text\nassistant: stays text") == [Turn("", "user: plain text\nassistant: stays text")]
    assert turns("  \n ") == []
    torn = CODEX + '\n{"type": "response_item", "payl'  # a file cut mid-write is still JSON lines
    assert len(turns(torn)) == 2


def test_windows_pack_whole_turns_and_cut_only_oversized_text():
    conversation = [Turn("User", "a" * 300), Turn("Assistant", "b" * 300), Turn("User", "c" * 300)]
    packed = windows(conversation, 700)
    assert packed == [f"User: {'a' * 300}\n\nAssistant: {'b' * 300}", f"User: {'c' * 300}"]
    big = windows([Turn("", "\n".join(["line " * 30] * 40))], 500)
    assert len(big) > 1 and all(len(w) <= 500 for w in big)
    assert sum(w.count("line") for w in big) == 30 * 40  # nothing lost


@pytest.mark.parametrize("reply, accepted, warned", [
    ('{"statements": ["- The team deploys with Helm.", "The team deploys with Helm!", "short"]}',
     ["The team deploys with Helm."], ["length out of range"]),
    ('{"summary": "1. Ana owns the billing service.\\n2. Return ONLY a JSON object please"}',
     ["Ana owns the billing service."], ["echoes the prompt"]),
    ('{"facts": [{"content": "The staging cluster runs Kubernetes 1.29."}, 7]}',
     ["The staging cluster runs Kubernetes 1.29."], ["not a string"]),
    ("no json at all", [], ["no list of statements"]),
])
def test_summary_replies_are_validated(reply, accepted, warned):
    statements, warnings = parse_statements(reply)
    assert statements == accepted
    assert all(any(w in text for text in warnings) for w in warned)


def test_session_end_queues_one_summary_and_the_job_writes_memories(client, svc):
    client.post("/api/hooks/session-start", json={"harness": "claude-code", "sessionKey": "s-1", "project": "/repo/x"})
    ended = end(client, "s-1", CLAUDE_CODE)
    assert ended["queued"] is True and ended["memoriesSaved"] == 0 and ended["transcriptSaved"] is True
    assert end(client, "s-1", CLAUDE_CODE)["queued"] is False  # same transcript again: nothing new to summarize

    batch = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10)
    (report,) = batch.reports
    assert report.windows == 1 and len(report.memory_ids) == 1 and not batch.failed
    job = client.get(f"/api/memory/jobs/{ended['jobId']}").json()
    assert job["status"] == "completed" and job["sessionKey"] == "s-1" and job["result"]["memoriesSaved"] == 1

    memory = client.get(f"/api/memory/{report.memory_ids[0]}").json()
    assert memory["type"] == "session_summary" and memory["source_type"] == "session_end"
    assert memory["source_id"] == "s-1" and memory["project"] == "/repo/x" and memory["who"] == "claude-code"
    # The user's statements and the announced decision; not the assistant's process, tools or reminders.
    assert memory["content"] == ("We deploy the billing service with Helm on the staging cluster. "
                                 "I prefer blue-green deploys over rolling updates. "
                                 "We decided to pin the chart version to 4.2.")
    hit = recall(client, "blue-green deploys", expand=True)["results"][0]
    # kept as its conversation: the turns, not the harness's records
    assert hit["id"] == memory["id"] and hit["transcript"] == conversation(CLAUDE_CODE)
    assert hit["transcript"].startswith("User: We deploy the billing service") and "tool_use" not in hit["transcript"]
    # The summary enters extraction like any other memory.
    assert job_store.counts_by_type(svc.db.reader())[EXTRACT].get("pending", 0) >= 1


def test_a_changed_transcript_is_summarized_again_and_repeats_dedupe(client, svc):
    end(client, "s-2", "user: The VPN config lives in the ops repository.")
    run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10)
    longer = "user: The VPN config lives in the ops repository.\nuser: Ana rotates the VPN keys every month."
    assert end(client, "s-2", longer)["queued"] is True
    (report,) = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports
    assert report.statements == 2 and len(report.memory_ids) == 1


def test_other_agents_cannot_overwrite_a_transcript_or_see_its_summary(client, svc):
    end(client, "s-3", "user: Ana keeps the signing keys in the hardware vault.", agentId="ana")
    bob = client.post("/api/hooks/session-end", json={"harness": "claude-code", "sessionKey": "s-3", "agentId": "bob",
                                                       "transcript": "user: Bob replaced this transcript."})
    assert bob.status_code == 409 and bob.json()["code"] == "session_taken"
    (report,) = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports
    summary = client.get(f"/api/memory/{report.memory_ids[0]}", params={"agentId": "ana"}).json()
    assert "hardware vault" in summary["content"] and summary["agent_id"] == "ana"


def test_secrets_in_a_transcript_reach_neither_the_model_nor_a_memory(client, svc):
    end(client, "s-7", "user: The deploy token for the staging cluster is sk-live1234567890abcdefXYZ now.")
    with FakeServer(openai(["The staging deploy token is sk-live1234567890abcdefXYZ."])) as server:
        (report,) = run_session_jobs(svc, JobQueue(svc.db), OpenAICompatibleLlm(base_url=server.url, model="m"),
                                     10).reports
    prompt = server.requests[-1][1]["messages"][-1]["content"]
    assert "staging cluster" in prompt and "sk-live1234567890" not in prompt
    content = client.get(f"/api/memory/{report.memory_ids[0]}").json()["content"]
    assert content.startswith("The staging deploy token is") and "sk-live1234567890" not in content


def test_pipeline_off_keeps_the_transcript_without_a_job(make_service):
    svc = make_service(memory={"pipelineV2": {"enabled": False}})
    with TestClient(create_app(service=svc)) as client:
        ended = end(client, "s-4", "user: The backups run at 02:00 UTC.")
    assert ended["transcriptSaved"] is True and ended["queued"] is False


def test_a_model_summarizes_window_by_window_and_a_failure_writes_nothing(client, svc):
    long = "\n".join(line("user", "user", f"Turn {i}: " + "details " * 400) for i in range(6))
    end(client, "s-5", long)
    with FakeServer(openai(None, status=503)) as server:
        failed = run_session_jobs(svc, JobQueue(svc.db), OpenAICompatibleLlm(base_url=server.url, model="m"), 10)
    assert len(failed.failed) == 1 and failed.reports == []
    assert job_store.counts_by_type(svc.db.reader())[SESSION_SUMMARY].get("pending") == 1  # retried later

    with svc.db.write() as conn:  # due at once (the failure's backoff would hold it back)
        conn.execute("UPDATE memory_jobs SET not_before = NULL")
    with FakeServer(openai(["The team reviews the details every Monday morning."])) as server:
        batch = run_session_jobs(svc, JobQueue(svc.db), OpenAICompatibleLlm(base_url=server.url, model="m"), 10)
    (report,) = batch.reports
    prompts = [body["messages"][-1]["content"] for _, body, _ in server.requests if "messages" in body]
    assert report.windows == len(prompts) >= 2
    assert "part 1 of" in prompts[0] and "in claude-code" in prompts[0] and "User: Turn 0:" in prompts[0]
    assert len(report.memory_ids) == 1 and report.deduped == report.windows - 1  # the same statement each window


def test_sensor_and_asset_summarize_sessions(client, svc, workspace):
    end(client, "s-6", CODEX)
    signet = SignetStoreResource(workspace=str(workspace))
    with dg.instance_for_test() as instance, dg.build_sensor_context(instance=instance,
                                                                     resources={"signet": signet}) as ctx:
        result = session_jobs_sensor(ctx)
    assert len(result.run_requests) == 1 and result.run_requests[0].run_key.startswith("session-summary-")
    done = dg.materialize([session_summaries], resources={"signet": signet, "llm": LlmResource()},
                          run_config=result.run_requests[0].run_config)
    meta = done.get_asset_materialization_events()[0].event_specific_data.materialization.metadata
    assert meta["sessions"].value == 1 and meta["memories_written"].value == 1 and meta["failures"].value == 0
    assert "s-6" in meta["sessions_table"].value


def test_remember_keeps_a_transcript_sent_along_under_its_source_id(client):
    transcript = "user: the load balancer drains for 30 seconds before a deploy"
    saved = client.post("/api/memory/remember", json={
        "content": "The load balancer drains for 30 seconds before a deploy", "sourceId": "conn-9",
        "transcript": transcript}).json()
    hit = recall(client, "load balancer drain", expand=True)["results"][0]
    assert hit["id"] == saved["id"] and hit["transcript"] == transcript
    without_key = client.post("/api/memory/remember", json={"content": "Staging drains in 5 seconds",
                                                            "transcript": "user: nothing to file this under"})
    assert without_key.status_code == 200  # no session key: the memory is kept, the transcript is not


def test_wrapper_removal_stays_linear_on_unclosed_tags():
    hostile = "\n".join(json.dumps({"role": "user", "content": "<system-reminder>x" * 1000 + " end"})
                        for _ in range(300))
    parsed = turns(hostile)  # a lazy-regex strip took ~13 s on this; the linear one well under 1 s
    assert len(parsed) == 300 and parsed[0].text.endswith("[...]")
    assert turns(json.dumps([{"role": "user",
                              "content": "a<system-reminder>b</system-reminder>c<system-reminder>d"}])) \
        == [Turn("User", "ac<system-reminder>d")]


def test_a_grown_transcript_is_summarized_from_where_the_last_summary_stopped(client, svc):
    first = user_turns("Ana keeps the signing keys in the hardware vault.")
    end(client, "s-8", first)
    (report,) = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports
    assert client.delete(f"/api/memory/{report.memory_ids[0]}", params={"reason": "wrong"}).status_code == 200
    # The session resumes and ends again: only the new turn is read; the forgotten summary stays gone.
    end(client, "s-8", user_turns("Ana keeps the signing keys in the hardware vault.",
                                  "The release train leaves on Fridays."))
    (again,) = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports
    assert again.turns == 1 and len(again.memory_ids) == 1
    assert client.get(f"/api/memory/{again.memory_ids[0]}").json()["content"] == "The release train leaves on Fridays."
    # A rewritten transcript (its first turn changed) is read from the start.
    end(client, "s-8", user_turns("Bob keeps the signing keys now.", "The release train leaves on Fridays."))
    (rewritten,) = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10).reports
    assert rewritten.turns == 2


def test_a_session_end_during_a_running_summary_queues_the_next_one(client, svc):
    first = end(client, "s-9", user_turns("The VPN config lives in the ops repository."))
    queue = JobQueue(svc.db)
    (leased,) = queue.lease([SESSION_SUMMARY])  # a run has started on the first transcript
    second = end(client, "s-9", user_turns("The VPN config lives in the ops repository.", "Ana rotates the VPN keys."))
    assert second["queued"] is True and second["jobId"] != first["jobId"] == leased["id"]
    third = end(client, "s-9", user_turns("The VPN config lives in the ops repository.", "Ana rotates the VPN keys.",
                                          "Keys rotate monthly."))
    assert third["jobId"] == second["jobId"]  # still pending: it will read the newest transcript


def test_a_lost_lease_writes_nothing_and_leaves_the_job_to_its_new_holder(client, svc):
    end(client, "s-10", user_turns("Turn one: " + "details " * 1200, "Turn two: " + "details " * 1200))

    def reaped_meanwhile(path, body):  # another worker reaps and re-leases the job while we wait on the model
        with svc.db.write() as conn:
            conn.execute("UPDATE memory_jobs SET lease_owner = 'another-run', attempts = attempts + 1")
        return openai(["The team reviews the details every Monday morning."])(path, body)

    with FakeServer(reaped_meanwhile) as server:
        batch = run_session_jobs(svc, JobQueue(svc.db), OpenAICompatibleLlm(base_url=server.url, model="m"), 10)
    assert batch.reports == [] and "lease" in batch.failed[0]
    assert job_store.counts_by_type(svc.db.reader())[SESSION_SUMMARY] == {"leased": 1}
    assert client.get("/api/memories", params={"type": "session_summary"}).json()["memories"] == []


def test_bad_input_fails_its_job_cleanly_and_the_batch_goes_on(client, svc):
    client.post("/api/hooks/session-start", json={"harness": "h", "sessionKey": "s-11", "project": "p" * 600})
    long_project = end(client, "s-11", "user: The staging cluster runs Kubernetes 1.29.", cwd="/" + "c" * 600)
    nested = end(client, "s-12", "[" * 100_000 + "]" * 100_000)
    plain = end(client, "s-13", "user: The backups run at 02:00 UTC every night.")
    assert all(r["queued"] for r in (long_project, nested, plain))
    batch = run_session_jobs(svc, JobQueue(svc.db), RulesLlm(), 10)
    assert not batch.failed and len(batch.reports) == 3
    assert job_store.counts_by_type(svc.db.reader())[SESSION_SUMMARY] == {"completed": 3}
    too_long = client.post("/api/hooks/session-end", json={"harness": "h", "sessionKey": "s-14", "project": "p" * 501})
    assert too_long.status_code == 400 and too_long.json()["code"] == "invalid_request"  # hooks: 400, message text


def test_transcript_ownership_and_job_status_stay_with_the_agent(client, svc):
    mine = end(client, "s-15", "user: Ana keeps the vault keys.", agentId="ana")
    stolen = client.post("/api/hooks/session-end", json={"harness": "claude-code", "sessionKey": "s-15",
                                                          "agentId": "bob", "transcript": "user: Bob was here."})
    assert mine["transcriptSaved"] is True and stolen.status_code == 409
    # remember's transcript never replaces session-end's (spec: insert or ignore)
    client.post("/api/memory/remember", json={"content": "Ana keeps the vault keys safe", "agentId": "ana",
                                              "sourceId": "s-15", "transcript": "partial"})
    assert recall(client, "vault keys", agentId="ana", expand=True)["results"][0]["transcript"] == \
        "user: Ana keeps the vault keys."
    job = f"/api/memory/jobs/{mine['jobId']}"
    assert client.get(job, params={"agentId": "ana"}).status_code == 200
    assert client.get(job, params={"agentId": "bob"}).json()["error"]["code"] == "not_found"


def test_a_transcript_is_kept_as_its_conversation():
    rollout = "\n".join(json.dumps(e) for e in [
        {"type": "session_meta", "payload": {"id": "x", "cwd": "/repo"}},
        {"type": "response_item", "payload": {"type": "message", "role": "developer", "content": [
            {"type": "input_text", "text": "<permissions instructions>sandboxed</permissions instructions>"}]}},
        {"type": "response_item", "payload": {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "<environment_context><cwd>/repo</cwd></environment_context>"}]}},
        {"type": "event_msg", "payload": {"type": "user_message", "message": "Rotate the VPN keys monthly."}},
        {"type": "response_item", "payload": {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Rotate the VPN keys monthly."}]}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{}"}},
        {"type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Noted: monthly."}]}},
        {"type": "compacted", "payload": {"message": "The user rotates VPN keys monthly."}},
    ])
    assert conversation(rollout) == "User: Rotate the VPN keys monthly.\n\nAssistant: Noted: monthly."
    assert compaction_summary(rollout) == "The user rotates VPN keys monthly."
    assert compaction_summary(CLAUDE_CODE) is None
    for kept_as_is in ("user: plain text stays text", '{"type": "other"}\n{"type": "unknown"}', ""):
        assert conversation(kept_as_is) == kept_as_is
    # a lone surrogate escaped in the JSON (a half emoji) is no text: it is kept as U+FFFD
    half = '{"type": "user", "message": {"role": "user", "content": "cut \\ud83d here"}}'
    assert conversation(half) == "User: cut \ufffd here"
    long = "\n\n".join(f"User: turn {i}" for i in range(100))
    assert newest(long, 43) == newest(long, 50) == "User: turn 97\n\nUser: turn 98\n\nUser: turn 99"
    assert newest(long, 42) == "User: turn 98\n\nUser: turn 99" and newest("abc", 2) == "bc"
