"""Concurrent writers never lose a row and never see "database is locked"."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

import httpx

from signet_api.app import create_app
from signet_pipeline.store.db import scalar
from tests.conftest import settle
from tests.live_server import LiveServer

THREADS, PER_THREAD = 8, 500


def test_eight_threads_of_500_remembers_lose_nothing(svc):
    failures: list[str] = []

    def writer(thread_no: int) -> list[str]:
        ids = []
        with httpx.Client(base_url=server.url, timeout=60) as http:
            for i in range(PER_THREAD):
                r = http.post("/api/memory/remember",
                              json={"content": f"writer {thread_no} note {i}: item-{thread_no}-{i}"})
                if r.status_code != 200:
                    failures.append(f"{r.status_code} {r.text[:200]}")
                    continue
                body = r.json()
                assert body["deduped"] is False
                ids.append(body["id"])
        return ids

    with LiveServer(create_app(service=svc)) as server:
        with ThreadPoolExecutor(THREADS) as pool:
            results = list(pool.map(writer, range(THREADS)))
        assert not failures, failures[:3]
        all_ids = [i for ids in results for i in ids]
        assert len(all_ids) == len(set(all_ids)) == THREADS * PER_THREAD
        settle(svc)  # the last vectors are written behind the answers
        conn = svc.db.reader()
        assert scalar(conn, "SELECT count(*) FROM memories") == THREADS * PER_THREAD
        assert scalar(conn, "SELECT count(*) FROM embeddings") == THREADS * PER_THREAD
        assert scalar(conn, "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'writer'") \
            == THREADS * PER_THREAD
        assert scalar(conn, "SELECT count(*) FROM memory_jobs WHERE job_type = 'extract'") == THREADS * PER_THREAD
        # and every one of them is findable through the API
        with httpx.Client(base_url=server.url) as http:
            hit = http.post("/api/memory/recall", json={"query": "item-7-499", "limit": 1, "alpha": 0}).json()
            assert "item-7-499" in hit["results"][0]["content"]


def _other_process_writer(workspace: str, count: int) -> None:
    from signet_pipeline.config import load_settings
    from signet_pipeline.models import RememberRequest
    from signet_pipeline.service import MemoryService
    from signet_pipeline.write.remember import remember

    svc = MemoryService(load_settings(workspace, embedding={"provider": "none"}))
    try:
        for i in range(count):
            remember(svc, RememberRequest(content=f"from another process {i}"))
    finally:
        svc.close()


def test_a_second_process_writing_at_the_same_time_loses_nothing(svc):
    count = 300
    ctx = multiprocessing.get_context("spawn")
    other = ctx.Process(target=_other_process_writer, args=(str(svc.settings.workspace), count))
    other.start()
    from signet_pipeline.models import RememberRequest
    from signet_pipeline.write.remember import remember

    for i in range(count):
        remember(svc, RememberRequest(content=f"from the api process {i}"))
    other.join(timeout=120)
    assert other.exitcode == 0
    assert scalar(svc.db.reader(), "SELECT count(*) FROM memories") == 2 * count
    # vectors written by this process are searchable; rows from the keyword-only process too
    from signet_pipeline.models import RecallRequest
    from signet_pipeline.recall.search import recall_memories

    out = recall_memories(svc, RecallRequest(query="another process 17", limit=50))
    assert any(r.content == "from another process 17" for r in out.results)
