from signet_pipeline.errors import ProviderError
from signet_pipeline.providers.embeddings.base import EmbeddingProvider
from tests.conftest import recall, remember


def test_remember_stores_all_fields_and_returns_the_spec_shape(client):
    body = remember(client, "User prefers vim keybindings", who="claude-code", project="my-project",
                    importance=0.9, tags="preference,editor", sourceType="manual", sourceId="ext-1",
                    sourcePath="/src/notes.md", runtimePath="memory/MEMORY.md", idempotencyKey="key-1",
                    createdAt="2026-02-21T10:00:00Z", occurredAt="2026-02-20T15:00:00Z", agentId="alice",
                    visibility="global")
    assert body["id"] == body["memoryId"]
    assert body | {} == {**body, "type": "preference", "tags": "preference,editor", "pinned": False,
                         "importance": 0.9, "content": "User prefers vim keybindings", "embedded": True,
                         "deduped": False}
    got = client.get(f"/api/memory/{body['id']}").json()
    assert got["who"] == "claude-code" and got["project"] == "my-project"
    assert got["source_id"] == "ext-1" and got["source_type"] == "manual"
    assert got["sourcePath"] == got["source_path"] == "/src/notes.md"
    assert got["runtimePath"] == "memory/MEMORY.md" and got["idempotencyKey"] == "key-1"
    assert got["created_at"] == "2026-02-21T10:00:00.000Z"
    assert got["occurred_at"] == "2026-02-20T15:00:00.000Z"
    assert got["agent_id"] == "alice" and got["visibility"] == "global"
    assert got["version"] == 1 and got["is_deleted"] == 0 and got["access_count"] == 0
    assert got["embedding_model"] == "all-MiniLM-L6-v2" and got["extraction_status"] == "pending"


def test_prefixes_set_pinned_importance_and_tags_and_body_overrides(client):
    body = remember(client, "critical: [project,auth]: never expose tokens")
    assert (body["content"], body["pinned"], body["importance"], body["tags"]) == (
        "never expose tokens", True, 1.0, "project,auth")
    assert body["type"] == "rule"
    body = remember(client, "critical: [a,b]: rotate keys monthly", pinned=False, tags=["ops"], importance=0.4,
                    type="procedural")
    assert (body["pinned"], body["tags"], body["importance"], body["type"]) == (False, "ops", 0.4, "procedural")


def test_dedup_ignores_case_whitespace_and_trailing_punctuation(client):
    first = remember(client, "The kettle is in the left cupboard.")
    for variant in ("the kettle is in the left cupboard", "  THE kettle   is in the left cupboard!! "):
        again = remember(client, variant)
        assert again["deduped"] is True and again["id"] == first["id"]
    assert client.get("/api/memories").json()["stats"]["total"] == 1


def test_idempotency_key_returns_the_existing_row(client):
    first = remember(client, "imported line one", idempotencyKey="import-7")
    again = remember(client, "imported line one, edited later", idempotencyKey="import-7")
    assert again["deduped"] is True and again["id"] == first["id"]


def test_remember_writes_history_and_enqueues_one_extract_job(client, svc):
    body = remember(client, "Anna moved to Lisbon in 2024")
    history = client.get(f"/api/memory/{body['id']}/history").json()
    assert history["memoryId"] == body["id"] and history["count"] == 1
    event = history["history"][0]
    assert event["event"] == "created" and event["newContent"] == "Anna moved to Lisbon in 2024"
    assert event["oldContent"] is None and event["requestId"]
    job = client.get(f"/api/memory/jobs/{body['jobId']}").json()
    assert (job["status"], job["jobType"], job["memoryId"]) == ("pending", "extract", body["id"])
    # enqueue dedup: one live job per memory and type
    from signet_pipeline.store import jobs
    with svc.db.write() as conn:
        again, created = jobs.enqueue(conn, job_type="extract", memory_id=body["id"], now="t")
    assert (again, created) == (body["jobId"], False)


def test_pipeline_disabled_enqueues_nothing(make_service):
    from fastapi.testclient import TestClient

    from signet_api.app import create_app

    svc = make_service(memory={"pipelineV2": {"enabled": False}})
    with TestClient(create_app(service=svc)) as c:
        body = remember(c, "no pipeline here")
        assert body["jobId"] is None
        assert c.get(f"/api/memory/{body['id']}").json()["extraction_status"] == "none"


def test_invalid_bodies_get_422_with_a_readable_message(client):
    cases = [
        ({}, "content"),
        ({"content": ""}, "content"),
        ({"content": "   "}, "blank"),
        ({"content": "x", "importance": 2}, "importance"),
        ({"content": "x", "createdAt": "yesterday"}, "ISO 8601"),
        ({"content": "x", "visibility": "public"}, "visibility"),
        ({"content": "x", "validFrom": "2026-02-02", "validUntil": "2026-02-01"}, "validUntil"),
        ({"content": "x", "tags": [1, 2]}, "tags"),
        ({"content": "x", "type": "Not A Type!"}, "type"),
    ]
    for payload, needle in cases:
        response = client.post("/api/memory/remember", json=payload)
        assert response.status_code == 422, payload
        error = response.json()["error"]
        assert error["code"] == "invalid_request" and needle in error["message"], (payload, error)
    response = client.post("/api/memory/remember", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422 and "JSON" in response.json()["error"]["message"]


def test_content_that_is_only_a_prefix_is_a_400(client):
    response = client.post("/api/memory/remember", json={"content": "critical: [a]:  "})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "empty_content"


def test_mutations_frozen_returns_503(make_service):
    from fastapi.testclient import TestClient

    from signet_api.app import create_app

    svc = make_service(memory={"pipelineV2": {"mutationsFrozen": True}})
    with TestClient(create_app(service=svc)) as c:
        response = c.post("/api/memory/remember", json={"content": "blocked write"})
        assert response.status_code == 503 and response.json()["error"]["code"] == "mutations_frozen"


class FailingEmbedder(EmbeddingProvider):
    name, model = "ollama", "nomic-embed-text"

    @property
    def dimensions(self):
        return 384

    def _embed(self, texts):
        raise ProviderError("ollama: connection refused")


def test_embedding_failure_still_stores_a_keyword_searchable_memory(make_service):
    from fastapi.testclient import TestClient

    from signet_api.app import create_app

    svc = make_service(embedder_override=FailingEmbedder())
    with TestClient(create_app(service=svc)) as c:
        body = remember(c, "The spare key hangs behind the garage door")  # the vector fails behind the answer
        assert body["deduped"] is False
        assert remember(c, "The garage door code is 4711")["embedded"] is False  # known down: none on its way
        got = c.get(f"/api/memory/{body['id']}").json()
        assert got["embedding_model"] is None  # the refresh stage picks these up
        found = recall(c, "spare key garage")
        assert found["method"] == "keyword"
        assert body["id"] in [r["id"] for r in found["results"]]
        assert c.get("/api/embeddings/status").json()["available"] is False


def test_out_of_range_input_is_a_422_not_a_500(client):
    for stamp in ("0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-05:00", "0999-06-01"):
        r = client.post("/api/memory/remember", json={"content": "x", "createdAt": stamp})
        assert r.status_code == 422, (stamp, r.text)
        assert client.post("/api/memory/recall", json={"query": "x", "since": stamp}).status_code == 422
        assert client.get("/memory/search", params={"q": "x", "since": stamp}).status_code == 422
    assert client.get("/api/memory/jobs/99999999999999999999").status_code == 422
    assert client.get("/api/memories", params={"offset": 10**20}).status_code == 422


def test_empty_body_tags_keep_the_prefix_tags(client):
    assert remember(client, "[ops]: restart nightly", tags="")["tags"] == "ops"
