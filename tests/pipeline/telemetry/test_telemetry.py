"""Telemetry, logs and memory safety: local rings in the store, read back through the API."""

import json
import logging
import threading

import httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from signet_api.app import create_app
from signet_pipeline.analytics import ProviderCalls, error_event, record_errors
from signet_pipeline.errors import ProviderError
from signet_pipeline.store.db import Database
from signet_pipeline.telemetry.events import LlmCall, RecallPerformed
from signet_pipeline.telemetry.logs import StoreLogHandler
from tests.conftest import recall, remember
from tests.live_server import LiveServer

SECRETS = ("zanzibar-plum-42", "what did ophelia whisper", "session-key-7f3a", "sk-live-abcdef123456")


@pytest.fixture
def on(make_service):
    svc = make_service(memory={"pipelineV2": {"telemetryEnabled": True}})
    with TestClient(create_app(service=svc)) as client:
        yield svc, client


def test_telemetry_is_off_by_default(client):
    assert client.get("/api/telemetry/events").json() == {"events": [], "enabled": False}
    export = client.get("/api/telemetry/export")
    assert export.status_code == 404 and export.json()["error"]["code"] == "telemetry_disabled"


def test_api_and_pipeline_events_carry_counts_durations_and_codes_never_content(on):
    svc, client = on
    remember(client, f"The vault code is {SECRETS[0]}", sessionKey=SECRETS[2])
    client.post("/api/memory/recall", json={"query": SECRETS[1], "sessionKey": SECRETS[2]},
                headers={"authorization": f"Bearer {SECRETS[3]}"})
    recall(client, "vault code")
    calls = ProviderCalls()  # what a pipeline stage records around its model calls
    calls.call(lambda: "ok")
    with pytest.raises(ProviderError):
        calls.call(lambda: (_ for _ in ()).throw(ProviderError("model said " + SECRETS[0], code="provider_timeout")))
    calls.flush(svc.db, provider="ollama", model="qwen3:4b")
    record_errors(svc.db, [error_event("EXTRACTION_PARSE_FAIL", f"could not parse {SECRETS[0]}")])
    svc.telemetry.flush()
    events = client.get("/api/telemetry/events", params={"limit": 50}).json()
    assert events["enabled"] is True
    kinds = [e["event"] for e in events["events"]]
    assert kinds.count("recall.performed") >= 2 and "remember.performed" in kinds
    assert kinds.count("llm.generate") == 2 and "pipeline.error" in kinds
    hit = next(e for e in events["events"] if e["event"] == "recall.performed")
    assert set(hit["properties"]) == {"type", "results", "latencyMs"} and hit["properties"]["results"] >= 1
    stats = client.get("/api/telemetry/stats").json()
    assert stats["llm"]["calls"] == 2 and stats["llm"]["errors"] == 1 and stats["recall"]["calls"] >= 2
    assert stats["pipelineErrorsByCode"] == {"EXTRACTION_PARSE_FAIL": 1}
    export = client.get("/api/telemetry/export")
    assert export.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in export.text.splitlines()]
    assert len(lines) == stats["totalEvents"]
    stored = json.dumps(svc.db.reader().execute("SELECT * FROM telemetry_events").fetchall())
    for secret in SECRETS:
        assert secret not in stored and secret not in export.text


@pytest.mark.parametrize("fields", [
    {"provider": "ollama", "model": "a model with spaces and a secret"},
    {"provider": "sk-live abc", "model": "m"},
])
def test_an_event_cannot_carry_free_text(fields):
    with pytest.raises(ValidationError):
        LlmCall(event="llm.generate", ok=True, durationMs=1.0, **fields)
    with pytest.raises(ValidationError):
        RecallPerformed(type="hybrid", results=1, latencyMs=1.0, query="what did ophelia whisper")


def test_logs_from_every_process_with_level_category_and_since_filters(svc, client):
    logging.getLogger("signet.recall").info("recall warmed %d vectors", 12, extra={"vectors": 12})
    logging.getLogger("signet.store").warning("slow checkpoint")
    pipeline = StoreLogHandler(Database(svc.db.path), "pipeline")  # a Dagster run's handler, its own connection
    pipeline.emit(logging.LogRecord("signet.pipeline", logging.ERROR, __file__, 1, "drain failed: %s", ("boom",), None))
    pipeline.close()
    svc.log_handler.flush()
    everything = client.get("/api/logs").json()
    messages = [e["message"] for e in everything["logs"]]
    assert messages[:3] == ["slow checkpoint", "recall warmed 12 vectors", "drain failed: boom"] or \
        {"slow checkpoint", "recall warmed 12 vectors", "drain failed: boom"} <= set(messages)
    warm = next(e for e in everything["logs"] if e["message"] == "recall warmed 12 vectors")
    assert warm["level"] == "info" and warm["category"] == "recall" and warm["fields"] == {"vectors": 12}
    failed = next(e for e in everything["logs"] if e["category"] == "pipeline")
    assert failed["process"] == "pipeline" and failed["level"] == "error"
    warnings = client.get("/api/logs", params={"level": "warning"}).json()["logs"]
    assert {e["level"] for e in warnings} <= {"warning", "error", "critical"} and len(warnings) >= 2
    assert [e["message"] for e in client.get("/api/analytics/logs", params={"category": "store"}).json()["logs"]] \
        == ["slow checkpoint"]
    assert client.get("/api/logs", params={"since": "2999-01-01"}).json() == {"logs": [], "count": 0}
    assert client.get("/api/logs", params={"level": "loud"}).status_code == 422


def test_the_log_stream_says_connected_then_sends_new_entries_and_ends_with_the_client(svc):
    with LiveServer(create_app(service=svc)) as server:
        received: list[dict] = []
        with httpx.Client(base_url=server.url, timeout=10) as http:
            with http.stream("GET", "/api/logs/stream") as stream:
                lines = stream.iter_lines()
                for line in lines:
                    if line.startswith("data: "):
                        received.append(json.loads(line[6:]))
                        break
                logging.getLogger("signet.test").warning("streamed entry")
                svc.log_handler.flush()
                for line in lines:
                    if line.startswith("data: "):
                        received.append(json.loads(line[6:]))
                        break
            assert http.get("/health").status_code == 200  # the server is not held by the closed stream
        assert received[0] == {"type": "connected"}
        assert received[1]["message"] == "streamed entry" and received[1]["category"] == "test"
        streams = [t for t in threading.enumerate() if "stream" in t.name.lower()]
        assert not streams


def test_memory_safety_reports_the_mutation_domain_and_its_errors(client, svc):
    record_errors(svc.db, [error_event("MUTATION_CONFLICT", "version conflict on one memory")])
    body = client.get("/api/analytics/memory-safety").json()
    assert body["mutation"]["domain"] == "mutation"
    assert body["errorSummary"] == {"total": 1, "byCode": {"MUTATION_CONFLICT": 1}}
    assert body["recentErrors"][0]["code"] == "MUTATION_CONFLICT"


def test_a_bounded_stream_ends_by_itself(client):
    response = client.get("/api/logs/stream", params={"maxSeconds": 0.6})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    assert response.text.startswith('data: {"type": "connected"}')
