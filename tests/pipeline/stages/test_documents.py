"""Documents: the URL fetcher against a local server (HTML, oversized, slow, wrong type), chunking,
ingest through the queue and the Dagster asset, status through the API, delete."""

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import dagster as dg
import pytest

from signet_pipeline.defs.documents.assets import document_ingest
from signet_pipeline.defs.documents.sensors import document_jobs_sensor
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.errors import FetchError
from signet_pipeline.providers.fetch import chunk_text, fetch_url, html_to_text
from signet_pipeline.stages.documents import run_document_jobs
from signet_pipeline.store.queue import JobQueue

ARTICLE = ("<html><head><title>Deploy guide</title><style>p{color:red}</style></head><body>"
           "<h1>Deploys</h1><p>Production deploys run every Tuesday after the planning meeting.</p>"
           "<script>track()</script><p>Rollbacks use the blue &amp; green switch.</p></body></html>")
PAGES = {
    "/article": (200, "text/html; charset=utf-8", ARTICLE.encode()),
    "/notes.txt": (200, "text/plain", ("The staging database runs PostgreSQL 16. " * 200).encode()),
    "/big": (200, "text/plain", b"x" * 5000),
    "/image": (200, "image/png", b"\x89PNG...."),
    "/missing": (404, "text/plain", b"nope"),
}


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/slow":
            time.sleep(2)
        status, ctype, body = PAGES.get(self.path, (200, "text/plain", b"slow but small"))
        self.send_response(status)
        self.send_header("content-type", ctype)
        if self.path != "/big":  # /big streams without a length: the cap must hold while reading
            self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def svc(make_service):
    """The test site is on loopback: this store may fetch non-public addresses."""
    return make_service(memory={"pipelineV2": {"documents": {"allowPrivateUrls": True}}})


@pytest.fixture(scope="module")
def site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_html_becomes_text_and_title():
    text, title = html_to_text(ARTICLE)
    assert title == "Deploy guide"
    assert text == ("Deploys\nProduction deploys run every Tuesday after the planning meeting.\n"
                    "Rollbacks use the blue & green switch.")


def test_fetch_guards(site):
    with pytest.raises(FetchError) as blocked:  # the default: no fetches of this machine or private networks
        fetch_url(f"{site}/article", max_bytes=10_000)
    assert blocked.value.code == "fetch_blocked"
    page = fetch_url(f"{site}/article", max_bytes=10_000, allow_private=True)
    assert page.title == "Deploy guide" and "track()" not in page.content and page.content_type == "text/html"
    for path, limit, code in [("/big", 1000, "fetch_too_large"), ("/notes.txt", 1000, "fetch_too_large"),
                              ("/image", 10_000, "fetch_type"), ("/missing", 10_000, "fetch_rejected")]:
        with pytest.raises(FetchError) as exc:
            fetch_url(f"{site}{path}", max_bytes=limit, allow_private=True)
        assert exc.value.code == code, path
    with pytest.raises(FetchError) as slow:
        fetch_url(f"{site}/slow", max_bytes=10_000, timeout_s=0.5, allow_private=True)
    assert slow.value.code == "fetch_timeout"


def test_chunks_overlap_and_cover_the_text():
    text = " ".join(f"word{i}" for i in range(600))
    chunks = chunk_text(text, size=500, overlap=100)
    assert len(chunks) > 1 and all(len(c) <= 500 for c in chunks)
    assert all(a[-30:].split()[-1] in b for a, b in zip(chunks, chunks[1:]))  # consecutive chunks share words
    assert "word0" in chunks[0] and "word599" in chunks[-1]
    assert chunk_text("short text", size=500, overlap=100) == ["short text"]


def test_a_url_document_is_ingested_with_visible_status(client, svc, site):
    queued = client.post("/api/documents", json={"url": f"{site}/article"})
    assert queued.status_code == 202 and queued.json()["status"] == "queued"
    doc_id = queued.json()["id"]
    batch = run_document_jobs(svc, JobQueue(svc.db), 10)
    assert not batch.failed and batch.reports[0].chunks == 1
    doc = client.get(f"/api/documents/{doc_id}").json()
    assert (doc["status"], doc["title"], doc["chunkCount"], doc["memoryCount"]) == ("done", "Deploy guide", 1, 1)
    chunk = client.get(f"/api/documents/{doc_id}/chunks").json()["chunks"][0]
    memory = client.get(f"/api/memory/{chunk['memoryId']}").json()
    assert (memory["type"], memory["importance"], memory["tags"]) == ("document_chunk", 0.3, "Deploy guide")
    hits = client.post("/api/memory/recall", json={"query": "when do production deploys run"}).json()["results"]
    assert hits[0]["id"] == chunk["memoryId"]


def test_a_text_document_is_chunked_and_deleted_with_its_chunks(client, svc, make_service):
    text = ("Section one explains the retry policy of the billing service in detail. " * 30
            + "Section two covers the on-call rotation and escalation. " * 30)
    doc_id = client.post("/api/documents", json={"content": text, "title": "Runbook"}).json()["id"]
    run_document_jobs(svc, JobQueue(svc.db), 10)
    doc = client.get(f"/api/documents/{doc_id}").json()
    assert doc["status"] == "done" and doc["chunkCount"] >= 2 and doc["memoryCount"] >= 2
    listed = client.get("/api/documents", params={"status": "done"}).json()
    assert listed["total"] == 1 and listed["documents"][0]["id"] == doc_id
    gone = client.delete(f"/api/documents/{doc_id}").json()
    assert gone == {"id": doc_id, "status": "deleted", "memoriesDeleted": doc["memoryCount"],
                    "memoriesRemoved": doc["memoryCount"]}
    assert client.get(f"/api/documents/{doc_id}").status_code == 404
    assert client.post("/api/memory/recall", json={"query": "billing retry policy"}).json()["results"] == []


def test_a_failed_fetch_marks_the_document_and_retries_only_what_may_succeed(client, svc, site):
    wrong_type = client.post("/api/documents", json={"url": f"{site}/image"}).json()["id"]
    batch = run_document_jobs(svc, JobQueue(svc.db), 10)
    assert not batch.failed and batch.reports[0].status == "failed"  # permanent: the job completes
    doc = client.get(f"/api/documents/{wrong_type}").json()
    assert doc["status"] == "failed" and "image/png" in doc["error"]
    unreachable = client.post("/api/documents", json={"url": "http://127.0.0.1:9/gone"}).json()["id"]
    retried = run_document_jobs(svc, JobQueue(svc.db), 10)
    assert len(retried.failed) == 1  # a network error may pass: the job is retried
    assert client.get(f"/api/documents/{unreachable}").json()["status"] == "failed"


@pytest.mark.parametrize("body", [{}, {"url": "ftp://x/y"}, {"url": "http://x", "content": "both"},
                                  {"content": ""}, {"url": "not a url"}])
def test_bad_document_requests(client, body):
    response = client.post("/api/documents", json=body)
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request"


def test_sensor_and_asset_ingest(client, svc, workspace, site, monkeypatch):
    monkeypatch.setenv("SIGNET_MEMORY__PIPELINEV2__DOCUMENTS__ALLOW_PRIVATE_URLS", "true")
    client.post("/api/documents", json={"url": f"{site}/notes.txt"})
    signet = SignetStoreResource(workspace=str(workspace))
    with dg.instance_for_test() as instance, dg.build_sensor_context(instance=instance,
                                                                     resources={"signet": signet}) as ctx:
        request = document_jobs_sensor(ctx).run_requests[0]
    done = dg.materialize([document_ingest], resources={"signet": signet}, run_config=request.run_config)
    meta = done.get_asset_materialization_events()[0].event_specific_data.materialization.metadata
    assert meta["documents"].value == 1 and meta["chunks"].value >= 4 and meta["failures"].value == 0


def test_deleting_a_document_keeps_memories_it_did_not_create(client, svc):
    own = client.post("/api/memory/remember", json={"content": "Backups run nightly at two"}).json()["id"]
    first = client.post("/api/documents", json={"content": "Backups run nightly at two"}).json()["id"]
    second = client.post("/api/documents", json={"content": "Restores are tested monthly"}).json()["id"]
    run_document_jobs(svc, JobQueue(svc.db), 10)
    chunk = client.get(f"/api/documents/{first}/chunks").json()["chunks"][0]
    assert chunk["memoryId"] == own  # linked, not copied
    assert client.delete(f"/api/documents/{first}").json()["memoriesDeleted"] == 0
    assert client.get(f"/api/memory/{own}").status_code == 200  # the user's own memory stays
    agent = client.delete(f"/api/documents/{second}", headers={"x-signet-actor-type": "agent",
                                                              "x-signet-agent-id": "someone-else"})
    assert agent.status_code in (403, 404)
    assert client.delete(f"/api/documents/{second}").json()["memoriesDeleted"] == 1
