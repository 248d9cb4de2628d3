"""The reference SDK's typed answers (@signet/sdk, packages/sdk/src/types.ts): each call below is
made against our API and its answer must hold every field the SDK's type declares required, with
its JSON type. Paths: `a.b` a field, `a[].b` the field of every element, `a.*.b` the field of every
value of an object (an empty array or object has nothing to check, so the seed fills each)."""

from __future__ import annotations

import time
from datetime import datetime

import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline import __version__
from signet_pipeline.config import load_settings
from signet_pipeline.service import MemoryService
from signet_pipeline.stages.documents import run_document_jobs
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.queue import JOB_TYPES, JobQueue
from signet_pipeline.timeutil import now_iso
from tests.conftest import settle

S, N, B, OBJ, A, NULL = str, float, bool, dict, list, type(None)

# `who` is a string in the SDK's type; a memory nobody authored (a document chunk) has none here.
RECALL_RESULT = {"id": S, "content": S, "content_length": N, "truncated": B, "score": N, "source": S, "type": S,
                 "tags": (S, NULL), "pinned": B, "importance": N, "who": (S, NULL), "project": (S, NULL),
                 "created_at": S}
DOCUMENT = {"id": S, "source_type": S, "source_url": (S, NULL), "status": S, "title": (S, NULL), "chunk_count": N,
            "memory_count": N, "created_at": S, "updated_at": S}
JOB = {"id": (N, S), "memory_id": (S, NULL), "document_id": (S, NULL), "job_type": S, "max_attempts": N,
       "next_attempt_at": (S, NULL), "created_at": S, "updated_at": S, "status": S}
SESSION = {"key": S, "runtimePath": S, "claimedAt": S, "bypassed": B}
COUNTS = {"pending": N, "leased": N, "completed": N, "failed": N, "dead": N}
SEARCH_ITEM = {"id": S, "created_at": S, "route": S, "agent_id": S, "session_key": (S, NULL), "project": (S, NULL),
               "query": S, "keyword_query": (S, NULL), "filters": OBJ, "method": S, "result_count": N,
               "top_score": (N, NULL), "no_hits": B, "duration_ms": N, "timings": OBJ, "timings.totalMs": N,
               "timings.stages": A, "results": A, "sources": (OBJ, NULL),
               **{f"results[].{k}": v for k, v in {**RECALL_RESULT, "rank": N}.items()}}


def prefixed(prefix: str, fields: dict) -> dict:
    return {f"{prefix}{k}": v for k, v in fields.items()}


# SDK call -> (method, path, request kwargs, required fields). Paths name the seed's ids in braces.
CALLS = {
    "recall": ("POST", "/api/memory/recall", {"json": {"query": "Berlin deploys"}},
               {"results": A, "query": S, "method": S, "meta": OBJ, "meta.totalReturned": N,
                "meta.hasSupplementary": B, "meta.noHits": B, **prefixed("results[].", RECALL_RESULT)}),
    "getDocument": ("GET", "/api/documents/{document}", {}, DOCUMENT),
    "listDocuments": ("GET", "/api/documents", {}, {"documents": A, "total": N, "limit": N, "offset": N,
                                                    **prefixed("documents[].", DOCUMENT)}),
    "getDocumentChunks": ("GET", "/api/documents/{document}/chunks", {},
                          {"chunks": A, "count": N, "chunks[].id": S, "chunks[].content": S, "chunks[].type": S,
                           "chunks[].created_at": S, "chunks[].chunk_index": N}),
    "getJob (pending)": ("GET", "/api/memory/jobs/{pending_job}", {}, JOB),
    "getJob (completed)": ("GET", "/api/memory/jobs/{completed_job}", {},
                           {**JOB, "attempts": N, "completed_at": S}),
    "status": ("GET", "/api/status", {}, {"status": S, "version": S, "pid": N, "uptime": N, "startedAt": S,
                                          "port": N, "host": S, "agentsDir": S, "pipelineV2": OBJ, "embedding": OBJ,
                                          "embedding.provider": S, "embedding.model": S}),
    "getPipelineStatus": ("GET", "/api/pipeline/status", {},
                          {"workers": OBJ, "workers.*.running": B, "queues": OBJ, **prefixed("queues.memory.", COUNTS),
                           **prefixed("queues.summary.", COUNTS), "diagnostics": OBJ, "latency": OBJ,
                           "errorSummary": OBJ, "mode": S, "feedback": OBJ, "traversal.enabled": B,
                           "traversal.lastRun": (S, NULL)}),
    "getMemorySearchTelemetry": ("GET", "/api/telemetry/memory-search", {},
                                 {"items": A, "count": N, **prefixed("items[].", SEARCH_ITEM)}),
    "listSessions": ("GET", "/api/sessions", {}, {"sessions": A, "count": N, **prefixed("sessions[].", SESSION)}),
    "getSession": ("GET", "/api/sessions/{session}", {}, SESSION),
    "setSessionBypass": ("POST", "/api/sessions/{session}/bypass", {"json": {"enabled": False}},
                         {"key": S, "bypassed": B}),
    "exportTimeline": ("GET", "/api/timeline/{memory}/export", {},
                       {"meta": OBJ, "meta.version": S, "meta.exportedAt": S, "meta.entityId": S, "timeline": OBJ,
                        "timeline.events": A}),
    "deleteDocument": ("DELETE", "/api/documents/{doomed}", {"params": {"reason": "wire test"}},
                       {"id": S, "status": S, "memoriesRemoved": N}),
}


def values(body, path: str) -> list:
    """Every value at `path` (KeyError when a field is missing on the way)."""
    found = [body]
    for part in path.split("."):
        many = part.endswith("[]")
        name = part.removesuffix("[]")
        nxt = []
        for item in found:
            if name == "*":
                nxt.extend(item.values())
                continue
            value = item[name]
            if many:
                assert isinstance(value, list) and value, f"{path}: {name} must be a non-empty array here"
                nxt.extend(value)
            else:
                nxt.append(value)
        found = nxt
    return found


def problems(body, required: dict) -> list[str]:
    out = []
    for path, kinds in required.items():
        kinds = kinds if isinstance(kinds, tuple) else (kinds,)
        try:
            found = values(body, path)
        except (KeyError, TypeError):
            out.append(f"{path}: missing")
            continue
        out += [f"{path}: {type(value).__name__} {value!r:.60}" for value in found
                if not any(_is(value, kind) for kind in kinds)]
    return out


def _is(value, kind: type) -> bool:
    """JSON types: a number is an int or a float, never a boolean (Python's bool is an int)."""
    if kind is N:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, kind)


@pytest.fixture(scope="module")
def wire(tmp_path_factory, embedder):
    """One store for every call: memories, a recall logged by memory-search telemetry (on),
    ingested documents (one to delete), a pending and a completed job, a session."""
    workspace = tmp_path_factory.mktemp("wire")
    with pytest.MonkeyPatch.context() as env:
        env.delenv("SIGNET_WORKSPACE", raising=False)
        settings = load_settings(workspace, auth={"allowed_hosts": ["testserver"]},
                                 memory={"pipelineV2": {"telemetryEnabled": True}})
        svc = MemoryService(settings, embedder=embedder)
        try:
            with TestClient(create_app(service=svc)) as client:
                yield client, seed(client, svc)
        finally:
            svc.close()


def seed(client: TestClient, svc: MemoryService) -> dict[str, str]:
    memory = client.post("/api/memory/remember", json={"content": "Alice deploys the Berlin service on Fridays",
                                                       "who": "alice"}).json()
    settle(svc)
    client.post("/api/memory/recall", json={"query": "Berlin deploys"}).raise_for_status()
    svc.telemetry.flush()
    document = client.post("/api/documents", json={"content": "Runbook: restart the Berlin service first. " * 40,
                                                   "title": "runbook"}).json()
    doomed = client.post("/api/documents", json={"content": "A page to delete. " * 40}).json()
    assert not run_document_jobs(svc, JobQueue(svc.db), 10).failed
    session = {"harness": "wire-test", "sessionKey": "wire-session", "project": "/repo"}
    client.post("/api/hooks/session-start", json=session).raise_for_status()
    return {"memory": memory["id"], "pending_job": str(memory["jobId"]), "document": document["id"],
            "completed_job": str(document["jobId"]), "session": "wire-session", "doomed": doomed["id"]}


@pytest.mark.parametrize("call", list(CALLS))
def test_each_sdk_call_gets_every_required_field(wire, call):
    client, ids = wire
    method, path, kwargs, required = CALLS[call]
    response = client.request(method, path.format_map(ids), **kwargs)
    assert response.status_code == 200, response.text
    assert problems(response.json(), required) == []


def test_the_checker_catches_a_missing_or_mistyped_field():
    body = {"a": [{"b": 1}, {"b": "x"}], "c": {"k": {"running": True}}, "d": None}
    assert problems(body, {"a[].b": N, "c.*.running": B, "d": (S, NULL)}) == ["a[].b: str 'x'"]
    assert problems(body, {"e": S, "a[].z": N}) == ["e: missing", "a[].z: missing"]
    assert problems({"flag": True}, {"flag": N}) == ["flag: bool True"]


def test_the_sdk_names_carry_the_same_values_as_ours(wire):
    client, ids = wire
    for job_id in (ids["pending_job"], ids["completed_job"]):
        job = client.get(f"/api/memory/jobs/{job_id}").json()
        assert (job["job_type"], job["memory_id"], job["document_id"], job["max_attempts"], job["created_at"],
                job["updated_at"], job["leased_at"], job["completed_at"], job["failed_at"]) == (
            job["jobType"], job["memoryId"], job["documentId"], job["maxAttempts"], job["createdAt"],
            job["updatedAt"], job["leasedAt"], job["completedAt"], job["failedAt"])
    document = client.get(f"/api/documents/{ids['document']}").json()
    assert (document["source_type"], document["chunk_count"], document["memory_count"], document["created_at"]) == (
        document["sourceType"], document["chunkCount"], document["memoryCount"], document["createdAt"])
    chunks = client.get(f"/api/documents/{ids['document']}/chunks").json()
    assert chunks["count"] == len(chunks["chunks"]) == document["chunk_count"] > 0
    assert all((c["id"], c["chunk_index"], c["type"]) == (c["memoryId"], c["index"], "document_chunk")
               for c in chunks["chunks"])
    hit = client.post("/api/memory/recall", json={"query": "Alice Berlin Fridays"}).json()["results"][0]
    assert (hit["content_length"], hit["truncated"]) == (len(hit["content"]), False)
    status = client.get("/api/status").json()
    assert status["status"] == "healthy" and status["port"] == client.app.state.service.settings.server.port
    started = datetime.fromisoformat(status["startedAt"].replace("Z", "+00:00")).timestamp()
    assert abs(started + status["uptime"] - time.time()) < 5
    export = client.get(f"/api/timeline/{ids['memory']}/export").json()
    assert export["timeline"] == client.get(f"/api/timeline/{ids['memory']}").json()
    assert (export["meta"]["entityId"], export["meta"]["version"]) == (ids["memory"], __version__)


def test_the_pipeline_status_counts_its_queues_and_names_its_workers(wire):
    client, _ = wire
    svc = client.app.state.service
    with svc.db.write() as conn:
        job_store.register_worker(conn, owner="run-1", job_type="extract", pid=1, host="here", now=now_iso())
    try:
        status = client.get("/api/pipeline/status").json()
    finally:
        with svc.db.write() as conn:
            job_store.remove_worker(conn, "run-1")
    by_type = {t: counts for t, counts in status["queues"].items() if t not in ("memory", "summary")}
    assert status["queues"]["memory"]["pending"] == sum(c.get("pending", 0) for t, c in by_type.items()
                                                       if t != "session_summary") > 0
    assert status["queues"]["memory"]["completed"] >= 1  # the document's ingest
    assert status["workers"]["extract"] == {"running": True, "workers": 1}
    assert set(status["workers"]) == set(JOB_TYPES) and not status["workers"]["document_ingest"]["running"]
    assert status["traversal"]["enabled"] and status["traversal"]["lastRun"]  # recall walked the graph
    assert status["diagnostics"]["domains"] and {"remember", "recall"} <= status["latency"].keys()
