"""GET /api/embeddings: pagination, optional vectors, visibility, configured model only, bad params."""

import numpy as np

from signet_pipeline.models import RememberRequest
from signet_pipeline.write.remember import remember_many
from tests.conftest import remember

FIELDS = {"id", "content", "text", "who", "importance", "type", "tags", "sourceType", "sourceId", "createdAt"}


def test_export_shape_and_optional_vectors(client, svc):
    stored = remember(client, "[ops,db]: The staging database runs PostgreSQL 16", who="claude-code", importance=0.6)
    page = client.get("/api/embeddings").json()
    assert page == {"embeddings": page["embeddings"], "count": 1, "total": 1, "limit": 600, "offset": 0,
                    "hasMore": False}
    (item,) = page["embeddings"]
    assert set(item) == FIELDS
    assert item["id"] == stored["id"] and item["content"] == item["text"] == "The staging database runs PostgreSQL 16"
    assert (item["who"], item["importance"], item["tags"], item["sourceType"], item["sourceId"]) == \
        ("claude-code", 0.6, ["ops", "db"], "memory", stored["id"])

    (with_vector,) = client.get("/api/embeddings", params={"vectors": "true"}).json()["embeddings"]
    assert set(with_vector) == FIELDS | {"vector"} and len(with_vector["vector"]) == 384
    expected = svc.embedder.embed_one("The staging database runs PostgreSQL 16")
    assert np.allclose(with_vector["vector"], expected, atol=1e-3)  # stored as float16


def test_pagination_newest_first_with_has_more(client, svc):
    ids = [r.id for r in remember_many(svc, [RememberRequest(content=f"Service {i} listens on port {3000 + i}",
                                                             createdAt=f"2025-01-01T00:{i // 60:02d}:{i % 60:02d}Z")
                                             for i in range(70)])]
    first = client.get("/api/embeddings", params={"limit": 50}).json()
    assert (first["count"], first["total"], first["limit"], first["hasMore"]) == (50, 70, 50, True)
    second = client.get("/api/embeddings", params={"limit": 50, "offset": 50}).json()
    assert (second["count"], second["offset"], second["hasMore"]) == (20, 50, False)
    exported = [e["id"] for e in first["embeddings"] + second["embeddings"]]
    assert exported == ids[::-1]


def test_only_visible_memories_with_a_vector_of_the_configured_model(client, svc):
    remember(client, "Shared fact about the release train")
    remember(client, "Private note of another agent", agentId="other", visibility="private")
    stale = remember(client, "A vector made by a retired model")
    with svc.db.write() as conn:
        conn.execute("UPDATE embeddings SET model = 'retired' WHERE source_id = ?", (stale["id"],))
    page = client.get("/api/embeddings").json()
    assert [e["content"] for e in page["embeddings"]] == ["Shared fact about the release train"]
    assert page["total"] == 1
    as_other = client.get("/api/embeddings", headers={"x-signet-agent-id": "other"}).json()
    assert {e["content"] for e in as_other["embeddings"]} == {"Shared fact about the release train",
                                                              "Private note of another agent"}


def test_bad_parameters_are_json_errors(client):
    for params in ({"limit": 0}, {"offset": -1}, {"offset": 100_001}, {"vectors": "maybe"}, {"limit": "many"}):
        response = client.get("/api/embeddings", params=params)
        assert response.status_code == 422, params
        error = response.json()["error"]
        assert error["code"] == "invalid_request" and error["message"], params
    assert client.get("/api/embeddings", params={"limit": 5000, "offset": 100_000}).status_code == 200
    # The spec's page range (50-5000): values outside it are clamped, not refused.
    assert client.get("/api/embeddings", params={"limit": 9999}).json()["limit"] == 5000
    assert client.get("/api/embeddings", params={"limit": 10}).json()["limit"] == 50
