"""Identity in team mode: an agent token's memories are authored by its subject (`who` and the
history), a readonly token reads without leaving a trace, and the forget preview lists only
what its execute may delete."""

from __future__ import annotations

from tests.api.store_digest import changed_tables, store_digest


def saved(client, headers, content, **fields) -> dict:
    response = client.post("/api/memory/remember", json={"content": content, **fields}, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def test_an_agent_token_authors_as_its_subject_whatever_who_says(team):
    client, token = team
    bot, admin = token("agent", sub="bot"), token("admin", sub="importer")
    forged = saved(client, bot, "Bob approved the release freeze", who="bob")
    stored = client.get(f"/api/memory/{forged['id']}", headers=admin).json()
    assert stored["who"] == "bot"  # an agent token cannot attribute its memory to someone else
    history = client.get(f"/api/memory/{forged['id']}/history", headers=admin).json()["history"]
    assert history[0]["changedBy"] == "bot"
    # An admin (an import on someone's behalf) keeps `who` as given; the history names the token.
    imported = saved(client, admin, "Alice prefers morning standups", who="alice")
    assert client.get(f"/api/memory/{imported['id']}", headers=admin).json()["who"] == "alice"
    history = client.get(f"/api/memory/{imported['id']}/history", headers=admin).json()["history"]
    assert history[0]["changedBy"] == "importer"
    # The recall filter by author finds the subject, not the claimed name.
    for who, hits in (("bob", []), ("bot", [forged["id"]])):
        found = client.post("/api/memory/recall", json={"query": "release freeze", "who": who}, headers=admin).json()
        assert [h["id"] for h in found["results"]] == hits


def test_a_readonly_token_reads_and_records_nothing(team):
    client, token = team
    agent, viewer = token("agent", sub="ci", agent="ci"), token("readonly", sub="viewer", agent="ci")
    hook = {"harness": "test-harness", "sessionKey": "s1"}
    started = client.post("/api/hooks/session-start", json={**hook, "context": "CI cache"}, headers=agent)
    assert started.status_code == 200  # the agent's session, which its readonly viewer follows
    memory = saved(client, agent, "The CI cache lives in the eu-west bucket")
    svc = client.app.state.service
    before = store_digest(svc)
    session = {**viewer, "x-signet-session-key": "s1"}
    recalled = client.post("/api/memory/recall", json={"query": "where is the CI cache"}, headers=session)
    assert recalled.status_code == 200 and memory["id"] in [h["id"] for h in recalled.json()["results"]]
    searched = client.get("/api/memory/search", params={"q": "CI cache bucket", "sessionKey": "s1"}, headers=viewer)
    assert searched.status_code == 200 and searched.json()["results"]
    hooked = client.post("/api/hooks/recall", json={**hook, "query": "CI cache bucket"}, headers=viewer)
    assert hooked.status_code == 200 and hooked.json()["results"]
    question = {**hook, "userMessage": "which bucket holds the CI cache"}
    prompt = client.post("/api/hooks/user-prompt-submit", json=question, headers=viewer)
    assert prompt.status_code == 200 and memory["id"] in [m["id"] for m in prompt.json()["memories"]]
    assert changed_tables(before, store_digest(svc)) == []
    # The same prompt from the agent's own token is recorded (the session's ledger, its prompt count).
    client.post("/api/hooks/user-prompt-submit", json=question, headers=agent).raise_for_status()
    assert changed_tables(before, store_digest(svc))


def test_the_forget_preview_lists_only_what_the_caller_may_forget(team):
    client, token = team
    admin, bot = token("admin"), token("agent", sub="bot")
    # agent `default`, global: the bot reads it, but may not forget it
    shared = saved(client, admin, "The pager rota lives in the ops wiki", tags="pager")
    own = saved(client, bot, "The pager rota reminder runs at nine", tags="pager")
    for body in ({"query": "pager rota"}, {"ids": [shared["id"], own["id"]]}, {"tags": ["pager"]}):
        preview = client.post("/api/memory/forget", json={"mode": "preview", **body}, headers=bot).json()
        assert [c["id"] for c in preview["candidates"]] == [own["id"]], body
    by_ids = client.post("/api/memory/forget", json={"mode": "preview", "ids": [shared["id"], own["id"]]},
                         headers=bot).json()
    assert by_ids["denied"] == [shared["id"]] and "notFound" not in by_ids
    done = client.post("/api/memory/forget", json={"mode": "execute", "ids": [shared["id"], own["id"]], "reason": "x",
                                                   "confirm_token": by_ids["confirmToken"]}, headers=bot).json()
    assert {r["id"]: r["status"] for r in done["results"]} == {shared["id"]: "scope_denied", own["id"]: "deleted"}
    # A project-scoped token: only its project's memories.
    beta = saved(client, admin, "Beta's pager rota is in the beta wiki", project="beta")
    alpha = saved(client, admin, "Alpha's pager rota is in the alpha wiki", project="alpha")
    scoped = token("operator", sub="alpha-ops", project="alpha")
    preview = client.post("/api/memory/forget", json={"mode": "preview", "query": "pager rota wiki"},
                          headers=scoped).json()
    assert [c["id"] for c in preview["candidates"]] == [alpha["id"]] and beta["id"] != alpha["id"]
