"""memory_jobs as a queue: dedup, atomic leases, backoff, dead letters, stale leases."""

import multiprocessing
import random

import pytest

from signet_pipeline.store import jobs as job_store
from signet_pipeline.store.db import Database, scalar
from signet_pipeline.store.migrate import migrate
from signet_pipeline.store.queue import EXTRACT, PROSPECTIVE_INDEX, JobQueue, backoff_s


@pytest.fixture
def db(tmp_path):
    database = Database(tmp_path / "memories.db")
    migrate(database)
    yield database
    database.close()


def due_now(db):
    with db.write() as conn:
        conn.execute("UPDATE memory_jobs SET not_before = NULL")


def test_enqueue_dedups_live_jobs_per_target_and_type(db):
    q = JobQueue(db)
    first, created = q.enqueue(EXTRACT, memory_id="m1")
    assert created and q.enqueue(EXTRACT, memory_id="m1") == (first, False)
    assert q.enqueue(PROSPECTIVE_INDEX, memory_id="m1")[1] is True  # another type is another job
    [job] = q.lease([EXTRACT])
    assert q.enqueue(EXTRACT, memory_id="m1") == (first, False)  # leased still counts as live
    q.complete(job)
    assert q.enqueue(EXTRACT, memory_id="m1")[1] is True  # done: a new one may start
    with pytest.raises(ValueError):
        q.enqueue("nonsense", memory_id="m1")


def test_lease_takes_the_oldest_due_jobs_and_counts_attempts(db):
    q = JobQueue(db)
    ids = [q.enqueue(EXTRACT, memory_id=f"m{i}")[0] for i in range(5)]
    q.enqueue(PROSPECTIVE_INDEX, memory_id="other")
    batch = q.lease([EXTRACT], limit=3)
    assert [j["id"] for j in batch] == ids[:3]
    assert all(j["status"] == "leased" and j["attempts"] == 1 and j["leased_at"] for j in batch)
    assert [j["id"] for j in q.lease([EXTRACT], limit=10)] == ids[3:]
    assert q.lease([EXTRACT]) == []


def test_failures_back_off_then_go_dead_at_max_attempts(db):
    q = JobQueue(db, max_attempts=2, rng=random.Random(1))
    job_id, _ = q.enqueue(EXTRACT, memory_id="m1")
    [job] = q.lease([EXTRACT])
    assert q.fail(job, "HTTP 500: model not loaded") == "pending"
    stored = job_store.get(db.reader(), job_id)
    assert stored["not_before"] > stored["failed_at"] and stored["error"].startswith("HTTP 500")
    assert q.lease([EXTRACT]) == []  # not due yet
    due_now(db)
    [job] = q.lease([EXTRACT])
    assert job["attempts"] == 2
    assert q.fail(job, "again") == "dead"
    due_now(db)
    assert q.lease([EXTRACT]) == []
    assert q.complete(job) is False  # only leased jobs complete


def test_backoff_doubles_to_a_cap_with_bounded_jitter():
    rng = random.Random(0)
    delays = [backoff_s(n, rng) for n in range(1, 9)]
    assert 1.0 <= delays[0] <= 1.5 and 2.0 <= delays[1] <= 2.5 and 4.0 <= delays[2] <= 4.5
    assert all(30.0 <= d <= 30.5 for d in delays[5:])


def test_stale_leases_are_reaped(db):
    q = JobQueue(db, max_attempts=2, lease_timeout_ms=60_000)
    a, _ = q.enqueue(EXTRACT, memory_id="a")
    fresh, _ = q.enqueue(EXTRACT, memory_id="fresh")
    q.lease([EXTRACT], limit=2)
    expire = "UPDATE memory_jobs SET leased_at = '2000-01-01T00:00:00.000Z' WHERE id = ?"
    with db.write() as conn:
        conn.execute(expire, (a,))
    assert q.reap_stale_leases() == 1
    assert job_store.get(db.reader(), a)["status"] == "pending"  # one attempt left
    assert job_store.get(db.reader(), fresh)["status"] == "leased"  # within its lease
    [again] = q.lease([EXTRACT])
    with db.write() as conn:
        conn.execute(expire, (a,))
    assert q.reap_stale_leases() == 1
    assert job_store.get(db.reader(), again["id"])["status"] == "dead"  # that was its last attempt


def test_a_lease_released_and_taken_by_another_worker_cannot_be_completed_or_failed_by_the_first(db):
    first, second = JobQueue(db, owner="run-a"), JobQueue(db, owner="run-b")
    job_id, _ = first.enqueue(EXTRACT, memory_id="m1")
    [mine] = first.lease([EXTRACT])
    assert mine["lease_owner"] == "run-a"
    with db.write() as conn:  # run-a stopped beating: its leases go back to pending
        assert job_store.release_owner(conn, "run-a", now="2030-01-01T00:00:00.000Z", error="gone") == 1
    [theirs] = second.lease([EXTRACT])
    assert theirs["attempts"] == 2 and theirs["lease_owner"] == "run-b"
    assert first.complete(mine) is False and first.fail(mine, "late") is None  # run-a woke up: too late
    assert second.complete(theirs, {"ok": True}) is True
    done = job_store.get(db.reader(), job_id)
    assert (done["status"], done["lease_owner"], done["attempts"]) == ("completed", None, 2)


def test_dead_jobs_are_requeued_unless_their_target_has_a_live_job(db):
    q = JobQueue(db, max_attempts=1)
    b, _ = q.enqueue(EXTRACT, memory_id="b")
    c, _ = q.enqueue(EXTRACT, memory_id="c")
    for job in q.lease([EXTRACT], limit=2):
        assert q.fail(job, "boom") == "dead"
    assert q.enqueue(EXTRACT, memory_id="c")[1] is True  # a fresh job for c while the old one is dead
    assert q.requeue_dead() == 1  # b comes back; c's dead job stays (c has a live job)
    b_job = job_store.get(db.reader(), b)
    assert (b_job["status"], b_job["attempts"]) == ("pending", 0)
    assert job_store.get(db.reader(), c)["status"] == "dead"


def _lease_all(path: str, out) -> None:
    db = Database(path)
    q = JobQueue(db)
    got = []
    while batch := q.lease([EXTRACT], limit=3):
        got += [j["id"] for j in batch]
    out.put(got)
    db.close()


def test_processes_leasing_at_once_never_share_a_job(db):
    q = JobQueue(db)
    for i in range(300):
        q.enqueue(EXTRACT, memory_id=f"m{i}")
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=_lease_all, args=(str(db.path), out)) for _ in range(3)]
    for p in procs:
        p.start()
    leased = [job for _ in procs for job in out.get(timeout=120)]
    for p in procs:
        p.join(timeout=60)
    assert sorted(leased) == sorted(set(leased)) and len(leased) == 300
    assert scalar(db.reader(), "SELECT count(*) FROM memory_jobs WHERE status = 'leased' AND attempts = 1") == 300
