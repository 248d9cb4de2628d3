"""Write-behind embedding: the API's remember answers after the row commit, the vector follows on
the writer thread; a later read waits for the vectors acknowledged before it, and a recall scores
its agent's unwritten ones itself."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import apsw
import pytest
from fastapi.testclient import TestClient

from signet_api.app import create_app
from signet_pipeline.models import RecallRequest, RememberRequest
from signet_pipeline.providers.embeddings.base import EmbeddingProvider
from signet_pipeline.recall.search import recall_memories
from signet_pipeline.store.db import scalar
from signet_pipeline.write.remember import remember_many


class GatedEmbedder(EmbeddingProvider):
    """The real embedder behind a gate: calls block until the test opens it; records batch sizes."""

    def __init__(self, inner: EmbeddingProvider):
        super().__init__()
        self.inner, self.name, self.model = inner, inner.name, inner.model
        self.gate, self.batches = threading.Event(), []

    @property
    def dimensions(self):
        return self.inner.dimensions

    def _embed(self, texts):
        self.gate.wait(30)
        self.batches.append(len(texts))
        return self.inner._embed(texts)


@pytest.fixture
def gated_api(make_service, embedder):
    """(service, its gated embedder, an API client); the gate is open until a test shuts it."""
    inner = GatedEmbedder(embedder)
    inner.gate.set()
    svc = make_service(embedder_override=inner)
    with TestClient(create_app(service=svc)) as client:
        inner.batches.clear()
        yield svc, inner, client


def vectors(svc) -> int:
    return scalar(svc.db.reader(), "SELECT count(*) FROM embeddings")


def test_remember_answers_before_its_vector_and_a_recall_finds_it_by_meaning(gated_api):
    svc, gated, client = gated_api
    gated.gate.clear()  # from now on the writer's provider call hangs until the gate opens
    body = client.post("/api/memory/remember", json={"content": "The spare key hangs behind the garage door"}).json()
    assert body["embedded"] is True and vectors(svc) == 0  # answered; the vector is on its way
    with ThreadPoolExecutor(1) as pool:
        pending = pool.submit(client.post, "/api/memory/recall", json={"query": "where is the key kept"})
        time.sleep(0.3)
        assert not pending.done()  # the recall embeds the memory with its query: not while the gate is shut
        gated.gate.set()
        hits = pending.result().json()["results"]
    assert svc.embed_behind.settle() and vectors(svc) == 1
    hit = next(h for h in hits if h["id"] == body["id"])
    assert hit["source"] in ("vector", "hybrid")  # found by meaning too: the recall saw the vector


def test_a_burst_of_remembers_shares_one_provider_call(gated_api):
    svc, gated, client = gated_api
    gated.gate.clear()
    client.post("/api/memory/remember", json={"content": "Memory zero of the burst"})
    for i in range(1, 6):  # queued while the first call hangs
        client.post("/api/memory/remember", json={"content": f"Memory {i} of the burst about topic {i}"})
    gated.gate.set()
    assert svc.embed_behind.settle()
    assert gated.batches == [1, 5] and vectors(svc) == 6


def test_a_memory_forgotten_before_its_vector_gets_none(gated_api):
    svc, gated, client = gated_api
    gated.gate.clear()
    body = client.post("/api/memory/remember", json={"content": "A note that is forgotten at once"}).json()
    with svc.db.write() as conn:  # forgotten while the vector is computed (the API would wait for it)
        conn.execute("UPDATE memories SET is_deleted = 1 WHERE id = ?", (body["id"],))
    gated.gate.set()
    assert svc.embed_behind.settle()
    assert vectors(svc) == 0


def test_closing_the_service_writes_what_is_pending(gated_api, embedder):
    svc, gated, client = gated_api
    gated.gate.clear()
    client.post("/api/memory/remember", json={"content": "Written on the way out"})
    threading.Timer(0.2, gated.gate.set).start()
    svc.embed_behind.close()
    assert vectors(svc) == 1
    assert scalar(svc.db.reader(), "SELECT embedding_model FROM memories") == embedder.model


class SteppedEmbedder(GatedEmbedder):
    """Each call of the write-behind thread waits for its own step, so a test decides when each
    batch lands; query embeddings pass."""

    def __init__(self, inner: EmbeddingProvider):
        super().__init__(inner)
        self.steps = threading.Semaphore(0)
        self.calls = threading.Semaphore(0)  # released as each writer call starts

    def _embed(self, texts):
        if threading.current_thread().name != "signet-embed-behind":
            return self.inner._embed(texts)
        self.calls.release()
        assert self.steps.acquire(timeout=30)
        self.batches.append(len(texts))
        return self.inner._embed(texts)


def test_a_recall_finds_its_own_unwritten_memory_by_meaning_without_waiting(make_service, embedder):
    """The writer is stuck on a vector: the agent that wrote the memory still finds it by meaning
    (its recall embeds it with the query), and nobody's recall waits for the writer."""
    stepped = SteppedEmbedder(embedder)
    svc = make_service(embedder_override=stepped)
    with TestClient(create_app(service=svc)) as client:
        mine = client.post("/api/memory/remember", json={"content": "The boiler is serviced every October",
                                                          "agentId": "ana", "visibility": "private"}).json()
        assert stepped.calls.acquire(timeout=10)  # the writer holds the vector, waiting for its step
        query = {"query": "heating maintenance schedule", "agentId": "ana"}
        hits = client.post("/api/memory/recall", json=query).json()["results"]
        assert vectors(svc) == 0  # answered while the vector is still unwritten
        hit = next(h for h in hits if h["id"] == mine["id"])
        assert hit["source"] in ("vector", "hybrid")  # "heating maintenance" shares no word with it: by meaning
        other = client.post("/api/memory/recall", json={**query, "agentId": "bob"}).json()["results"]
        assert mine["id"] not in {h["id"] for h in other}  # another agent's private memory stays private
        stepped.steps.release()
        assert svc.embed_behind.settle() and vectors(svc) == 1


def test_a_recall_with_many_unwritten_does_not_wait_for_their_commit(make_service, embedder):
    """One agent for many writers has more unwritten vectors than a recall embeds itself; while another
    process (a pipeline run) holds the write lock, the embedded batch cannot commit, and the recall
    scores it from the writer instead of waiting for the commit (it used to wait out the settle bound
    and then miss the memories by meaning)."""
    stepped = SteppedEmbedder(embedder)
    svc = make_service(embedder_override=stepped)
    holder = apsw.Connection(str(svc.db.path))
    with TestClient(create_app(service=svc)) as client:
        written = remember_many(svc, [RememberRequest(content=f"Note {i}: the boiler is serviced every October",
                                                      agentId="ana") for i in range(6)], behind=True)
        assert svc.embed_behind.unwritten("ana") is None  # too many to embed with the query
        assert stepped.calls.acquire(timeout=10)  # the writer is about to embed them
        holder.execute("BEGIN IMMEDIATE")  # the run's write transaction
        try:
            stepped.steps.release()  # embedded now; the commit waits for the lock
            body = client.post("/api/memory/recall", json={"query": "heating maintenance schedule",
                                                           "agentId": "ana"}).json()
            assert vectors(svc) == 0  # answered while the vectors still wait for the write lock
        finally:
            holder.execute("ROLLBACK")
    found = {h["id"]: h["source"] for h in body["results"]}
    assert {r.id for r in written} <= set(found)
    assert set(found.values()) <= {"vector", "hybrid"}  # no word shared with the query: by meaning
    assert svc.embed_behind.settle() and vectors(svc) == 6


def test_a_recall_embeds_the_waiting_vectors_itself_and_the_writer_writes_them(make_service, embedder):
    """The writer is busy with an earlier batch; the recall takes the vectors still queued behind it
    (its agent's and others'), embeds them with its query in one call and hands them back: the writer
    writes them without embedding them again, and the recall waits for no batch after its own start."""
    stepped = SteppedEmbedder(embedder)
    svc = make_service(embedder_override=stepped)
    writer = svc.embed_behind
    remember_many(svc, [RememberRequest(content="The first note, in the writer's hands", agentId="ana")], behind=True)
    assert stepped.calls.acquire(timeout=10)  # batch 1 is in flight
    queued = [remember_many(svc, [RememberRequest(content=f"Note {i}: the boiler is serviced every October",
                                                  agentId="ana")], behind=True)[0] for i in range(6)]
    assert writer.unwritten("ana") is None
    with ThreadPoolExecutor(1) as pool:
        recall = pool.submit(recall_memories, svc, RecallRequest(query="heating maintenance schedule", agentId="ana"))
        time.sleep(0.3)
        assert not recall.done()  # waiting for batch 1, which it cannot take over
        assert writer.unwritten("ana") is None and len(writer._ready) == 6  # the queue, embedded by the recall
        stepped.steps.release()
        found = {hit.id for hit in recall.result(timeout=10).results}
    assert {m.id for m in queued} <= found
    assert writer.settle(timeout=10) and vectors(svc) == 7
    assert stepped.batches == [1]  # the writer embedded its own batch only


def test_recalls_taking_vectors_from_a_busy_writer_lose_none_and_find_their_own(make_service):
    """Writers and recalls of one agent at once: every recall finds the memory its thread remembered
    just before (read your writes), and every memory ends with exactly one vector."""
    svc = make_service()
    writer = svc.embed_behind
    writer.batch = 4  # small batches, so recalls meet a writer busy with one and a queue behind it
    missed: list[str] = []

    def client(n: int) -> list[str]:
        ids = []
        for i in range(12):
            text = f"Client {n} note {i}: the {['boiler', 'garden', 'bicycle', 'piano'][n]} needs attention {i}"
            [memory] = remember_many(svc, [RememberRequest(content=text, agentId="shared")], behind=True)
            ids.append(memory.id)
            if i % 3 == 2:
                hits = recall_memories(svc, RecallRequest(query=text, agentId="shared", limit=10)).results
                if memory.id not in {h.id for h in hits}:
                    missed.append(memory.id)
        return ids

    with ThreadPoolExecutor(4) as pool:
        written = [mid for ids in pool.map(client, range(4)) for mid in ids]
    assert not missed
    assert writer.settle(timeout=30) and not writer.pending
    assert vectors(svc) == len(written) == 48
    assert scalar(svc.db.reader(), "SELECT count(*) FROM memories WHERE embedding_model IS NULL") == 0


def test_other_reads_wait_for_earlier_vectors_not_for_a_stream_of_later_ones(make_service, embedder):
    """Under a steady stream of remembers a read waits for the batch holding what came before it,
    then answers while later vectors are still on their way (it used to wait for the stream to stop)."""
    stepped = SteppedEmbedder(embedder)
    svc = make_service(embedder_override=stepped)
    with TestClient(create_app(service=svc)) as client:
        first = client.post("/api/memory/remember", json={"content": "The boiler is serviced every October"}).json()
        assert stepped.calls.acquire(timeout=10)
        with ThreadPoolExecutor(1) as pool:
            read = pool.submit(client.get, f"/api/memory/{first['id']}")
            time.sleep(0.2)
            client.post("/api/memory/remember", json={"content": "The chimney is swept in spring"})  # after the read
            assert not read.done()  # the read waits for the first vector
            stepped.steps.release()  # the first vector lands; the second is still to come
            assert read.result(timeout=10).status_code == 200
            assert stepped.calls.acquire(timeout=10)  # the second call has started and is waiting
            assert vectors(svc) == 1
            stepped.steps.release()
        assert svc.embed_behind.settle() and vectors(svc) == 2


def test_settle_covers_a_submission_split_across_batches(make_service, embedder):
    """A submission larger than one batch is settled only when all its batches are written."""
    stepped = SteppedEmbedder(embedder)
    svc = make_service(embedder_override=stepped)
    writer = svc.embed_behind
    writer.batch = 2

    remember_many(svc, [RememberRequest(content=f"Split submission fact number {i} about gardens") for i in range(5)],
                  behind=True)
    stepped.steps.release()  # the first batch of 2
    assert not writer.settle(timeout=0.5)  # 3 of the submission still to write
    stepped.steps.release(2)
    assert writer.settle(timeout=10) and vectors(svc) == 5
    assert stepped.batches == [2, 2, 1]


# -- reads first (service/reads_first.py) -----------------------------------------------------------


def test_a_remember_waits_for_a_recall_in_flight_and_goes_on_when_it_ends(make_service):
    svc = make_service(search={"reads_first_max_wait_ms": 1000})
    with ThreadPoolExecutor(1) as pool:
        with svc.reads_first.reading():  # a recall is running
            started = time.perf_counter()
            written = pool.submit(remember_many, svc, [RememberRequest(content="The gate code is 4312")], behind=True)
            time.sleep(0.3)
            assert not written.done() and scalar(svc.db.reader(), "SELECT count(*) FROM memories") == 0
        assert written.result(timeout=10)[0].id  # the recall ended: the remember goes on at once
        assert time.perf_counter() - started < 0.3 + 0.7  # well before its own bound


def test_a_remember_waits_no_longer_than_the_bound_under_a_stream_of_recalls(make_service):
    svc = make_service(search={"reads_first_max_wait_ms": 100})
    with ThreadPoolExecutor(1) as pool, svc.reads_first.reading():  # a recall that never ends
        started = time.perf_counter()
        [result] = pool.submit(remember_many, svc, [RememberRequest(content="The gate code is 4312")],
                               behind=True).result(timeout=10)
        assert time.perf_counter() - started >= 0.2  # it did wait, at each of its two checkpoints
        assert scalar(svc.db.reader(), "SELECT count(*) FROM memories WHERE id = ?", (result.id,)) == 1


def test_a_recall_waiting_for_the_embedder_does_not_hold_the_embedder_back(make_service):
    """A recall that must settle the write-behind embedder (its agent has many unwritten vectors)
    would otherwise wait the whole bound for an embedder that waits for it."""
    svc = make_service(search={"reads_first_max_wait_ms": 1000})
    with svc.reads_first.reading():
        remember_many(svc, [RememberRequest(content=f"Unwritten note {i} about the allotment") for i in range(6)],
                      behind=True)
        assert svc.embed_behind.settle(timeout=0.5) and vectors(svc) == 6


def test_the_gate_off_lets_writes_through_during_a_recall(make_service):
    svc = make_service(search={"reads_first_max_wait_ms": 0})
    with ThreadPoolExecutor(1) as pool, svc.reads_first.reading():
        written = pool.submit(remember_many, svc, [RememberRequest(content="The gate code is 4312")], behind=True)
        assert written.result(timeout=0.5)[0].id
