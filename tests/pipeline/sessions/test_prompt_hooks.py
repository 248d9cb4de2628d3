"""user-prompt-submit, pre-compaction, compaction-complete and the harness remember/recall hooks
through HTTP, with the wire contract's field names."""

from tests.conftest import remember


def hook(client, name, **body):
    return client.post(f"/api/hooks/{name}", json=body)


def test_user_prompt_submit_injects_what_the_session_does_not_hold(client):
    tea = remember(client, "Priya drinks green tea every morning")
    remember(client, "The staging cluster runs on Kubernetes 1.29", project="/repo/infra")  # another project's
    start = hook(client, "session-start", harness="claude-code", sessionKey="s1", project="/repo/app",
                 context="green tea").json()
    assert tea["id"] in {m["id"] for m in start["memories"]}
    first = hook(client, "user-prompt-submit", harness="claude-code", sessionKey="s1",
                 userMessage="which kubernetes version does the staging cluster run?").json()
    assert first["inject"].startswith("[signet memory]") and "Kubernetes 1.29" in first["inject"]
    assert tea["id"] not in {m["id"] for m in first["memories"]}  # already injected at session start
    again = hook(client, "user-prompt-submit", harness="claude-code", sessionKey="s1",
                 userPrompt="and the staging kubernetes version again?").json()
    assert (again["inject"], again["memories"], again["memoryCount"]) == ("", [], 0)  # nothing new for this session
    other = hook(client, "user-prompt-submit", harness="claude-code", sessionKey="s2",
                 userPrompt="staging kubernetes version?").json()
    assert "Kubernetes 1.29" in other["inject"]  # another session gets it


def test_user_prompt_submit_skips_trivial_prompts_and_needs_a_harness(client):
    remember(client, "ok fine")
    assert hook(client, "user-prompt-submit", harness="codex", userMessage="ok").json()["inject"] == ""
    missing = hook(client, "user-prompt-submit", userMessage="what do we know about staging?")
    assert missing.status_code == 400 and missing.json() == {"error": "harness is required", "code": "missing_harness"}
    off = client.post("/api/hooks/user-prompt-submit", json={"userMessage": "x y"}, headers={"x-signet-no-hooks": "1"})
    assert off.json() == {"inject": "", "memories": [], "memoryCount": 0}


def test_compaction_round_trip_keeps_the_summary(client):
    prompt = hook(client, "pre-compaction", harness="claude-code", messageCount=42, sessionKey="s9").json()
    assert "42 messages" in prompt["summaryPrompt"] and prompt["guidelines"] == prompt["summaryPrompt"]
    done = hook(client, "compaction-complete", harness="claude-code", sessionKey="s9", project="signet",
                summary="We decided to ship hints on by default after the LoCoMo eval.").json()
    assert done["success"] is True
    memory = client.get(f"/api/memory/{done['memoryId']}").json()
    assert (memory["type"], memory["who"], memory["project"]) == ("session_summary", "claude-code", "signet")
    empty = hook(client, "compaction-complete", harness="claude-code", summary="  ")
    assert empty.status_code == 400 and empty.json()["code"] == "missing_summary"
    assert empty.json()["error"] == "summary is required"


def test_harness_remember_and_recall(client):
    saved = hook(client, "remember", harness="opencode", content="The release train leaves on Thursdays")
    assert saved.status_code == 200 and saved.json()["id"] == saved.json()["memoryId"]
    found = hook(client, "recall", harness="opencode", query="when does the release train leave").json()
    assert found["results"][0]["id"] == saved.json()["id"]
    assert hook(client, "recall", query="release").status_code == 400


def test_what_did_not_fit_the_budget_stays_available(make_service):
    from fastapi.testclient import TestClient

    from signet_api.app import create_app

    svc = make_service(hooks={"promptBudgetChars": 110})  # room for the header and one of the two
    with TestClient(create_app(service=svc)) as client:
        a = remember(client, "The staging cluster runs Kubernetes 1.29 on three nodes in the Frankfurt "
                             "data centre now")["id"]
        b = remember(client, "The staging cluster Kubernetes upgrade to 1.30 is planned for May after the "
                             "freeze ends")["id"]
        body = {"harness": "claude-code", "sessionKey": "b1", "userMessage": "staging cluster kubernetes version"}
        first = hook(client, "user-prompt-submit", **body).json()["memories"]
        second = hook(client, "user-prompt-submit", **body).json()["memories"]
    assert len(first) == 1 and len(second) == 1 and {first[0]["id"], second[0]["id"]} == {a, b}


def test_no_hooks_header_makes_every_hook_a_no_op(client):
    off = {"x-signet-no-hooks": "1"}
    remembered = client.post("/api/hooks/remember", json={"harness": "h", "content": "Spawned agents must not write"},
                             headers=off)
    assert remembered.json() == {"success": True, "memories": []}
    recalled = client.post("/api/hooks/recall", json={"harness": "h", "query": "anything"}, headers=off).json()
    assert recalled["results"] == [] and recalled["meta"]["noHits"] is True
    compacting = client.post("/api/hooks/pre-compaction", json={"harness": "h", "sessionKey": "k"}, headers=off).json()
    assert compacting == {"summaryPrompt": "", "guidelines": ""}
    assert client.get("/api/memories").json()["memories"] == []
    assert client.get("/api/checkpoints/k").json()["checkpoints"] == []
    # Answered before the body is read: even a body that would fail validation gets the no-op.
    assert client.post("/api/hooks/recall", json={}, headers=off).status_code == 200
    assert client.post("/api/hooks/session-start", json={"harness": 5}, headers=off).json() == \
        {"inject": "", "memories": []}


def test_session_start_brings_back_where_the_last_session_left_off(client):
    client.post("/api/hooks/compaction-complete", json={"harness": "h", "sessionKey": "old", "project": "/repo/a",
                                                        "summary": "We migrated the billing tables; next: the API."})
    client.post("/api/hooks/compaction-complete", json={"harness": "h", "sessionKey": "x", "project": "/repo/b",
                                                        "summary": "Unrelated project work."})
    started = client.post("/api/hooks/session-start", json={"harness": "h", "project": "/repo/a"}).json()
    assert started["recentContext"] == "We migrated the billing tables; next: the API."
    assert "recentContext" not in client.post("/api/hooks/session-start", json={"harness": "h", "project": "/c"}).json()
    other = client.post("/api/hooks/session-start", json={"harness": "h", "project": "/repo/a", "agentId": "bob"})
    assert "recentContext" not in other.json()  # alice's... the default agent's session is not where bob left off
    long_project = client.post("/api/hooks/compaction-complete", json={"harness": "h", "summary": "s",
                                                                       "project": "p" * 600})
    assert long_project.status_code == 400 and long_project.json()["code"] == "invalid_request"
    assert client.post("/api/memory/recall", json={"query": "zebra"}).json()["message"] == "No matching memories found."


def test_the_context_hooks_answer_without_recall_when_its_search_times_out(client, monkeypatch):
    from signet_pipeline.errors import QueryTimeout
    from signet_pipeline.sessions import hooks

    remember(client, "critical: [ops]: deploys freeze on Fridays", pinned=True)

    def too_slow(*_args, **_kwargs):
        raise QueryTimeout("the query ran past its 5 s time limit and was stopped")

    monkeypatch.setattr(hooks, "recall_memories", too_slow)
    start = client.post("/api/hooks/session-start", json={"harness": "claude-code", "project": "deploys freeze"})
    assert start.status_code == 200 and "deploys freeze on Fridays" in start.json()["inject"]  # the pinned part
    prompt = client.post("/api/hooks/user-prompt-submit",
                         json={"harness": "claude-code", "userMessage": "when do deploys freeze this week?"})
    assert prompt.status_code == 200 and prompt.json()["inject"] == ""
