"""Analytics: request counters through the real ASGI app, latency percentiles and rings, the
service-wide error ring fed by the API (mutation rejections) and by pipeline runs on real Dagster
against a misbehaving Ollama on loopback, job latency from memory_jobs."""

import json
import random
import threading
import time

import dagster as dg
import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline import analytics
from signet_pipeline.analytics import Analytics, ProviderCalls, error_event, snapshot
from signet_pipeline.defs.extraction.assets import memory_pipeline
from signet_pipeline.defs.resources import EmbedderResource, LlmResource, SignetStoreResource
from signet_pipeline.errors import ProviderError, SignetError
from signet_pipeline.models import RememberRequest
from signet_pipeline.providers.embeddings.remote import OllamaEmbeddings
from signet_pipeline.providers.llm import OllamaLlm
from signet_pipeline.stages.extraction.batch import run_jobs
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.write.remember import remember
from tests.conftest import recall as api_recall
from tests.conftest import remember as api_remember
from tests.fakes import FakeServer

STANDUP = "Ana moved the weekly standup to 9:30 on Mondays"
FACT = {"facts": [{"content": "Ana moved the weekly standup meeting to 9:30 on Mondays", "type": "fact",
                   "confidence": 0.9}], "entities": []}


def ollama_reply(text: str) -> tuple[int, dict]:
    return 200, {"model": "m", "response": text, "done": True}


def errors(client, **params) -> list[dict]:
    response = client.get("/api/analytics/errors", params=params)
    assert response.status_code == 200, response.text
    return response.json()["errors"]


# -- usage counters ------------------------------------------------------------------------------


def test_counters_move_on_real_requests_and_a_4xx_is_an_error_of_its_endpoint(client):
    api_remember(client, "Ana prefers green tea in the morning")
    client.post("/api/memory/remember", json={"content": "The deploy runs at noon"}, headers={"x-signet-actor": "bot"})
    api_recall(client, "what does Ana drink")
    assert client.post("/api/memory/recall", json={}).status_code == 422
    assert client.get("/api/memory/no-such-id").status_code == 404
    assert client.get("/no/such/route").status_code == 404
    usage = client.get("/api/analytics/usage").json()
    endpoints = usage["endpoints"]
    assert (endpoints["POST /api/memory/remember"]["count"], endpoints["POST /api/memory/remember"]["errors"]) == (2, 0)
    assert (endpoints["POST /api/memory/recall"]["count"], endpoints["POST /api/memory/recall"]["errors"]) == (2, 1)
    one = endpoints["GET /api/memory/{memory_id}"]  # keyed by route, not by raw path
    assert (one["count"], one["errors"]) == (1, 1)
    assert endpoints["GET (unmatched)"]["errors"] == 1
    assert endpoints["POST /api/memory/recall"]["totalLatencyMs"] > 0
    assert usage["actors"]["bot"] == {"requests": 1, "remembers": 1, "recalls": 0, "mutations": 0, "other": 0}
    assert usage["actors"]["api"] == {"requests": 5, "remembers": 1, "recalls": 2, "mutations": 0, "other": 2}
    assert usage["connectors"] == {} and usage["providers"] == {}
    latency = client.get("/api/analytics/latency").json()
    # the rejected recall (422) is counted on its endpoint but not as a recall latency sample
    assert (latency["remember"]["count"], latency["recall"]["count"], latency["mutate"]["count"]) == (2, 1, 0)
    assert latency["recall"]["p50"] > 0 and latency["jobs"] == {"p50": 0, "p95": 0, "p99": 0, "count": 0, "mean": 0}


def test_paths_are_classified_like_the_reference_plus_memory_patch_and_delete():
    cases = {("POST", "/api/memory/remember"): "remember", ("POST", "/api/hook/remember"): "remember",
             ("POST", "/api/memory/save"): "remember", ("GET", "/api/memory/search"): "recall",
             ("GET", "/memory/similar"): "recall", ("POST", "/api/memory/forget"): "mutate",
             ("POST", "/api/memory/{memory_id}/recover"): "mutate", ("PATCH", "/api/memory/{memory_id}"): "mutate",
             ("DELETE", "/api/memory/{memory_id}"): "mutate", ("GET", "/api/memory/{memory_id}"): "other",
             ("DELETE", "/api/knowledge/entities/{entity_id}/pin"): "other"}
    assert {k: analytics.classify(*k) for k in cases} == cases


def test_counters_are_exact_under_concurrent_updates(svc):
    stats = Analytics()

    def hammer():
        for _ in range(2000):
            stats.record_request("POST /api/memory/recall", "recall", "agent", 200, 1.0)

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    usage = stats.usage(svc.db)
    assert (usage.endpoints["POST /api/memory/recall"].count, usage.actors["agent"].recalls) == (16000, 16000)
    assert usage.endpoints["POST /api/memory/recall"].totalLatencyMs == 16000.0
    assert stats.latency(svc.db).recall.count == analytics.LATENCY_SAMPLES


def test_client_controlled_keys_stay_bounded(client, svc):
    assert client.request("BREW", "/api/memory/recall", headers={"x-signet-actor": "x"}).status_code in (404, 405)
    assert "BREW" not in str(client.get("/api/analytics/usage").json()["endpoints"])
    stats = Analytics()
    for i in range(analytics.MAX_ACTORS + 50):
        stats.record_request("GET /health", "other", f"actor-{i}", 200, 1.0)
    actors = stats.usage(svc.db).actors
    assert len(actors) == analytics.MAX_ACTORS + 1 and actors[analytics.OTHER_ACTORS].requests == 50


def test_provider_usage_comes_from_the_stored_outcomes(client, svc):
    calls = ProviderCalls()
    calls.outcomes += [("success", 10.0, None), ("success", 30.0, None), ("failure", 5.0, "HTTP 503"),
                       ("timeout", 15.0, "timed out")]
    calls.flush(svc.db, provider="ollama", model="qwen3:4b")
    stats = client.get("/api/analytics/usage").json()["providers"]["ollama"]
    assert (stats["calls"], stats["failures"], stats["timeouts"], stats["model"]) == (4, 2, 1, "qwen3:4b")
    assert (stats["meanLatencyMs"], stats["totalLatencyMs"], stats["lastError"]) == (15.0, 60.0, "timed out")


# -- latency -------------------------------------------------------------------------------------


def test_percentiles_on_known_samples():
    samples = list(range(1, 101))
    random.Random(7).shuffle(samples)
    assert snapshot(samples).model_dump() == {"p50": 50, "p95": 95, "p99": 99, "count": 100, "mean": 50.5}
    assert snapshot([4.0]).model_dump() == {"p50": 4.0, "p95": 4.0, "p99": 4.0, "count": 1, "mean": 4.0}
    assert snapshot([]).count == 0 and snapshot([]).p99 == 0
    assert snapshot([1, 2, 3, 1000]).p50 == 2 and snapshot([1, 2, 3, 1000]).p95 == 1000


def test_the_latency_ring_keeps_the_newest_thousand_samples(svc):
    stats = Analytics()
    for ms in range(1, 1501):
        stats.record_request("POST /api/memory/remember", "remember", "api", 200, float(ms))
    stats.record_request("POST /api/memory/remember", "remember", "api", 400, 99999.0)  # rejected: not a sample
    remember_ms = stats.latency(svc.db).remember
    assert (remember_ms.count, remember_ms.p50, remember_ms.p99) == (1000, 1000.0, 1490.0)
    assert remember_ms.mean == pytest.approx(1000.5)  # samples 501..1500: the oldest 500 were evicted


def test_job_latency_is_lease_to_completion_of_recent_jobs(client, svc):
    with svc.db.write() as conn:
        for i in range(1, 21):  # durations 100, 200, ... 2000 ms
            conn.execute("INSERT INTO memory_jobs(job_type, status, leased_at, completed_at, created_at, updated_at) "
                         "VALUES ('extract', 'completed', ?, ?, 't', 't')",
                         ("2026-01-01T00:00:00.000Z", f"2026-01-01T00:00:{i // 10:02d}.{(i % 10) * 100:03d}Z"))
        conn.execute("INSERT INTO memory_jobs(job_type, status, leased_at, created_at, updated_at) "
                     "VALUES ('extract', 'leased', '2026-01-01T00:00:00.000Z', 't', 't')")  # still running
    jobs = client.get("/api/analytics/latency").json()["jobs"]
    assert jobs["count"] == 20
    assert (jobs["p50"], jobs["p95"], jobs["mean"]) == pytest.approx((1000, 1900, 1050), abs=0.01)


# -- error ring ----------------------------------------------------------------------------------


def test_the_error_ring_evicts_the_oldest_at_capacity_and_filters(client, svc):
    analytics.record_errors(svc.db, [error_event("DECISION_INVALID", f"old {i}") for i in range(300)])
    analytics.record_errors(svc.db, [error_event("EXTRACTION_PARSE_FAIL", f"new {i}", memory_id=f"m{i}")
                                     for i in range(210)])
    body = client.get("/api/analytics/errors", params={"limit": 500}).json()
    kept = body["errors"]
    assert len(kept) == 500 == body["capacity"]
    assert kept[0]["message"] == "new 209" and kept[-1]["message"] == "old 10"  # old 0..9 were evicted
    assert body["summary"] == {"DECISION_INVALID": 290, "EXTRACTION_PARSE_FAIL": 210}
    parse = errors(client, code="EXTRACTION_PARSE_FAIL", limit=3)
    assert [(e["stage"], e["memoryId"]) for e in parse] == [("extraction", "m209"), ("extraction", "m208"),
                                                            ("extraction", "m207")]
    assert {e["code"] for e in errors(client, stage="decision", limit=500)} == {"DECISION_INVALID"}
    assert errors(client, since="2999-01-01") == []
    assert len(errors(client, since=kept[0]["timestamp"])) >= 1
    for bad in ({"code": "NOT_A_CODE"}, {"stage": "nowhere"}, {"since": "yesterday"}, {"limit": 501}):
        assert client.get("/api/analytics/errors", params=bad).status_code == 422, bad


def test_mutation_rejections_are_recorded_with_memory_and_actor(svc):
    app = create_app(service=svc)

    @app.post("/api/knowledge/other-conflict")
    def other():
        raise SignetError("not a mutation", code="conflict", status=409)

    with TestClient(app) as client:
        memory = api_remember(client, "critical: The on-call phone is in the top drawer")
        headers = {"x-signet-actor": "agent-b", "x-signet-actor-type": "agent"}
        assert client.delete(f"/api/memory/{memory['id']}", params={"reason": "x", "force": "true"},
                             headers=headers).status_code == 403
        assert client.patch(f"/api/memory/{memory['id']}", json={"reason": "x", "importance": 0.1, "if_version": 2},
                            headers=headers).status_code == 409
        assert client.post("/api/knowledge/other-conflict").status_code == 409
        found = errors(client, stage="mutation")
        everything = errors(client)
        usage = client.get("/api/analytics/usage").json()
    # Newest first: the version conflict, then the refused force-delete.
    assert [(e["code"], e["memoryId"], e["actor"]) for e in found] == [
        ("MUTATION_CONFLICT", memory["id"], "agent-b"), ("MUTATION_SCOPE_DENIED", memory["id"], "agent-b")]
    assert found[0]["message"] == "version_conflict: memory is at version 1, not 2"
    assert len(everything) == 2  # the 409 outside the mutation paths was not recorded
    assert usage["endpoints"]["PATCH /api/memory/{memory_id}"]["errors"] == 1
    assert usage["actors"]["agent-b"]["mutations"] == 2


def test_embedding_failures_are_classified(svc):
    with FakeServer(lambda path, body: (503, {"error": "model not loaded"})) as server:
        embedder = OllamaEmbeddings(base_url=server.url, model="nomic-embed-text", timeout_s=2.0)
        with pytest.raises(ProviderError) as down:
            embedder.embed(["a memory"])
    event = analytics.embedding_failure(down.value, texts=3)
    assert (event.stage, event.code) == ("embedding", "EMBEDDING_PROVIDER_DOWN")
    assert event.message.startswith("3 text(s) stored without a vector: ") and "503" in event.message
    timed_out = ProviderError("ollama: timed out", code="provider_timeout")
    assert analytics.embedding_failure(timed_out, texts=1).code == "EMBEDDING_TIMEOUT"
    assert analytics.timeout_event(down.value, "EXTRACTION_TIMEOUT") is None  # not in the taxonomy


# -- pipeline errors reach the API ---------------------------------------------------------------


def misbehaving_ollama(path: str, body: dict) -> tuple[int, dict]:
    """Extraction: no JSON for the memory about numbers, one fact otherwise. Decision: an action
    that does not exist."""
    prompt = body.get("prompt", "")
    if prompt.startswith("Extract durable knowledge"):
        if "quarterly numbers" in prompt:
            return ollama_reply("Sorry, I can only summarise this in prose.")
        return ollama_reply(json.dumps(FACT))
    return ollama_reply(json.dumps({"action": "merge", "confidence": 0.9, "reason": "they are alike"}))


def test_pipeline_errors_from_a_dagster_run_show_up_in_the_api(client, svc, workspace):
    standup = api_remember(client, STANDUP)["id"]
    api_remember(client, "The weekly standup happens at 9:30 on Mondays with Ana")
    numbers = api_remember(client, "The quarterly numbers are in the shared drive")["id"]
    with FakeServer(misbehaving_ollama) as server, dg.instance_for_test() as instance:
        resources = {"signet": SignetStoreResource(workspace=str(workspace), embedder=EmbedderResource()),
                     "llm": LlmResource(provider="ollama", model="m", base_url=server.url)}
        result = dg.materialize([memory_pipeline], resources=resources, instance=instance)
    assert result.success
    parse = errors(client, code="EXTRACTION_PARSE_FAIL")
    assert [(e["stage"], e["memoryId"]) for e in parse] == [("extraction", numbers)]
    invalid = errors(client, stage="decision")
    assert invalid and {e["code"] for e in invalid} == {"DECISION_INVALID"}
    assert standup in {e["memoryId"] for e in invalid} and "unknown action 'merge'" in invalid[0]["message"]
    providers = client.get("/api/analytics/usage").json()["providers"]
    assert providers["ollama"]["calls"] >= 3 and providers["ollama"]["failures"] == 0


@pytest.mark.slow
def test_provider_timeouts_become_extraction_and_decision_timeouts(make_service):
    svc = make_service(memory={"pipelineV2": {"extraction": {"timeout": 5000}}})  # the smallest allowed

    def slow_ollama(path: str, body: dict) -> tuple[int, dict]:
        prompt = body.get("prompt", "")
        if prompt.startswith("Extract durable knowledge") and "standup happens" not in prompt:
            return ollama_reply(json.dumps(FACT))
        time.sleep(6.0)
        return ollama_reply("{}")

    first = remember(svc, RememberRequest(content=STANDUP)).id
    second = remember(svc, RememberRequest(content="The weekly standup happens at 9:30 on Mondays with Ana")).id
    with FakeServer(slow_ollama) as server:
        llm = OllamaLlm(base_url=server.url, model="m")
        batch = run_jobs(svc, JobQueue(svc.db), llm, 10)
    assert {i.outcome for i in batch.items} == {"retry"}
    with TestClient(create_app(service=svc)) as client:
        found = {(e["code"], e["memoryId"]) for e in errors(client)}
    assert found == {("EXTRACTION_TIMEOUT", second), ("DECISION_TIMEOUT", first)}



def test_remember_records_an_embedding_outage(make_service):
    with FakeServer(lambda path, body: (503, {"error": "model not loaded"})) as server:
        svc = make_service(OllamaEmbeddings(base_url=server.url, model="nomic-embed-text", timeout_s=2.0))
        with TestClient(create_app(service=svc)) as client:
            first = api_remember(client, "Ana prefers green tea in the morning")
            svc.embed_behind.settle()  # the vector is written behind the answer: the outage shows then
            second = api_remember(client, "Bo takes the night train to Vienna")
            svc.embed_behind.settle()
            found = errors(client, stage="embedding")
            stored = client.get(f"/api/memory/{first['id']}").json()
    assert stored["embedding_model"] is None  # stored keyword-only; the refresh stage will embed it
    assert second["embedded"] is False  # the writer's provider is down: no vector is on its way
    assert [e["code"] for e in found] == ["EMBEDDING_PROVIDER_DOWN"] * 2
    assert found[0]["message"].startswith("1 text(s) stored without a vector: ") and "503" in found[0]["message"]
