"""signet_sdk: the blocking client against a live server, the async client against the ASGI app."""

import asyncio

import httpx
import pytest

from signet_api.app import create_app
from signet_sdk import AsyncClient, Client, ConnectionFailed, InvalidRequest, NotFound, RecallResult
from signet_sdk.errors import AuthError
from tests.conftest import settle
from tests.live_server import LiveServer


def test_the_client_remembers_recalls_updates_forgets_and_recovers_over_http(svc):
    with LiveServer(create_app(service=svc)) as server, Client(server.url) as signet:
        saved = signet.remember("Ada prefers tabs over spaces", tags=["style"], importance=0.9)
        assert saved.id and saved.deduped is False
        settle(svc)
        found = signet.recall("what does Ada prefer?", limit=3)
        assert isinstance(found, RecallResult) and found.results[0].id == saved.id
        assert found.results[0].content == "Ada prefers tabs over spaces" and found.results[0].score > 0
        assert (found.results[0].content_length, found.results[0].truncated) == (28, False)
        assert signet.get(saved.id).tags == "style"
        page = signet.list(limit=10, tags="style")
        assert [m.id for m in page.memories] == [saved.id]
        signet.update(saved.id, reason="more precise", content="Ada prefers tabs, four wide")
        assert [e.event for e in signet.history(saved.id)][-1] == "updated"
        assert signet.forget(saved.id, reason="no longer true").status == "deleted"
        with pytest.raises(NotFound) as missing:
            signet.get(saved.id)
        assert missing.value.code == "not_found" and missing.value.status == 404
        signet.recover(saved.id, reason="it was true after all")
        assert signet.get(saved.id).content == "Ada prefers tabs, four wide"
        start = signet.session_start("claude-code", project="/work/signet")
        assert "inject" in start
        doc = signet.add_document(content="Backups run nightly at two and are kept for a week.", title="ops")
        assert doc.status == "queued" and signet.document(doc.id).title == "ops"
        assert (doc.source_type, doc.chunk_count, doc.created_at) == ("text", 0, doc.createdAt)
        status = signet.status()
        assert status.version and status.memories and "queues" in signet.pipeline_status()
        assert status.status == "healthy" and status.startedAt and status.port == svc.settings.server.port


def test_errors_are_typed_and_carry_the_api_code(svc):
    with LiveServer(create_app(service=svc)) as server, Client(server.url) as signet:
        with pytest.raises(InvalidRequest) as bad:
            signet.remember("")
        assert bad.value.code == "invalid_request" and bad.value.status in (400, 422)
    with pytest.raises(ConnectionFailed) as down, Client("http://127.0.0.1:9", timeout=2) as nowhere:
        nowhere.recall("anyone there?")
    assert down.value.code == "connection_failed"


def test_team_mode_without_a_token_is_an_auth_error(make_service):
    svc = make_service(auth={"mode": "team"})
    with LiveServer(create_app(service=svc)) as server, Client(server.url, token="") as signet:
        with pytest.raises(AuthError) as refused:
            signet.recall("anything")
    assert refused.value.code == "token_required" and refused.value.status == 401


def test_the_async_client_against_the_asgi_app(svc):
    async def scenario():
        app = create_app(service=svc)
        transport = httpx.ASGITransport(app=app)
        async with app.router.lifespan_context(app), AsyncClient("http://testserver", transport=transport) as signet:
            saved = await signet.remember("The staging cluster lives in Frankfurt")
            settle(svc)
            found = await signet.recall("where is staging?", limit=2)
            page = await signet.list(limit=5)
            return saved, found, page

    saved, found, page = asyncio.run(scenario())
    assert found.results[0].id == saved.id and page.memories[0].id == saved.id


def test_base_url_and_token_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("SIGNET_DAEMON_URL", "http://mem.example:4000/")
    monkeypatch.setenv("SIGNET_API_KEY", "k-123")
    with Client() as signet:
        assert signet.base_url == "http://mem.example:4000"
        assert signet._http.headers["authorization"] == "Bearer k-123"
