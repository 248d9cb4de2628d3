"""Drain runs: the loop's stop rules, the worker's heartbeat and death, and work that commits with
its job's completion or not at all."""

from datetime import UTC, datetime, timedelta

from signet_pipeline.models import RememberRequest
from signet_pipeline.ops.backlog import backlog
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.stages.drain.loop import DrainPolicy, Worker, drain, drain_lanes, release_dead_workers
from signet_pipeline.stages.extraction.batch import decide_batch, extract_batch, lease_batch, run_jobs, write_batch
from signet_pipeline.stages.hints import run_hint_jobs
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.db import scalar
from signet_pipeline.store.queue import EXTRACT, PROSPECTIVE_INDEX, JobQueue
from signet_pipeline.timeutil import to_iso
from signet_pipeline.write.remember import remember


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_drain_works_batches_until_idle_for_the_linger_then_stops():
    clock, queue = FakeClock(), [50, 50, 7]
    arrivals = {1.0: [3]}  # three new jobs arrive while the run lingers

    def step(limit: int) -> int:
        clock.now += 0.1
        for at, jobs in list(arrivals.items()):
            if clock.now >= at:
                queue.extend(jobs)
                del arrivals[at]
        return min(queue.pop(0), limit) if queue else 0

    report = drain(step, DrainPolicy(budget_s=60, idle_s=2, poll_s=0.5), batch_size=50, clock=clock,
                   sleep=clock.sleep)
    assert (report.jobs, report.batches, report.stopped) == (110, 4, "empty")
    assert 2.0 <= report.seconds <= 4.0


def test_drain_stops_lingering_when_another_run_waits_for_its_slot():
    clock, waiting = FakeClock(), []
    report = drain(lambda limit: 0, DrainPolicy(budget_s=60, idle_s=5, poll_s=0.5), batch_size=50, clock=clock,
                   sleep=lambda s: (clock.sleep(s), waiting.append(clock.now >= 1.0)),
                   yield_when=lambda: bool(waiting and waiting[-1]))
    assert report.stopped == "yielded" and 1.0 <= report.seconds < 2.0


def test_drain_stops_at_its_budget_and_at_max_jobs():
    clock = FakeClock()

    def busy(limit: int) -> int:
        clock.now += 1.0
        return limit

    budget = drain(busy, DrainPolicy(budget_s=10, idle_s=5), batch_size=20, clock=clock, sleep=clock.sleep)
    assert (budget.stopped, budget.batches) == ("budget", 10)
    capped = drain(busy, DrainPolicy(budget_s=100, idle_s=5, max_jobs=45), batch_size=20, clock=clock,
                   sleep=clock.sleep)
    assert (capped.stopped, capped.jobs, capped.batches) == ("max_jobs", 45, 3)


def test_past_its_budget_a_run_alone_drains_on_until_its_max_and_yields_to_a_waiting_run():
    clock, waiting = FakeClock(), []

    def busy(limit: int) -> int:
        clock.now += 1.0
        return limit

    soft = DrainPolicy(budget_s=10, idle_s=5, max_s=30)
    alone = drain(busy, soft, batch_size=20, clock=clock, sleep=clock.sleep, yield_when=lambda: False)
    assert (alone.stopped, alone.batches) == ("budget", 30)
    clock.now = 0.0
    other = drain(busy, soft, batch_size=20, clock=clock, sleep=clock.sleep,
                  yield_when=lambda: waiting.append(clock.now) or clock.now >= 15)
    assert (other.stopped, other.batches) == ("yielded", 15) and waiting[0] == 10  # asked only past the budget


def test_a_budget_an_operator_sets_in_the_run_config_is_a_hard_stop():
    from signet_pipeline.config_sections import WorkerConfig

    worker = WorkerConfig(run_budget_ms=120_000, run_max_ms=600_000)
    assert DrainPolicy.from_settings(worker).max_s == 600
    assert DrainPolicy.from_settings(worker, budget_s=30).max_s is None


def test_a_beating_worker_keeps_its_leases_and_a_silent_one_loses_them(svc):
    ids = [remember(svc, RememberRequest(content=f"Host {i} runs the nightly import")).jobId for i in range(3)]
    queue = JobQueue(svc.db, owner="run-live", lease_timeout_ms=10_000)
    with Worker(svc.db, EXTRACT, "run-live", beat_s=3600) as worker:
        queue.lease([EXTRACT], limit=2)
        with svc.db.write() as conn:  # an old lease, but its worker is alive: the beat renews it
            conn.execute("UPDATE memory_jobs SET leased_at = '2000-01-01T00:00:00.000Z' WHERE lease_owner = 'run-live'")
        worker.beat()
        assert queue.reap_stale_leases(EXTRACT) == 0
        assert release_dead_workers(svc.db) == []
        with svc.db.write() as conn:  # now it goes silent (kill -9)
            conn.execute("UPDATE queue_workers SET beat_at = '2000-01-01T00:00:00.000Z'")
        assert release_dead_workers(svc.db) == ["run-live"]
        assert {job_store.get(svc.db.reader(), i)["status"] for i in ids} == {"pending"}
        worker.beat()  # it was only paused: its next beat finds itself declared dead
        assert worker.alive is False
    assert job_store.workers(svc.db.reader()) == []


def test_a_worker_that_ends_mid_batch_releases_what_it_still_holds(svc):
    job_id = remember(svc, RememberRequest(content="The cache is flushed every hour")).jobId
    with Worker(svc.db, EXTRACT, "run-x", beat_s=3600):
        JobQueue(svc.db, owner="run-x").lease([EXTRACT])
    job = job_store.get(svc.db.reader(), job_id)
    assert (job["status"], job["lease_owner"], job["error"]) == ("pending", None, "worker stopped mid-job")


def test_facts_history_and_completion_commit_together_or_not_at_all(svc):
    source = remember(svc, RememberRequest(content="Priya Sharma maintains the billing service. "
                                                   "The billing service is written in Go."))
    rules, first = RulesLlm(), JobQueue(svc.db, owner="run-a")
    batch = decide_batch(svc, rules, extract_batch(svc, rules, lease_batch(svc, first, rules, 10)))
    with svc.db.write() as conn:  # run-a looked dead meanwhile; run-b took the job over
        job_store.release_owner(conn, "run-a", now="2030-01-01T00:00:00.000Z", error="silent")
    [taken] = JobQueue(svc.db, owner="run-b").lease([EXTRACT])
    write_batch(svc, first, batch)
    conn = svc.db.reader()
    assert [i.outcome for i in batch.items] == ["lost"]
    assert scalar(conn, "SELECT count(*) FROM memories WHERE source_memory_id = ?", (source.id,)) == 0
    assert scalar(conn, "SELECT count(*) FROM memory_history WHERE changed_by = 'pipeline-v2'") == 0
    assert job_store.get(conn, taken["id"])["lease_owner"] == "run-b"
    # Whoever holds the job next does it once, the facts committed with the completion.
    with svc.db.write() as conn:
        job_store.release_owner(conn, "run-b", now="2030-01-01T00:00:00.000Z", error="silent")
        conn.execute("UPDATE memory_jobs SET not_before = NULL")
    done = run_jobs(svc, JobQueue(svc.db, owner="run-c"), rules, 10)
    assert [i.outcome for i in done.items] == ["completed"]
    assert scalar(conn, "SELECT count(*) FROM memories WHERE source_memory_id = ?", (source.id,)) == 2
    assert scalar(conn, "SELECT count(*) FROM memory_history WHERE changed_by = 'pipeline-v2'") == 2
    job = job_store.get(conn, taken["id"])
    assert (job["status"], job["attempts"]) == ("completed", 3)


def test_a_lost_lease_rolls_back_only_its_memory_in_a_shared_write_transaction(svc):
    """write_batch writes several source memories per transaction, each in its own savepoint."""
    kept = remember(svc, RememberRequest(content="Ilse: I restore old violins near Bergen."))
    lost = remember(svc, RememberRequest(content="Oskar: I repair ferry engines in Turku."))
    rules, queue = RulesLlm(), JobQueue(svc.db, owner="run-a")
    batch = decide_batch(svc, rules, extract_batch(svc, rules, lease_batch(svc, queue, rules, 10)))
    with svc.db.write() as conn:  # the second memory's job was taken over meanwhile
        conn.execute("UPDATE memory_jobs SET lease_owner = 'run-b' WHERE id = ?", (lost.jobId,))
    write_batch(svc, queue, batch)
    conn = svc.db.reader()
    assert [(i.memory_id, i.outcome) for i in batch.items] == [(kept.id, "completed"), (lost.id, "lost")]
    derived = dict(conn.execute("SELECT source_memory_id, count(*) FROM memories WHERE source_memory_id IS NOT NULL "
                                "GROUP BY 1"))
    assert derived == {kept.id: 1}
    assert job_store.get(conn, lost.jobId)["status"] == "leased"


def test_hints_are_written_with_their_completion(svc):
    memory = remember(svc, RememberRequest(content="The staging cluster moves to Frankfurt in May"))
    queue = JobQueue(svc.db, owner="run-h")
    [job] = queue.lease([PROSPECTIVE_INDEX], limit=1)
    with svc.db.write() as conn:
        job_store.release_owner(conn, "run-h", now="2030-01-01T00:00:00.000Z", error="silent")
        conn.execute("UPDATE memory_jobs SET not_before = NULL")
    batch = run_hint_jobs(svc, JobQueue(svc.db, owner="run-h2"), RulesLlm(), 10)
    assert len(batch.reports) == 1 and batch.reports[0].written > 0
    hints = scalar(svc.db.reader(), "SELECT count(*) FROM memory_hints WHERE memory_id = ?", (memory.id,))
    assert hints == batch.reports[0].written
    assert job_store.get(svc.db.reader(), job["id"])["status"] == "completed"


def test_backlog_reports_depth_rate_and_eta_per_job_type(svc):
    for i in range(30):
        remember(svc, RememberRequest(content=f"Reminder {i}: rotate the API keys of service {i}"))
    before = backlog(svc.db)
    assert before.queues[EXTRACT].depth == 30 and before.queues[EXTRACT].due == 30
    assert before.queues[EXTRACT].etaS is None  # nothing has drained yet
    queue = JobQueue(svc.db)
    for job in queue.lease([EXTRACT], limit=25):
        queue.complete(job)
    with Worker(svc.db, EXTRACT, "run-view", beat_s=3600):
        after = backlog(svc.db)
    q = after.queues[EXTRACT]
    assert (q.depth, q.due, q.leased) == (5, 5, 0)
    assert q.ratePerS > 25 / 60 and abs(q.etaS - 5 / q.ratePerS) <= 0.1  # per second of work, not of the minute
    assert [w.owner for w in after.workers] == ["run-view"] and after.total.depth == 5 + 30  # + the hint jobs


def test_the_drain_rate_is_per_second_of_drain_work_not_of_the_window(client, svc):
    """400 jobs queued while no pipeline ran; two minutes later a drain did 200 in 8 s (25 jobs/s).
    Dividing by the ten-minute window said 0.3 jobs/s and ten minutes to go."""
    now = datetime.now(UTC)

    def at(seconds: float) -> str:
        return to_iso(now + timedelta(seconds=seconds))

    with svc.db.write() as conn:
        def job(memory_id: str, created: float, leased: float, done: float) -> None:
            job_id, _ = job_store.enqueue(conn, job_type=EXTRACT, now=at(created), memory_id=memory_id)
            [row] = job_store.lease(conn, job_types=[EXTRACT], now=at(leased), owner="run-0", ids=[job_id])
            job_store.complete(conn, row, now=at(done))

        job("long-ago", -900, -800, -700)  # outside the window
        job("trickle", -400, -398, -397.9)  # a lone job: 0.1 s of work, then idle
        for i in range(400):
            job_store.enqueue(conn, job_type=EXTRACT, now=at(-200), memory_id=f"backlog-{i}")
        for batch in range(4):  # from -80 s: batches of 50, a job every 40 ms, the next batch leased at once
            start = -80 + 2 * batch
            for j, row in enumerate(job_store.lease(conn, job_types=[EXTRACT], now=at(start), owner="run-1", limit=50)):
                job_store.complete(conn, row, now=at(start + 0.04 * (j + 1)))
    extract = client.get("/api/pipeline/status").json()["backlog"]["queues"][EXTRACT]
    rate = 201 / (0.1 + 200 * 0.04)
    assert extract["depth"] == 200 and extract["ratePerS"] == round(rate, 2)
    assert extract["etaS"] == round(200 / rate, 1)


def test_lanes_drain_at_once_and_report_together():
    import threading
    import time

    seen, lock = set(), threading.Lock()
    work = {"a": [5, 5], "b": [3]}

    def lane(name: str):
        def step(limit: int) -> int:
            with lock:
                seen.add(threading.current_thread().name.split("_")[0])
            time.sleep(0.01)
            return work[name].pop(0) if work[name] else 0
        return step

    report = drain_lanes([lane("a"), lane("b")], DrainPolicy(budget_s=10, idle_s=0.05, poll_s=0.01), batch_size=10)
    assert (report.jobs, report.batches, report.stopped) == (13, 3, "empty")
    assert len(seen) == 2  # the second lane ran on its own thread


def _hint_jobs(svc, contents: list[str]) -> list[str]:
    return [remember(svc, RememberRequest(content=c)).id for c in contents]


def test_batched_hint_jobs_share_one_transaction_each_job_in_its_own_savepoint(svc, monkeypatch):
    """One memory's hint write fails: its job alone rolls back and is retried; the others commit
    with their completions (stages/drain/jobs.py run_write_batched_jobs)."""
    from signet_pipeline.stages import hints as hints_stage

    ids = _hint_jobs(svc, ["The staging cluster moves to Frankfurt in May",
                           "Ilse repairs the ferry engines in Turku every winter",
                           "Dario teaches a pottery course at the community studio"])
    store, begins = hints_stage.store_hints, []

    def failing(conn, generated, model):
        if generated.report.memory_id == ids[1]:
            hints_stage.hints_store.replace(conn, memory_id=ids[1], content_hash=generated.content_hash,
                                            hints=["Where are the ferry engines repaired?"], model=model, now="x")
            raise RuntimeError("disk on fire")
        return store(conn, generated, model)

    monkeypatch.setattr(hints_stage, "store_hints", failing)
    conn = svc.db.reader()

    def trace(_cursor, sql: str, _bindings) -> bool:
        if sql.startswith("BEGIN"):
            begins.append(sql)
        return True

    svc.db._writer.set_exec_trace(trace)
    batch = run_hint_jobs(svc, JobQueue(svc.db, owner="run-b"), RulesLlm(), 10)
    svc.db._writer.set_exec_trace(None)
    assert batch.leased == 3 and len(batch.reports) == 2 and batch.failed == [f"{ids[1]}: RuntimeError: disk on fire"]
    written = dict(conn.execute("SELECT memory_id, count(*) FROM memory_hints GROUP BY 1"))
    assert set(written) == {ids[0], ids[2]}  # the failed job's partial write rolled back with its savepoint
    statuses = dict(conn.execute("SELECT memory_id, status FROM memory_jobs WHERE job_type = ?", (PROSPECTIVE_INDEX,)))
    assert statuses == {ids[0]: "completed", ids[1]: "pending", ids[2]: "completed"}
    assert len(begins) == 4  # lease, the batch's writes, the failed job's retry, provider outcomes: not one per job


def test_batched_hint_job_whose_lease_was_lost_writes_nothing_and_is_not_completed(svc, monkeypatch):
    from signet_pipeline.stages import hints as hints_stage

    ids = _hint_jobs(svc, ["Maren moved the allotment shed to the north corner",
                           "Kwame signed up for the Italian cooking course"])
    generate = hints_stage.generate_hints

    def reaped_meanwhile(svc_, llm, memory_id, **kwargs):
        if memory_id == ids[0]:  # another worker took the job over while this one called the model
            with svc.db.write() as conn:
                conn.execute("UPDATE memory_jobs SET lease_owner = 'run-other' WHERE memory_id = ? AND job_type = ?",
                             (memory_id, PROSPECTIVE_INDEX))
        return generate(svc_, llm, memory_id, **kwargs)

    monkeypatch.setattr(hints_stage, "generate_hints", reaped_meanwhile)
    batch = run_hint_jobs(svc, JobQueue(svc.db, owner="run-a"), RulesLlm(), 10)
    conn = svc.db.reader()
    assert [r.memory_id for r in batch.reports] == [ids[1]] and "lease lost" in batch.failed[0]
    assert scalar(conn, "SELECT count(*) FROM memory_hints WHERE memory_id = ?", (ids[0],)) == 0
    job = conn.execute("SELECT status, lease_owner FROM memory_jobs WHERE memory_id = ? AND job_type = ?",
                       (ids[0], PROSPECTIVE_INDEX)).fetchone()
    assert job == ("leased", "run-other")  # left to the worker that holds it
