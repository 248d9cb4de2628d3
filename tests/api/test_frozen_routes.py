"""The emergency brake (memory.pipelineV2.mutationsFrozen) on every route of the app: a write
route refuses with 503 `mutations_frozen`; any other route answers and leaves the store as it
was (a digest of every table's rows, the service's own logs and counters aside). Reads that
normally leave traces (session ledger, injected rows, prompt notes, access counts) answer and
record nothing while frozen; a control run shows they do record when not frozen. A route added
without a decision here fails the test."""

from __future__ import annotations

from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.service import MemoryService
from tests.api.store_digest import changed_tables, store_digest
from tests.conftest import remember

REFUSE = "refuse"  # 503 mutations_frozen, the store unchanged
QUIET = "quiet"  # a read: 2xx, the store unchanged
RECORDS = "records"  # a read that records (session rows, access counts) when not frozen: 2xx, nothing recorded

# Routes that may change the store while frozen, each with why. Anything else must be decided in `calls`.
EXEMPT = {
    ("POST", "/api/connectors"): "connector configuration, not memory data (its syncs and cascade deletes refuse)",
    ("DELETE", "/api/connectors/{connector_id}"): "connector configuration (with cascade=true it refuses)",
    ("POST", "/api/repair/{action}"): "queue and index upkeep; its actions that change memories (retention-sweep, "
                                      "clean-orphans, deduplicate) refuse while frozen (test below)",
    ("GET", "/api/logs/stream"): "an endless event stream over the log table: a read",
    ("POST", "/api/repair/re-embed"): "vectors of existing memories (index upkeep, as the other repair actions); "
                                      "its dryRun writes nothing",
}
HARNESS = {"harness": "test-harness"}


def error_code(response) -> str | None:
    """The error's code in either shape: `{"error": {"code"}}`, or the hooks' `{"error", "code"}`."""
    body = response.json()
    return body["error"]["code"] if isinstance(body.get("error"), dict) else body.get("code")


def api_routes(app) -> set[tuple[str, str]]:
    return {(m, r.path) for inc in app.routes if hasattr(inc, "original_router")
            for r in inc.original_router.routes for m in r.methods if m != "HEAD"}


def seed(svc: MemoryService, tmp_path) -> dict[str, str]:
    """A store with something for every route to act on: memories (one deleted), a session with
    injected memories and prompts, a queued document, a connector, entities."""
    with TestClient(create_app(service=svc)) as client:
        kept = remember(client, "Alice deploys the Berlin service on Fridays", tags="ops")
        gone = remember(client, "The old staging box in Paris is retired")
        assert client.delete(f"/api/memory/{gone['id']}", params={"reason": "seed"}).status_code == 200
        assert client.post("/api/hooks/session-start", json={**HARNESS, "sessionKey": "s1",
                                                             "context": "Berlin deploys"}).status_code == 200
        prompt = {**HARNESS, "sessionKey": "s1", "userMessage": "when does Alice deploy"}
        assert client.post("/api/hooks/user-prompt-submit", json=prompt).status_code == 200
        document = client.post("/api/documents", json={"content": "Runbook: restart the Berlin service.",
                                                       "title": "runbook"}).json()
        folder = tmp_path / "notes"
        folder.mkdir()
        connector = client.post("/api/connectors", json={"provider": "filesystem", "displayName": "notes",
                                                         "settings": {"rootPath": str(folder)}}).json()
        entities = client.get("/api/knowledge/entities").json()["entities"]
    svc.access.flush()
    return {"memory_id": kept["id"], "deleted_id": gone["id"], "job_id": str(kept["jobId"]),
            "document_id": document["id"], "connector_id": connector["id"],
            "entity_id": entities[0]["id"] if entities else "no-entity", "session_key": "s1",
            "item_id": kept["id"], "domain": "queue", "action": "check-fts"}


def mcp_call(name: str, arguments: dict) -> dict:
    params = {"name": name, "arguments": arguments}
    return {"json": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}}


def calls(ids: dict[str, str]) -> dict[tuple[str, str], list[tuple[str, str, dict]]]:
    """(method, route) -> [(decision, path, request kwargs)]. GET routes not listed are called
    with their path parameters filled in and must be QUIET."""
    memory, new = ids["memory_id"], {"content": "Bob moved the retro to Thursdays"}
    pin = f"/api/knowledge/entities/{ids['entity_id']}/pin"
    session = {**HARNESS, "sessionKey": "s1"}
    return {
        ("POST", "/api/memory/remember"): [(REFUSE, "/api/memory/remember", {"json": new})],
        ("POST", "/api/memory/save"): [(REFUSE, "/api/memory/save", {"json": new})],
        ("POST", "/api/hook/remember"): [(REFUSE, "/api/hook/remember", {"json": new})],
        ("POST", "/api/hooks/remember"): [(REFUSE, "/api/hooks/remember", {"json": {**HARNESS, **new}})],
        ("POST", "/api/memory/codex-native-note"): [(REFUSE, "/api/memory/codex-native-note", {"json": new})],
        ("PATCH", "/api/memory/{memory_id}"): [(REFUSE, f"/api/memory/{memory}",
                                                {"json": {"reason": "r", "importance": 0.2}})],
        ("DELETE", "/api/memory/{memory_id}"): [(REFUSE, f"/api/memory/{memory}", {"params": {"reason": "r"}})],
        ("POST", "/api/memory/{memory_id}/recover"): [(REFUSE, f"/api/memory/{ids['deleted_id']}/recover",
                                                       {"json": {"reason": "r"}})],
        ("POST", "/api/memory/modify"): [(REFUSE, "/api/memory/modify",
                                          {"json": {"reason": "r", "patches": [{"id": memory, "pinned": True}]}})],
        ("POST", "/api/memory/forget"): [
            (QUIET, "/api/memory/forget", {"json": {"mode": "preview", "ids": [memory]}}),
            (REFUSE, "/api/memory/forget", {"json": {"mode": "execute", "ids": [memory], "reason": "r"}})],
        ("POST", "/api/memory/feedback"): [(REFUSE, "/api/memory/feedback",
                                            {"json": {"memoryId": memory, "feedbackType": "positive"}})],
        ("POST", "/api/memory/recall"): [(RECORDS, "/api/memory/recall",
                                          {"json": {"query": "Alice deploys Berlin", "sessionKey": "s1"}})],
        ("GET", "/api/memory/search"): [(RECORDS, "/api/memory/search",
                                         {"params": {"q": "Berlin", "sessionKey": "s1"}})],
        ("GET", "/memory/similar"): [(QUIET, "/memory/similar", {"params": {"id": memory}})],
        ("POST", "/api/knowledge/entities/{entity_id}/pin"): [(REFUSE, pin, {})],
        ("DELETE", "/api/knowledge/entities/{entity_id}/pin"): [(REFUSE, pin, {})],
        # Graph reads by name (the seeded "Alice deploys the Berlin service" links Berlin, aspect general).
        ("GET", "/api/knowledge/navigation/entity"): [
            (QUIET, "/api/knowledge/navigation/entity", {"params": {"name": "Berlin"}})],
        ("GET", "/api/knowledge/navigation/tree"): [
            (QUIET, "/api/knowledge/navigation/tree", {"params": {"entity": "Berlin"}})],
        ("GET", "/api/knowledge/navigation/aspects"): [
            (QUIET, "/api/knowledge/navigation/aspects", {"params": {"entity": "Berlin"}})],
        ("GET", "/api/knowledge/navigation/groups"): [
            (QUIET, "/api/knowledge/navigation/groups", {"params": {"entity": "Berlin", "aspect": "general"}})],
        ("GET", "/api/knowledge/navigation/claims"): [(QUIET, "/api/knowledge/navigation/claims", {
            "params": {"entity": "Berlin", "aspect": "general", "group": "general"}})],
        ("GET", "/api/knowledge/navigation/attributes"): [(QUIET, "/api/knowledge/navigation/attributes", {
            "params": {"entity": "Berlin", "aspect": "general", "group": "general", "claim": "any"}})],
        ("POST", "/api/knowledge/expand"): [(QUIET, "/api/knowledge/expand", {"json": {"entity": "Berlin"}})],
        ("POST", "/api/knowledge/expand/session"): [
            (QUIET, "/api/knowledge/expand/session", {"json": {"entityName": "Berlin"}})],
        ("POST", "/api/sessions/summaries/expand"): [
            (QUIET, "/api/sessions/summaries/expand", {"json": {"id": memory}})],
        ("POST", "/api/documents"): [(REFUSE, "/api/documents", {"json": {"content": "Another runbook."}})],
        ("DELETE", "/api/documents/{document_id}"): [(REFUSE, f"/api/documents/{ids['document_id']}", {})],
        ("POST", "/api/connectors/{connector_id}/sync"): [(REFUSE, f"/api/connectors/{ids['connector_id']}/sync", {})],
        ("POST", "/api/connectors/{connector_id}/sync/full"): [
            (REFUSE, f"/api/connectors/{ids['connector_id']}/sync/full", {"params": {"confirm": "true"}})],
        ("POST", "/api/hooks/session-start"): [(RECORDS, "/api/hooks/session-start",
                                                {"json": {**HARNESS, "sessionKey": "s2", "context": "Berlin"}})],
        ("POST", "/api/hooks/user-prompt-submit"): [(RECORDS, "/api/hooks/user-prompt-submit",
                                                     {"json": {**session, "userMessage": "who deploys Berlin"}})],
        ("POST", "/api/hooks/recall"): [(RECORDS, "/api/hooks/recall",
                                         {"json": {**session, "query": "Berlin deploys"}})],
        ("POST", "/api/hooks/pre-compaction"): [(RECORDS, "/api/hooks/pre-compaction",
                                                 {"json": {**session, "messageCount": 12}})],
        ("POST", "/api/hooks/compaction-complete"): [(REFUSE, "/api/hooks/compaction-complete",
                                                      {"json": {**session, "summary": "We moved the retro."}})],
        ("POST", "/api/hooks/session-end"): [(REFUSE, "/api/hooks/session-end",
                                              {"json": {**session, "transcript": "user: hi\nassistant: hello"}})],
        ("POST", "/api/hooks/session-checkpoint-extract"): [
            (REFUSE, "/api/hooks/session-checkpoint-extract",
             {"json": {**session, "transcript": "user: the retro moved to Thursdays\n" * 40}})],
        # A skill use is recorded when not frozen; while frozen the answer says recorded: false.
        ("POST", "/api/hooks/skill-invocation"): [(RECORDS, "/api/hooks/skill-invocation",
                                                   {"json": {**session, "skillName": "review", "toolUseId": "t1"}})],
        # The adapter's health is kept in the service's memory, not in the store.
        ("POST", "/api/diagnostics/openclaw/heartbeat"): [(QUIET, "/api/diagnostics/openclaw/heartbeat",
                                                           {"json": {"pluginVersion": "1.0"}})],
        ("POST", "/api/agents"): [(REFUSE, "/api/agents", {"json": {"name": "zed"}})],
        ("DELETE", "/api/agents/{name}"): [(REFUSE, "/api/agents/default", {"params": {"purge": "true"}})],
        ("GET", "/api/agents/{name}"): [(QUIET, "/api/agents/default", {})],
        ("POST", "/api/hooks/synthesis"): [(QUIET, "/api/hooks/synthesis", {"json": {}})],
        ("POST", "/api/sessions/{session_key}/bypass"): [
            (REFUSE, "/api/sessions/s1/bypass", {"json": {"enabled": True}})],
        ("POST", "/api/sessions/search"): [(QUIET, "/api/sessions/search", {"json": {"query": "Berlin deploys"}})],
        ("POST", "/api/hooks/synthesis/complete"): [(REFUSE, "/api/hooks/synthesis/complete",
                                                     {"json": {"content": "# Memory\n- Alice deploys on Fridays"}})],
        ("POST", "/api/auth/token"): [(QUIET, "/api/auth/token", {"json": {"sub": "bot", "role": "agent"}})],
        # Tool calls are REST calls in-process: a write tool's call fails, a search records nothing.
        ("POST", "/mcp"): [(QUIET, "/mcp", mcp_call("memory_store", new)),
                           (RECORDS, "/mcp", mcp_call("memory_search", {"query": "Berlin deploys"}))],
    }


def _check(client: TestClient, svc: MemoryService, route, decision: str, path: str, kwargs: dict,
           before: dict[str, str]) -> tuple[str | None, dict[str, str]]:
    """(what is wrong or None, the digest after the call)."""
    response = client.request(route[0], path, **kwargs)
    after = store_digest(svc)
    changed = changed_tables(before, after)
    if decision == REFUSE:
        good = response.status_code == 503 and error_code(response) == "mutations_frozen" and not changed
    else:
        good = 200 <= response.status_code < 300 and not changed
    return (None if good else f"{route} {decision}: {response.status_code} changed={changed} "
                              f"{response.text[:200]}"), after


def test_every_route_respects_mutations_frozen(make_service, tmp_path):
    roots = {"allowedRoots": [str(tmp_path)]}  # the seeded connector reads tmp_path/notes
    live = make_service(connectors=roots)
    ids = seed(live, tmp_path)
    # Telemetry on: its routes answer (its events are the service's bookkeeping).
    frozen = make_service(memory={"pipelineV2": {"mutationsFrozen": True, "telemetryEnabled": True}}, connectors=roots)
    table = calls(ids)
    with TestClient(create_app(service=frozen)) as client:
        routes = api_routes(client.app)
        undecided = sorted(r for r in routes - EXEMPT.keys() if r[0] != "GET" and r not in table)
        assert not undecided, (f"routes without a mutationsFrozen decision (tests/api/test_frozen_routes.py): "
                               f"{undecided}")
        assert EXEMPT.keys() <= routes and table.keys() <= routes  # no stale entries
        failures = []
        before = store_digest(frozen)
        for route in sorted(routes - EXEMPT.keys()):
            for decision, path, kwargs in table.get(route) or [(QUIET, route[1].format_map(ids), {})]:
                problem, before = _check(client, frozen, route, decision, path, kwargs, before)
                if problem:
                    failures.append(problem)
        assert not failures, "\n".join(failures)
        refused = client.post("/mcp", **mcp_call("memory_store", {"content": "Carol owns the pager"})).json()
        assert refused["result"]["isError"] and "mutations_frozen" in refused["result"]["content"][0]["text"]
    # The control: each read that records nothing while frozen does record when not frozen.
    with TestClient(create_app(service=live)) as client:
        before = store_digest(live)
        for route, entries in table.items():
            for decision, path, kwargs in entries:
                if decision == RECORDS:
                    client.request(route[0], path, **kwargs).raise_for_status()
                    after = store_digest(live)
                    assert changed_tables(before, after), f"{route} {path} recorded nothing when not frozen"
                    before = after
