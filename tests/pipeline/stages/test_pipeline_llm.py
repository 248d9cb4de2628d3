"""The pipeline against a model over HTTP (a fake OpenAI-compatible server answering like the rules
provider): no call inside a write transaction, calls in flight follow extraction.concurrency."""

import threading

import apsw
import pytest

from signet_pipeline.models import RememberRequest
from signet_pipeline.providers.llm.http import OpenAICompatibleLlm
from signet_pipeline.stages.extraction.batch import run_jobs
from signet_pipeline.stages.hints import run_hint_jobs
from signet_pipeline.stages.structural import run_structural_jobs
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.queue import JobQueue
from signet_pipeline.write.remember import remember_many
from tests.fakes import FakeServer, RulesModel

MEMORIES = [f"Priya Sharma moved the {name} service to Kubernetes in March. The {name} team reviews alerts "
            f"every Monday. Dmitri Volkov decided to use Grafana for {name} dashboards." for name in
            ("billing", "search", "ingest", "payments", "auth", "mail", "media", "reports")]


def write_lock_holder(path: str):
    """A check for the fake model: fails when any connection holds the store's write lock while a
    model call is in progress (BEGIN IMMEDIATE with no busy wait answers BUSY then)."""
    seen: list[str] = []
    one_probe = threading.Lock()  # concurrent calls' probes would otherwise block each other

    def check(kind: str) -> None:
        with one_probe:
            _probe(kind)

    def _probe(kind: str) -> None:
        probe = apsw.Connection(path)
        probe.setbusytimeout(0)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
        except apsw.BusyError:
            seen.append(kind)
        finally:
            probe.close()

    return check, seen


def drain_all(svc, llm) -> None:
    queue = JobQueue(svc.db)
    while run_jobs(svc, queue, llm, 4).items or run_structural_jobs(svc, queue, llm, 4).leased \
            or run_hint_jobs(svc, queue, llm, 4).leased:
        pass


def test_the_detector_sees_a_held_write_lock(svc):
    check, seen = write_lock_holder(str(svc.db.path))
    check("idle")
    with svc.db.write():
        check("inside")
    assert seen == ["inside"]


def test_no_model_call_happens_inside_a_write_transaction(make_service):
    # One job at a time: the pipeline's only thread is the caller, so a lock held during a call is
    # the caller's own (with several, another job's short write would look like a violation).
    svc = make_service(memory={"pipelineV2": {"extraction": {"concurrency": 1}}})
    remember_many(svc, [RememberRequest(content=text) for text in MEMORIES])
    check, seen = write_lock_holder(str(svc.db.path))
    model = RulesModel(latency_s=0.01, check=check)
    with FakeServer(model.handler()) as server:
        drain_all(svc, OpenAICompatibleLlm(base_url=server.url, model="m"))
    assert {"extract", "decide", "hints", "classify"} <= set(model.calls), model.calls
    assert seen == []
    counts = job_store.counts_by_type(svc.db.reader())
    assert all(set(by_status) == {"completed"} for by_status in counts.values()), counts


@pytest.mark.parametrize("concurrency", [1, 4])
def test_calls_in_flight_follow_extraction_concurrency(make_service, concurrency):
    svc = make_service(memory={"pipelineV2": {"extraction": {"concurrency": concurrency}, "hints": {"enabled": False}}})
    remember_many(svc, [RememberRequest(content=text) for text in MEMORIES])
    model = RulesModel(latency_s=0.05)
    with FakeServer(model.handler()) as server:
        batch = run_jobs(svc, JobQueue(svc.db), OpenAICompatibleLlm(base_url=server.url, model="m"), 8)
    assert [i.outcome for i in batch.items] == ["completed"] * 8
    assert model.max_in_flight == concurrency
    # One extraction and one decision call per memory, however many facts it holds.
    assert model.calls == {"extract": 8, "decide": 8}


def test_with_a_model_hints_drain_beside_extraction_in_the_same_run(make_service, workspace, monkeypatch):
    import dagster as dg

    from signet_pipeline.defs.extraction.assets import memory_pipeline
    from signet_pipeline.defs.resources import LlmResource, SignetStoreResource

    monkeypatch.setenv("SIGNET_MEMORY__PIPELINEV2__EXTRACTION__CONCURRENCY", "2")
    svc = make_service()
    remember_many(svc, [RememberRequest(content=text) for text in MEMORIES])
    model = RulesModel(latency_s=0.1)
    with FakeServer(model.handler()) as server, dg.instance_for_test() as instance:
        result = dg.materialize([memory_pipeline], instance=instance, resources={
            "signet": SignetStoreResource(workspace=str(workspace)),
            "llm": LlmResource(provider="openai", model="m", base_url=server.url)})
    assert result.success
    counts = job_store.counts_by_type(svc.db.reader())
    assert all(set(by_status) == {"completed"} for by_status in counts.values()), counts
    assert model.max_in_flight > 2  # two lanes of two calls each: hints overlapped extraction
