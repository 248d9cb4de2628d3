"""What one request may cost: bodies over their byte limit refused before they are read whole,
parsed or authenticated; field limits from settings.limits, enforced and stated in the OpenAPI
schema; and, for callers trusted without a token, no request a page of another site could send."""

import json

import httpx
import pytest
from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from signet_api import route_props
from signet_api.app import create_app
from signet_api.auth import AuthorizedRoute
from signet_api.middleware import MAX_TARGET_BYTES
from signet_api.routes.memory import MAX_GET_QUERY_CHARS
from signet_pipeline import limits
from signet_pipeline.models import RecallResult, RememberResult
from tests.live_server import LiveServer

KIB = 1024


@pytest.fixture
def limited(make_service):
    svc = make_service(limits={"maxBodyBytes": 64 * KIB, "maxUploadBytes": 128 * KIB, "maxContentChars": 1000,
                               "maxTags": 3, "maxTagChars": 10, "maxMetadataBytes": 256,
                               "maxTranscriptChars": 10_000})
    with TestClient(create_app(service=svc)) as client:
        yield client
    limits.apply(type(limits.active())())  # the next service applies its own; keep no small limits behind


@pytest.fixture
def team(make_service):
    svc = make_service(auth={"mode": "team"})
    with TestClient(create_app(service=svc)) as client:
        yield client


def test_an_oversized_body_is_refused_by_its_length_before_auth_and_parsing(team):
    body = b"[" * (2 * 1024 * KIB)  # 2 MiB of nested arrays, no token
    answer = team.post("/api/memory/recall", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 413
    assert answer.json()["error"]["code"] == "payload_too_large"
    assert "limits.maxBodyBytes" in answer.json()["error"]["message"]


def test_a_long_query_string_is_refused_in_json_and_the_longest_valid_one_is_served(svc):
    # Through uvicorn: its HTTP parser answers a request target over 64 KiB with a bare text 400, so
    # the API's bound sits under it, and the longest query the schema allows fits under the bound.
    widest = "\U0010fffd" * MAX_GET_QUERY_CHARS  # 4 bytes in UTF-8, 12 once percent-encoded
    with LiveServer(create_app(service=svc)) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        served = http.get("/api/memory/search", params={"q": widest})
        assert served.status_code == 200, served.text[:300]
        answer = http.get("/memory/search", params={"q": "a" * MAX_TARGET_BYTES})
        assert answer.status_code == 414 and answer.json()["error"]["code"] == "uri_too_long", answer.text[:300]
        over = http.get("/api/memory/search", params={"q": "a" * (MAX_GET_QUERY_CHARS + 1)})
        assert over.status_code == 422 and "q" in over.json()["error"]["message"]


def test_without_a_token_a_body_is_never_parsed(team):
    # Parsed first, this would be a 422 for its JSON: refused first, it is a 401 whatever it holds.
    answer = team.post("/api/memory/remember", content=b'{"content": [[[', headers={"content-type": "application/json"})
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "token_required"


def test_a_streamed_body_is_refused_once_it_passes_the_limit(limited):
    def chunks():
        for _ in range(200):
            yield b" " * KIB  # no Content-Length: chunked, counted as it arrives

    answer = limited.post("/api/memory/recall", content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413 and answer.json()["error"]["code"] == "payload_too_large"


def test_transcript_routes_take_up_to_the_upload_limit(limited):
    transcript = "user: hello\n" * 800
    assert limited.post("/api/hooks/session-end", json={"harness": "claude-code", "sessionKey": "s1",
                                                         "transcript": transcript}).status_code == 200
    big = {"harness": "claude-code", "sessionKey": "s2", "transcript": "x" * (200 * KIB)}
    answer = limited.post("/api/hooks/session-end", json=big)
    # The hooks answer in the shape their clients print: {"error": text, "code": code}.
    assert answer.status_code == 413 and answer.json()["code"] == "payload_too_large"
    assert "limits.maxUploadBytes" in answer.json()["error"]
    over = limited.post("/api/memory/recall", json={"query": "q", "tags": ["abcdefgh"] * 10_000})
    assert over.status_code == 413  # the same bytes to an ordinary route: maxBodyBytes



def test_every_remember_alias_takes_uploads_and_no_alias_waits_for_vectors(limited):
    # Aliases found by their answer's model, not listed: a new alias that forgets its declaration fails here.
    routes = [route for route, _ in route_props.routes(limited.app) if isinstance(route, APIRoute)]
    remembers = [r for r in routes if r.response_model is RememberResult]
    recalls = [r for r in routes if r.response_model is RecallResult]
    assert len(remembers) >= 4 and len(recalls) >= 3
    for route in remembers:
        assert route_props.of(route).upload and not route_props.of(route).waits, route.path
        body = b"{}" + b" " * (100 * KIB)  # over maxBodyBytes, under maxUploadBytes: refused by validation only
        answer = limited.post(route.path, content=body, headers={"content-type": "application/json"})
        assert answer.status_code in (400, 422), (route.path, answer.text[:200])
    assert [r.path for r in recalls if route_props.of(r).waits or route_props.of(r).upload] == []


def test_an_upload_route_with_a_path_parameter_takes_uploads_before_routing():
    router = APIRouter(route_class=AuthorizedRoute)

    @router.post("/api/things/{thing_id}/transcript")
    @route_props.declare("remember", upload=True)
    def transcript(thing_id: str) -> None: ...

    app = FastAPI()
    app.include_router(router)
    assert route_props.upload_path(app, "/api/things/t1/transcript")
    assert not route_props.upload_path(app, "/api/things/t1")

@pytest.mark.parametrize("field, value, setting", [
    ("content", "x" * 1001, "limits.maxContentChars"),
    ("tags", ["a", "b", "c", "d"], "limits.maxTags"),
    ("tags", "a,b,c,d", "limits.maxTags"),
    ("tags", ["x" * 11], "limits.maxTagChars"),
    ("metadata", {"note": "y" * 300}, "limits.maxMetadataBytes"),
    ("transcript", "z" * 10_001, "limits.maxTranscriptChars"),
])
def test_each_field_limit_is_a_setting(limited, field, value, setting):
    body = {"content": "a memory", field: value}
    answer = limited.post("/api/memory/remember", json=body)
    assert answer.status_code == 422, answer.text
    assert setting in answer.json()["error"]["message"] and field in answer.json()["error"]["message"]
    assert limited.get("/api/memories").json()["memories"] == []  # nothing was written


def test_the_limits_hold_on_every_route_that_takes_the_field(limited):
    saved = limited.post("/api/memory/remember", json={"content": "a memory", "tags": ["a", "b"]}).json()
    patch = limited.patch(f"/api/memory/{saved['id']}", json={"content": "x" * 1001, "reason": "longer"})
    assert patch.status_code == 422 and "limits.maxContentChars" in patch.json()["error"]["message"]
    recall = limited.post("/api/memory/recall", json={"query": "memory", "tags": ["a", "b", "c", "d"]})
    assert recall.status_code == 422
    end = limited.post("/api/hooks/session-end",
                       json={"harness": "claude-code", "sessionKey": "s", "transcript": "z" * 10_001})
    assert end.status_code == 400 and "limits.maxTranscriptChars" in end.json()["error"]


def test_ten_thousand_tags_are_refused_by_default(client):
    answer = client.post("/api/memory/remember", json={"content": "tagged", "tags": [f"t{i}" for i in range(10_000)]})
    assert answer.status_code == 422 and "limits.maxTags" in answer.json()["error"]["message"]


def test_the_schema_states_the_limits_in_force(limited):
    schemas = limited.get("/openapi.json").json()["components"]["schemas"]
    remember = schemas["RememberRequest"]["properties"]
    assert remember["content"]["maxLength"] == 1000
    tags = next(b for b in remember["tags"]["anyOf"] if b.get("type") == "array")
    assert tags["maxItems"] == 3 and tags["items"]["maxLength"] == 10
    transcript = next(b for b in remember["transcript"]["anyOf"] if b.get("type") == "string")
    assert transcript["maxLength"] == 10_000


# -- callers trusted without a token: nothing another site's page could send ---------------------------


def test_a_page_of_another_site_cannot_act_as_a_local_caller(client):
    sweep = "/api/repair/retention-sweep"  # takes no body: a page could POST it without a CORS preflight
    for headers in ({"origin": "https://evil.example"}, {"sec-fetch-site": "cross-site"},
                    {"origin": "null", "content-type": "application/x-www-form-urlencoded"}):
        refused = client.post(sweep, headers=headers)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "cross_site_request", headers
    assert client.get("/api/repair").json()["runs"] == []  # nothing ran
    assert client.post(sweep, headers={"origin": "http://testserver"}).status_code == 200  # the dashboard itself
    assert client.post(sweep).status_code in (200, 429)  # a script (no browser headers); 429: the action's cooldown
    body = json.dumps({"content": "from a script"})
    sent = client.post("/api/memory/remember", content=body, headers={"content-type": "application/json"})
    assert sent.status_code == 200


def test_mcp_refuses_an_anonymous_body_unread_and_takes_no_more_than_any_json_route(team, limited):
    """/mcp used to read and parse up to 16 MiB before it knew who was calling (issue 43)."""
    unparsable = b'{"jsonrpc": "2.0", "id": 1, "method": [[[' + b" " * (900 * KIB)
    answer = team.post("/mcp", content=unparsable, headers={"content-type": "application/json"})
    assert answer.status_code == 401 and answer.json()["error"]["code"] == "token_required"  # not a parse error
    over = limited.post("/mcp", content=b'{"jsonrpc": "2.0"' + b" " * (70 * KIB) + b"}",
                        headers={"content-type": "application/json"})
    assert over.status_code == 413 and "limits.maxBodyBytes" in over.json()["error"]["message"]


def test_a_large_body_is_parsed_off_the_event_loop(client, monkeypatch):
    import threading

    from signet_api import bodies

    threads: list[str] = []
    original = bodies.loads

    def loads(raw: bytes):
        threads.append(threading.current_thread().name)
        return original(raw)

    monkeypatch.setattr(bodies, "loads", loads)
    small = client.post("/api/memory/recall", json={"query": "where is the key"})
    large = client.post("/api/memory/remember", json={"content": "A long note. " * 6000})
    assert small.status_code == 200 and large.status_code == 200, large.text
    loop = threading.main_thread().name
    assert len(threads) == 2 and threads[1] != threads[0] and "AnyIO worker thread" in threads[1], (threads, loop)
