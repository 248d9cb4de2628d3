"""Auth: signed tokens (forgery, expiry, malformed), the secret file, modes local/team/hybrid
through HTTP, the role matrix, scopes, identity from the token, rate limits."""

import os
import stat

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from signet_api import route_props
from signet_api.app import create_app
from signet_api.auth import AuthorizedRoute
from signet_pipeline.auth.policy import ROLE_PERMISSIONS, SlidingWindow
from signet_pipeline.auth.tokens import TokenScope, issue, load_or_create_secret, verify
from signet_pipeline.config import load_settings
from signet_pipeline.errors import SignetError, Unauthorized

SECRET = b"k" * 32


def test_a_token_verifies_and_tampering_is_caught():
    token, claims = issue(SECRET, sub="ci-bot", role="agent", scope=TokenScope(agent="ci"), ttl_s=60, now=1000)
    assert verify(SECRET, token, now=1001) == claims and claims.exp == 1060
    payload, signature = token.split(".")
    forged, _ = issue(SECRET, sub="ci-bot", role="admin", ttl_s=60, now=1000)
    cases = {
        "token_invalid": [f"{forged.split('.')[0]}.{signature}", f"{payload}.{signature[:-2]}xx",
                          issue(b"x" * 32, sub="ci-bot", role="agent", ttl_s=60, now=1000)[0]],
        "token_malformed": ["", "no-dot", f"{payload}.", ".sig"],
    }
    for code, tokens in cases.items():
        for bad in tokens:
            with pytest.raises(Unauthorized) as exc:
                verify(SECRET, bad, now=1001)
            assert exc.value.code == code, bad
    with pytest.raises(Unauthorized) as expired:
        verify(SECRET, token, now=1060)
    assert expired.value.code == "token_expired"


def test_the_secret_is_created_once_owner_only(tmp_path):
    path = tmp_path / "ws" / "auth.secret"
    first = load_or_create_secret(path)
    assert len(first) == 32 and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert load_or_create_secret(path) == first
    path.write_bytes(b"short")
    with pytest.raises(SignetError):
        load_or_create_secret(path)


def test_every_route_declares_a_known_permission():
    app = create_app(load_settings("/nonexistent-signet-ws"))
    api = [route for route, _ in route_props.routes(app) if isinstance(route, APIRoute)]
    assert api and all(isinstance(route, AuthorizedRoute) for route in api)
    assert [route.path for route in api if route_props.declared(route) is None] == []
    assert {route_props.of(route).permission for route in api} <= ROLE_PERMISSIONS["admin"]
    assert route_props.of(None) == route_props.UNDECLARED and route_props.UNDECLARED.permission == "admin"


def test_sliding_window_limits_and_frees_slots():
    window = SlidingWindow()
    for i in range(3):
        window.hit("a:forget", 3, now=100.0 + i)
    with pytest.raises(SignetError) as limited:
        window.hit("a:forget", 3, now=103.0)
    assert limited.value.status == 429 and limited.value.details["retryAfterS"] == 58
    window.hit("b:forget", 3, now=103.0)  # per actor
    window.hit("a:forget", 3, now=160.5)  # the first event left the window


def test_an_anonymous_caller_learns_the_service_is_up_not_where_it_keeps_its_files(team):
    client, token = team
    for path in ("/health", "/api/status"):
        anonymous = client.get(path).json()
        assert anonymous["status" if path == "/health" else "version"]
        assert anonymous["pid"] is None and anonymous["agentsDir"] is None and anonymous.get("memoryDb") is None
        known = client.get(path, headers=token("readonly")).json()
        assert known["pid"] > 0 and known["agentsDir"]


def test_team_mode_needs_a_token_except_on_open_routes(team):
    client, token = team
    assert client.get("/health").status_code == 200
    missing = client.get("/api/memories")
    assert missing.status_code == 401 and missing.json()["error"]["code"] == "token_required"
    bad = client.get("/api/memories", headers={"authorization": "Bearer nope.nope"})
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "token_invalid"
    basic = client.get("/api/memories", headers={"authorization": "Basic abc"})
    assert basic.status_code == 401 and basic.json()["error"]["code"] == "token_malformed"
    assert client.get("/api/memories", headers=token("readonly")).status_code == 200


@pytest.mark.parametrize("role, method, path, body, allowed", [
    ("readonly", "POST", "/api/memory/recall", {"query": "x"}, True),
    ("readonly", "POST", "/api/memory/remember", {"content": "x y z"}, False),
    ("agent", "POST", "/api/memory/remember", {"content": "Agents may remember"}, True),
    ("agent", "GET", "/api/diagnostics", None, False),
    ("agent", "POST", "/api/repair/check-fts", None, False),
    ("operator", "POST", "/api/repair/check-fts", None, True),
    ("agent", "POST", "/api/connectors", {"provider": "filesystem", "displayName": "x",
                                          "settings": {"rootPath": "/etc"}}, False),
    ("agent", "GET", "/api/connectors", None, False),
    ("operator", "POST", "/api/connectors", {"provider": "filesystem", "displayName": "x",
                                             "settings": {"rootPath": "/tmp"}}, True),
    ("operator", "POST", "/api/auth/token", {"sub": "x", "role": "agent"}, False),
    ("admin", "POST", "/api/auth/token", {"sub": "x", "role": "agent"}, True),
])
def test_the_role_matrix(team, role, method, path, body, allowed):
    client, token = team
    response = client.request(method, path, json=body, headers=token(role))
    if allowed:
        assert response.status_code in (200, 201), response.text
    else:
        assert response.status_code == 403 and response.json()["error"]["code"] == "permission_denied"


def test_identity_comes_from_the_token_not_the_body(team):
    client, token = team
    headers = {**token("agent", sub="ci-bot", agent="ci"), "x-signet-actor": "someone-else",
               "x-signet-agent-id": "other"}
    saved = client.post("/api/memory/remember", json={"content": "The CI cache lives on S3", "agentId": "other"},
                        headers=headers).json()
    memory = client.get(f"/api/memory/{saved['id']}", headers=token("agent", agent="ci")).json()
    assert memory["agent_id"] == "ci"
    history = client.get(f"/api/memory/{saved['id']}/history", headers=token("agent", agent="ci")).json()["history"]
    assert history[0]["changedBy"] == "ci-bot"
    # Another agent's token reads as its own agent, whatever it asks for.
    other = client.get(f"/api/memory/{saved['id']}", params={"agentId": "ci"}, headers=token("agent", agent="ops"))
    assert other.status_code == 200  # global visibility: readable; a private one would be 404
    whoami = client.get("/api/auth/whoami", headers=headers).json()
    assert whoami["authenticated"] and whoami["claims"]["sub"] == "ci-bot" and whoami["role"] == "agent"


def test_a_project_scoped_token_may_not_touch_another_project(team):
    client, token = team
    admin = token("admin")
    beta = client.post("/api/memory/remember", json={"content": "Beta ships on Mondays", "project": "beta"},
                       headers=admin).json()
    scoped = token("agent", project="alpha", agent="default")
    denied = client.delete(f"/api/memory/{beta['id']}", params={"reason": "x"}, headers=scoped)
    assert denied.status_code == 403 and denied.json()["error"]["code"] == "scope_denied"
    patched = client.patch(f"/api/memory/{beta['id']}", json={"reason": "x", "importance": 0.2},
                           headers=token("agent", project="beta", agent="default"))
    assert patched.status_code == 200


def test_batch_forget_is_rate_limited_per_actor(team):
    client, token = team
    headers = token("operator", sub="cleaner")
    body = {"mode": "preview", "query": "anything"}
    codes = [client.post("/api/memory/forget", json=body, headers=headers).status_code for _ in range(6)]
    assert codes == [200] * 5 + [429]
    limited = client.post("/api/memory/forget", json=body, headers=headers)
    assert int(limited.headers["retry-after"]) >= 1 and limited.json()["error"]["code"] == "rate_limited"
    assert client.post("/api/memory/forget", json=body, headers=token("operator", sub="other")).status_code == 200


def test_the_memory_edits_declare_the_specs_limits_and_the_schema_says_429_exactly_there():
    app = create_app(load_settings("/nonexistent-signet-ws"))
    rated = {(method, path): route_props.of(route).rate for route, path in route_props.routes(app)
             if isinstance(route, APIRoute) and route_props.of(route).rate for method in route.methods}
    assert rated == {("DELETE", "/api/memory/{memory_id}"): route_props.FORGET,
                     ("PATCH", "/api/memory/{memory_id}"): route_props.MODIFY,
                     ("POST", "/api/memory/modify"): route_props.MODIFY,
                     ("POST", "/api/memory/forget"): route_props.BATCH_FORGET}
    assert (route_props.FORGET.per_minute, route_props.MODIFY.per_minute, route_props.BATCH_FORGET.per_minute) \
        == (30, 60, 5)  # the spec's
    answers_429 = {(method.upper(), path) for path, item in app.openapi()["paths"].items()
                   for method, operation in item.items() if "429" in operation["responses"]}
    assert set(rated) <= answers_429
    assert {path for _, path in answers_429 - set(rated)} <= {"/api/repair/re-embed", "/api/repair/{action}"}


def test_routes_declaring_one_operation_share_its_window(team):
    client, token = team
    headers = token("operator", sub="editor")
    memory = client.post("/api/memory/remember", json={"content": "Tabs are four spaces wide"}, headers=headers).json()
    for _ in range(route_props.MODIFY.per_minute):
        client.app.state.auth.limiter.hit("editor:modify", route_props.MODIFY.per_minute)
    patch = client.patch(f"/api/memory/{memory['id']}", json={"reason": "x", "importance": 0.2}, headers=headers)
    batch = client.post("/api/memory/modify", headers=headers,
                        json={"patches": [{"id": memory["id"], "reason": "x", "importance": 0.3}]})
    assert patch.status_code == batch.status_code == 429 and batch.json()["error"]["code"] == "rate_limited"
    assert client.delete(f"/api/memory/{memory['id']}", params={"reason": "x"}, headers=headers).status_code == 200


def test_hybrid_trusts_loopback_and_asks_others_for_a_token(make_service):
    svc = make_service(auth={"mode": "hybrid"})
    app = create_app(service=svc)
    with TestClient(app, client=("127.0.0.1", 50000)) as local, TestClient(app, client=("10.1.2.3", 50000)) as remote:
        assert local.get("/api/memories").status_code == 200
        assert local.get("/api/auth/whoami").json()["trusted"] is True
        assert remote.get("/api/memories").status_code == 401
        secret = load_or_create_secret(svc.settings.auth_secret_path)
        token = issue(secret, sub="laptop", role="readonly", ttl_s=60)[0]
        assert remote.get("/api/memories", headers={"authorization": f"Bearer {token}"}).status_code == 200
        # A loopback caller's token is still checked, and its role applies.
        assert local.post("/api/memory/remember", json={"content": "x y z"},
                          headers={"authorization": f"Bearer {token}"}).status_code == 403


def test_local_mode_is_the_default_and_env_selects_another(workspace, monkeypatch):
    assert load_settings(workspace).auth.mode == "local"
    monkeypatch.setenv("SIGNET_AUTH_MODE", "hybrid")
    assert load_settings(workspace).auth.mode == "hybrid"


def test_an_agent_token_acts_as_its_subject_and_changes_only_its_own_memories(team):
    client, token = team
    shared = client.post("/api/memory/remember", json={"content": "Ops owns the pager rota"},
                         headers=token("admin")).json()  # agent `default`, global
    bot = token("agent", sub="bot")
    saved = client.post("/api/memory/remember", json={"content": "Bot notes the build cache", "agentId": "default"},
                        headers=bot).json()
    owner = client.get(f"/api/memory/{saved['id']}", headers=token("admin")).json()["agent_id"]
    assert owner == "bot"  # the body's agentId is ignored for an agent token
    readable = client.get(f"/api/memory/{shared['id']}", headers=bot)
    assert readable.status_code == 200  # shared policy: it may read the global memory ...
    denied = client.patch(f"/api/memory/{shared['id']}", json={"reason": "x", "importance": 0.1}, headers=bot)
    assert denied.status_code == 403 and denied.json()["error"]["code"] == "scope_denied"  # ... not change it
    forged = client.patch(f"/api/memory/{saved['id']}", json={"reason": "x", "importance": 0.2,
                                                               "changed_by": "someone-else"}, headers=bot)
    assert forged.status_code == 200
    history = client.get(f"/api/memory/{saved['id']}/history", headers=bot).json()["history"]
    assert history[-1]["changedBy"] == "bot"


def test_odd_authorization_headers_are_401_never_500(team):
    client, _ = team
    for value in (b"Bearer \xe9t\xe9.abc", b"Bearer a.b.c", b"Bearer .", b"Bearer " + b"x" * 5000):
        response = client.get("/api/memories", headers={"authorization": value})
        assert response.status_code == 401, value


def test_team_mode_hides_the_docs_and_scoped_tokens_write_into_their_project(team, make_service):
    client, token = team
    assert client.get("/openapi.json").status_code in (401, 404) and client.get("/docs").status_code in (401, 404)
    saved = client.post("/api/memory/remember", json={"content": "Alpha ships weekly", "project": "beta"},
                        headers=token("agent", agent="default", project="alpha")).json()
    assert client.get(f"/api/memory/{saved['id']}", headers=token("admin")).json()["project"] == "alpha"
    local = make_service()
    with TestClient(create_app(service=local)) as open_client:
        assert open_client.get("/openapi.json").status_code == 200  # local mode keeps them


def test_the_limiter_forgets_idle_keys():
    window = SlidingWindow(max_keys=2)
    window.hit("a", 5, now=0.0)
    window.hit("b", 5, now=1.0)
    window.hit("c", 5, now=100.0)  # a and b left their windows: dropped to make room
    assert set(window._events) == {"c"}
