"""Retention sweep: rows on both sides of every window, the batch limit, shared vectors, the
graph hook, and the Dagster asset."""

import json
from datetime import UTC, datetime, timedelta

import dagster as dg

from signet_pipeline.config_sections import RetentionConfig
from signet_pipeline.defs.maintenance.assets import retention_sweep
from signet_pipeline.defs.resources import SignetStoreResource
from signet_pipeline.models import RecallRequest, RememberRequest
from signet_pipeline.recall.search import recall_memories
from signet_pipeline.stages.retention import sweep
from signet_pipeline.store import embeddings as emb_store
from signet_pipeline.store import history as history_store
from signet_pipeline.text.transcripts import scrub
from signet_pipeline.timeutil import to_iso
from signet_pipeline.write.remember import remember

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def days_ago(days: float) -> str:
    return to_iso(NOW - timedelta(days=days))


def q(svc, sql, *params):
    return svc.db.reader().execute(sql, params).fetchall()


def tombstone(svc, memory_id: str, days: float) -> None:
    with svc.db.write() as conn:
        conn.execute("UPDATE memories SET is_deleted = 1, deleted_at = ? WHERE id = ?", (days_ago(days), memory_id))


def job(svc, status: str, days: float) -> None:
    column = "completed_at" if status == "completed" else "failed_at"
    with svc.db.write() as conn:
        conn.execute(f"INSERT INTO memory_jobs(job_type, status, {column}, created_at, updated_at) "
                     "VALUES ('extract', ?, ?, ?, ?)", (status, days_ago(days), days_ago(days), days_ago(days)))


def test_each_step_purges_only_rows_past_its_window(svc):
    old = remember(svc, RememberRequest(content="Orinoco ships the nightly Zephyrine build")).id
    recent = remember(svc, RememberRequest(content="Quillon reviews the Tamsin release notes")).id
    shared = remember(svc, RememberRequest(content="The staging cluster runs on spot instances")).id
    remember(svc, RememberRequest(content="The staging cluster runs on spot instances", agentId="other"))
    tombstone(svc, old, 31)
    tombstone(svc, recent, 29)
    tombstone(svc, shared, 45)
    with svc.db.write() as conn:
        conn.execute("DELETE FROM memory_jobs")  # the remember() jobs: only the planted ones below count
        for days in (181, 179):
            history_store.record(conn, memory_id="m", event="created", now=days_ago(days))
        for days in (31, 29):
            conn.execute("INSERT INTO session_checkpoints(session_key, trigger, digest, created_at) "
                         "VALUES ('s', 'periodic', 'd', ?)", (days_ago(days),))
            conn.execute("INSERT INTO session_recalls(session_key, agent_id, context_epoch, memory_id, first_at) "
                         "VALUES ('s', 'default', 0, ?, ?)", (f"m{days}", days_ago(days)))
    for status, days in (("completed", 15), ("completed", 13), ("dead", 31), ("dead", 29)):
        job(svc, status, days)
    before_vectors = q(svc, "SELECT count(*) FROM embeddings")[0][0]

    report = sweep(svc.db, RetentionConfig(), now=to_iso(NOW))

    assert report.counts() == {"graph_links": 2, "embeddings": 2, "tombstones": 2, "history": 1,
                               "completed_jobs": 1, "dead_jobs": 1, "checkpoints": 1, "session_ledger": 1,
                               "embedding_change_log": 0, "telemetry": 0}
    assert q(svc, "SELECT count(*) FROM session_checkpoints")[0][0] == 1  # the 29-day-old one stays
    assert {r[0] for r in q(svc, "SELECT id FROM memories WHERE id IN (?, ?, ?)", old, recent, shared)} == {recent}
    # The old tombstone's vector went; the shared one stays for the other agent's live copy.
    assert q(svc, "SELECT count(*) FROM embeddings")[0][0] == before_vectors - 1
    hit = recall_memories(svc, RecallRequest(query="staging cluster spot instances", agentId="other")).results[0]
    assert hit.agent_id == "other"
    # Graph: the old memory's entities lost their only mention and are gone; the recent one's stay.
    names = {r[0] for r in q(svc, "SELECT canonical_name FROM entities")}
    assert "orinoco" not in names and "zephyrine" not in names and {"quillon", "tamsin"} <= names
    assert q(svc, "SELECT count(*) FROM memory_history WHERE created_at < ?", days_ago(180))[0][0] == 0
    assert q(svc, "SELECT count(*) FROM memory_history WHERE memory_id = 'm'")[0][0] == 1
    assert sorted(q(svc, "SELECT status FROM memory_jobs")) == [("completed",), ("dead",)]
    assert not report.backlog

    again = sweep(svc.db, RetentionConfig(), now=to_iso(NOW))
    assert again.total_rows == 0  # idempotent: nothing left past any window


def test_batch_limit_caps_each_step_and_the_next_sweep_continues(svc):
    ids = [remember(svc, RememberRequest(content=f"Throwaway note number {i} about lunch")).id for i in range(5)]
    for i, memory_id in enumerate(ids):
        tombstone(svc, memory_id, 40 + i)
    cfg = RetentionConfig(batchLimit=3)
    first = sweep(svc.db, cfg, now=to_iso(NOW))
    assert first.counts()["tombstones"] == 3 and "tombstones" in first.backlog
    # Oldest deletions go first.
    assert {r[0] for r in q(svc, "SELECT id FROM memories")} == set(ids[:2])
    second = sweep(svc.db, cfg, now=to_iso(NOW))
    assert second.counts()["tombstones"] == 2 and not second.backlog
    assert q(svc, "SELECT count(*) FROM memories")[0][0] == 0


def test_change_log_pruning_forces_a_lagging_index_to_reload(svc):
    index = svc.vector_index()
    gone = remember(svc, RememberRequest(content="A vector about to be deleted behind the index's back"))
    index.sync()
    with svc.db.write() as conn:
        content_hash = conn.execute("SELECT content_hash FROM memories WHERE id = ?", (gone.id,)).fetchall()[0][0]
        emb_store.delete_for_hashes(conn, [content_hash])
        # Later traffic pushes the delete out of the kept part of the log.
        conn.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500) "
                     "INSERT INTO embedding_changes(embedding_id, op) SELECT -1, 'delete' FROM n")
    report = sweep(svc.db, RetentionConfig(changeLogKeep=1000), now=to_iso(NOW))
    assert report.counts()["embedding_change_log"] == 502  # 1 upsert + 1 delete + 1500, keep 1000
    index.sync()  # the gap makes it reload, so the delete it never read still applies
    hits = index.search(svc.embed_query("vector about to be deleted"), 5)
    assert content_hash not in {h for h, _ in hits}


def test_retention_asset_materializes_with_readable_metadata(svc, workspace):
    memory_id = remember(svc, RememberRequest(content="An ancient note nobody needs")).id
    with svc.db.write() as conn:
        conn.execute("UPDATE memories SET is_deleted = 1, deleted_at = '2020-01-01T00:00:00.000Z' WHERE id = ?",
                     (memory_id,))
    with dg.instance_for_test() as instance:
        result = dg.materialize([retention_sweep], instance=instance,
                                resources={"signet": SignetStoreResource(workspace=str(workspace))})
    assert result.success
    meta = result.asset_materializations_for_node("retention_sweep")[0].metadata
    assert meta["purged_tombstones"].value == 1 and meta["rows_purged"].value >= 1
    assert "graph_links" in meta["steps"].value


def test_purging_a_memory_cuts_its_words_from_its_session_transcript(svc):
    content = "The door code for the lab is 4471 since March"
    kept = "We moved the standup to 10:30 on Tuesdays"
    transcript = "\n".join([
        '{"role": "user", "content": "Remember: the door code for the lab\\nis 4471 since March."}',
        f'{{"role": "user", "content": "{kept}"}}'])
    forgotten = remember(svc, RememberRequest(content=content, sourceId="sess-x", transcript=transcript)).id
    other_agent = remember(svc, RememberRequest(content=kept, sessionId="sess-x", agentId="bob")).id
    tombstone(svc, forgotten, 31)
    tombstone(svc, other_agent, 31)  # bob's memory names the session but not his transcript: it stays whole

    report = sweep(svc.db, RetentionConfig(), now=to_iso(NOW))

    tombstones = next(s for s in report.steps if s.name == "tombstones")
    assert tombstones.details["transcript_passages_removed"] == 1
    (stored,) = q(svc, "SELECT content FROM session_transcripts WHERE session_key = 'sess-x'")[0]
    assert "4471" not in stored and "Remember: [forgotten]." in stored and kept in stored


def test_transcripts_are_kept_unless_a_retention_window_is_set(svc):
    remember(svc, RememberRequest(content="The backup bucket lives in eu-west-1", sourceId="old",
                                  transcript="user: the backup bucket lives in eu-west-1"))
    with svc.db.write() as conn:
        conn.execute("UPDATE session_transcripts SET created_at = ?, updated_at = ?", (days_ago(400), days_ago(400)))
    assert "transcripts" not in sweep(svc.db, RetentionConfig(), now=to_iso(NOW)).counts()
    report = sweep(svc.db, RetentionConfig(transcript_retention_days=365), now=to_iso(NOW))
    assert report.counts()["transcripts"] == 1 and q(svc, "SELECT count(*) FROM session_transcripts")[0][0] == 0


def test_scrub_finds_a_memory_however_a_json_transcript_escaped_it():
    for content in ('The deploy alias is called "ship-it" in the ops repo',
                    "Ana’s café order is a flat white with oat milk",
                    r"The tools live in C:\tools\bin on the build box"):
        transcript = json.dumps({"role": "user", "content": f"note: {content}\nthanks"}) + "\n" + \
            json.dumps({"role": "user", "content": content}, ensure_ascii=False)
        cleaned, n = scrub(transcript, [content])
        assert n == 2 and cleaned.count("[forgotten]") == 2, content
