from tests.conftest import remember


def test_health_has_the_wire_contract_shape(client):
    remember(client, "something to extract later")
    health = client.get("/health").json()
    assert health["status"] == "healthy"
    for key in ("uptime", "pid", "version", "port", "agentsDir", "db", "shuttingDown", "pipeline", "resources"):
        assert key in health
    assert health["db"] is True and health["shuttingDown"] is False
    assert set(health["pipeline"]) >= {"extractionRunning", "extractionStalled", "extractionPending",
                                       "extractionBackoffMs"}
    assert health["pipeline"]["extractionPending"] == 1
    assert health["pipeline"]["status"] == "absent"  # `signet serve` alone on a store no pipeline ever drained


def test_status_has_the_fields_signet_status_reads(client, svc):
    status = client.get("/api/status").json()
    for key in ("pid", "uptime", "version", "host", "bindHost", "networkMode", "agentsDir", "memoryDb", "pipelineV2",
                "pipeline", "providerResolution", "embedding"):
        assert key in status
    assert status["memoryDb"] == str(svc.settings.db_path) and status["networkMode"] == "local"
    assert set(status["pipeline"]["extraction"]) >= {"running", "overloaded"}
    assert set(status["providerResolution"]["extraction"]) >= {"configured", "effective", "status", "degraded",
                                                               "reason"}
    assert status["embedding"] == {"provider": "onnx", "model": "all-MiniLM-L6-v2", "available": True}


def test_embeddings_status(client):
    remember(client, "one vector")
    body = client.get("/api/embeddings/status").json()
    assert (body["provider"], body["model"], body["available"], body["dimensions"]) == ("onnx", "all-MiniLM-L6-v2",
                                                                                        True, 384)
    assert body["checkedAt"].endswith("Z") and body["index"]["vectors"] == 1


def test_openapi_docs_are_served(client):
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/memory/remember", "/api/memory/recall", "/api/memories", "/api/memory/{memory_id}",
                 "/api/memory/{memory_id}/history", "/memory/search", "/memory/similar", "/health", "/api/status",
                 "/api/embeddings/status", "/api/memory/jobs/{job_id}", "/api/memory/search"):
        assert path in paths, path


def test_unknown_routes_and_methods_use_the_error_shape(client):
    missing = client.get("/api/nope")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    wrong = client.get("/api/memory/remember")
    assert wrong.status_code in (404, 405) and "error" in wrong.json()


def test_docs_pages_load_every_asset_from_this_service(client):
    import re

    for page in ("/docs", "/redoc"):
        html = client.get(page).text
        urls = re.findall(r"""(?:src|href)=["']([^"']+)["']""", html) + re.findall(r"""url: ?['"]([^'"]+)['"]""", html)
        assert urls, page
        for url in urls:
            assert url.startswith("/"), f"{page} loads {url} from another host"
            assert client.get(url).status_code == 200, url
