"""Prospective hints: generation (rules and a real HTTP wire format), filtering, the queue, the
Dagster asset and sensor, and recall's max-merge of hint and content keyword scores."""

import json

import dagster as dg
import pytest

from signet_pipeline.defs.extraction.assets import memory_pipeline
from signet_pipeline.defs.extraction.sensors import memory_jobs_sensor
from signet_pipeline.defs.resources import LlmResource, SignetStoreResource
from signet_pipeline.models import RecallRequest, RememberRequest
from signet_pipeline.providers.llm.http import OpenAICompatibleLlm
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.recall import keywords
from signet_pipeline.recall.keywords import hints_match, keyword_query
from signet_pipeline.recall.legs import keyword_leg
from signet_pipeline.recall.search import recall_memories
from signet_pipeline.service import doc_freq
from signet_pipeline.stages.hints import run_hint_jobs
from signet_pipeline.store import hints as hints_store
from signet_pipeline.store import jobs as job_store
from signet_pipeline.store import memories as mem_store
from signet_pipeline.store.memories import MemoryFilter
from signet_pipeline.store.queue import PROSPECTIVE_INDEX, JobQueue
from signet_pipeline.write.hints import parse_hints
from signet_pipeline.write.remember import remember
from tests.fakes import FakeServer

HINTS_ON = {"memory": {"pipelineV2": {"hints": {"enabled": True}}}}
MEMORY = "Samir bought a rowing machine for the apartment last week."
BRIDGING = ["What home exercise equipment does Samir own?", "Which fitness gear did Samir purchase recently?"]


def openai_server(hints, *, other=("Where does Simon keep his bicycle?",)):
    """An OpenAI-compatible server answering `hints` for the rowing-machine memory, `other` otherwise."""
    def reply(path, body):
        prompt = json.dumps(body["messages"])
        content = json.dumps({"hints": list(hints if "rowing machine" in prompt else other)})
        return 200, {"choices": [{"message": {"role": "assistant", "content": content}}]}
    return FakeServer(reply)


@pytest.mark.parametrize("reply, accepted, warned", [
    ({"hints": BRIDGING}, BRIDGING, 0),
    (json.dumps({"questions": ["How often does Samir row?"]}), ["How often does Samir row?"], 0),
    ('```json\n["Where is the rowing machine?"]\n```', ["Where is the rowing machine?"], 0),
    ({"hints": [MEMORY, MEMORY + "?", "Samir likes rowing.", "Why?", 42, "Return only JSON hints?"]}, [], 6),
    ({"hints": ["What does Samir own?", "what does samir own"]}, ["What does Samir own?"], 0),
    ("no json here", [], 1),
])
def test_replies_are_filtered_to_real_questions(reply, accepted, warned):
    hints, warnings = parse_hints(reply, MEMORY, 5)
    assert hints == accepted and len(warnings) == warned


def test_hints_over_the_limit_are_dropped_with_a_warning():
    hints, warnings = parse_hints({"hints": [f"What is item number {i}?" for i in range(8)]}, MEMORY, 5)
    assert len(hints) == 5 and "3 hint(s) over hints.max dropped" in warnings


@pytest.mark.parametrize("content, expected", [
    ("Simon: I love Wellington, but the hills here are destroying my calves.", "What does Simon love?"),
    ("Samir: I just got a rowing machine for the apartment last week!",
     "When did Samir get a rowing machine for the apartment?"),
    ("Nicholai decided to use PostgreSQL for the memory store because SQLite locks.",
     "Why did Nicholai decide to use PostgreSQL for the memory store?"),
    ("Caroline moved to Sweden in 2019 after her divorce.", "Where did Caroline move?"),
    ("I have 3 kids and two dogs.", "How many kids do I have?"),
    ("Run migrations with make migrate before deploying.", "How do I run migrations?"),
])
def test_the_rules_provider_asks_questions_instead_of_echoing(content, expected):
    hints, warnings = parse_hints(RulesLlm().hints(content, 5), content, 5)
    assert expected in hints and not warnings
    assert all(h.endswith("?") and h.rstrip("?").lower() != content.rstrip(".!").lower() for h in hints)


def test_remember_enqueues_hint_jobs_only_when_enabled(make_service):
    off = make_service(memory={"pipelineV2": {"hints": {"enabled": False}}})
    remember(off, RememberRequest(content=MEMORY))
    assert job_store.counts_by_type(off.db.reader()).get(PROSPECTIVE_INDEX) is None
    off.close()
    on = make_service()  # the default
    remember(on, RememberRequest(content="Samir adopted a dog named Otis in March."))
    assert job_store.counts_by_type(on.db.reader())[PROSPECTIVE_INDEX]["pending"] == 1


def keyword_only(svc, query):
    """alpha 0: the score is the keyword score alone (vector-only candidates score 0 and drop)."""
    return recall_memories(svc, RecallRequest(query=query, alpha=0, limit=5))


def test_a_query_sharing_words_only_with_a_hint_finds_the_memory(make_service):
    svc = make_service(**HINTS_ON)
    memory = remember(svc, RememberRequest(content=MEMORY))
    remember(svc, RememberRequest(content="Simon keeps his bicycle in the hallway."))
    assert memory.id not in {h.id for h in keyword_only(svc, "fitness gear purchase").results}
    with openai_server(BRIDGING) as server:
        batch = run_hint_jobs(svc, JobQueue(svc.db), OpenAICompatibleLlm(base_url=server.url, model="m"), 10)
    assert sorted(r.written for r in batch.reports) == [1, 2] and not batch.failed
    result = keyword_only(svc, "fitness gear purchase")
    top = result.results[0]  # the vector leg finds it too in so small a store: hybrid
    assert top.id == memory.id and top.source in ("hint", "hybrid") and top.score == pytest.approx(1.0)
    assert result.meta["candidates"]["hints"] >= 1


def test_hint_and_content_scores_merge_by_max_never_add(make_service):
    svc = make_service(**HINTS_ON)
    memory = remember(svc, RememberRequest(content=MEMORY))
    before = keyword_only(svc, "rowing machine apartment").results[0]
    with openai_server(["Where is the rowing machine in the apartment?"]) as server:
        run_hint_jobs(svc, JobQueue(svc.db), OpenAICompatibleLlm(base_url=server.url, model="m"), 10)
    after = keyword_only(svc, "rowing machine apartment").results[0]
    assert after.id == before.id == memory.id and after.source == before.source
    assert after.score == pytest.approx(before.score) == pytest.approx(1.0)


def test_hints_go_with_their_memory(make_service):
    svc = make_service(**HINTS_ON)
    memory = remember(svc, RememberRequest(content=MEMORY))
    run_hint_jobs(svc, JobQueue(svc.db), RulesLlm(), 10)
    assert hints_store.for_memories(svc.db.reader(), [memory.id])[memory.id]
    with svc.db.write() as conn:
        conn.execute("UPDATE memories SET is_deleted = 1 WHERE id = ?", (memory.id,))
        assert mem_store.hard_delete(conn, [memory.id]) == 1
    assert hints_store.counts(svc.db.reader())["hints"] == 0
    assert keyword_only(svc, "rowing").results == []


def test_a_job_for_a_deleted_memory_completes_without_hints(make_service):
    svc = make_service(**HINTS_ON)
    memory = remember(svc, RememberRequest(content=MEMORY))
    with svc.db.write() as conn:
        conn.execute("UPDATE memories SET is_deleted = 1 WHERE id = ?", (memory.id,))
    batch = run_hint_jobs(svc, JobQueue(svc.db), RulesLlm(), 10)
    assert batch.reports[0].written == 0 and batch.reports[0].skipped
    assert job_store.counts_by_type(svc.db.reader())[PROSPECTIVE_INDEX].get("completed") == 1


def test_a_failing_provider_retries_the_job(make_service):
    svc = make_service(**HINTS_ON)
    remember(svc, RememberRequest(content=MEMORY))
    with FakeServer(lambda path, body: (500, {"error": "boom"})) as server:
        batch = run_hint_jobs(svc, JobQueue(svc.db), OpenAICompatibleLlm(base_url=server.url, model="m"), 10)
    assert len(batch.failed) == 1 and batch.dead == 0
    assert job_store.counts_by_type(svc.db.reader())[PROSPECTIVE_INDEX].get("pending") == 1


def hints_metadata(result) -> dict:
    return next(m.metadata for e in result.get_asset_materialization_events()
                for m in [e.event_specific_data.materialization] if m.asset_key.path[-1] == "memory_hints")


def test_sensor_and_asset_generate_hints(make_service, workspace, monkeypatch):
    svc = make_service(**HINTS_ON)
    for text in (MEMORY, "Caroline moved to Sweden in 2019 after her divorce."):
        remember(svc, RememberRequest(content=text))
    monkeypatch.setenv("SIGNET_MEMORY__PIPELINEV2__HINTS__ENABLED", "true")
    signet = SignetStoreResource(workspace=str(workspace))
    with dg.instance_for_test() as instance, dg.build_sensor_context(instance=instance,
                                                                     resources={"signet": signet}) as ctx:
        result = memory_jobs_sensor(ctx)
    assert len(result.run_requests) == 1 and result.run_requests[0].run_key == "memory-drain-1"
    done = dg.materialize([memory_pipeline], resources={"signet": signet, "llm": LlmResource()})
    meta = hints_metadata(done)
    # Both memories, and the fact extraction derived from the first ("last week (the week before <date>)")
    assert meta["memories"].value == 3 and meta["hints_written"].value >= 4 and meta["failures"].value == 0
    assert "Where did Caroline move?" in meta["preview"].value


def test_the_hints_search_respects_agents_and_tombstones(make_service):
    """Another agent's private memories and tombstones hold the best hint matches; the visible
    memory must still be found (the filter falls back to all matches when the first cut is eaten)."""
    svc = make_service(**HINTS_ON)
    mine = remember(svc, RememberRequest(content="Ana keeps spare fuses in the red toolbox.", agent_id="ana"))
    hidden = [remember(svc, RememberRequest(content=f"Bo note {i} about the garage shelf.", agent_id="bo",
                                            visibility="private")) for i in range(30)]
    with svc.db.write() as conn:
        for memory in hidden:
            hints_store.replace(conn, memory_id=memory.id, content_hash=mem_store.get(conn, memory.id)["content_hash"],
                                hints=[f"Where are fuses {i}?" for i in range(3)], model="m", now="t")
        hints_store.replace(conn, memory_id=mine.id, content_hash=mem_store.get(conn, mine.id)["content_hash"],
                            hints=["Where does Ana keep the spare fuses for the lights of the old garage workshop?"],
                            model="m", now="t")
    reader = svc.db.reader()
    everyone = hints_store.search(reader, '"fuses"', MemoryFilter(agent_id="bo"), 10)
    assert mine.id not in {memory_id for memory_id, _ in everyone}  # Bo's short hints rank first
    found = hints_store.search(reader, '"fuses"', MemoryFilter(agent_id="ana"), 2)
    assert [memory_id for memory_id, _ in found] == [mine.id]
    with svc.db.write() as conn:
        conn.execute("UPDATE memories SET is_deleted = 1 WHERE id = ?", (mine.id,))
    assert hints_store.search(svc.db.reader(), '"fuses"', MemoryFilter(agent_id="ana"), 2) == []


def hint_docs(svc, pairs):
    with svc.db.write() as conn:
        for memory, hints in pairs:
            hints_store.replace(conn, memory_id=memory.id, content_hash=mem_store.get(conn, memory.id)["content_hash"],
                                hints=hints, model="m", now="t")


def test_the_hints_search_leaves_out_words_most_hints_hold(make_service, monkeypatch):
    """Hints are questions: a word nearly all of them hold ("say") ranks nothing and made BM25 read
    every hint document. The hints search leaves it out; the content search keeps it."""
    monkeypatch.setattr(keywords, "HINT_DOCS_MIN", 5)  # the rule on a handful of documents
    svc = make_service(**HINTS_ON)
    kettle = remember(svc, RememberRequest(content="Ana: the kettle broke this morning."))
    chatter = [remember(svc, RememberRequest(content=f"Bo: lunch plan number {i}.")) for i in range(6)]
    hint_docs(svc, [(kettle, ["What broke at Ana's place?"]),
                    *[(m, [f"What did Bo say about lunch plan {i}?"]) for i, m in enumerate(chatter)]])
    reader = svc.db.reader()
    asked = keyword_query(svc, reader, "What did Ana say about the kettle?")
    assert "say" in asked.kept and hints_match(svc, reader, asked) == '"ana" OR "kettle"'
    leg = keyword_leg(svc, reader, "What did Ana say about the kettle?", MemoryFilter(), 50, None)
    assert leg.hints == [kettle.id]  # not the six memories whose hints share only "say"
    assert keyword_leg(svc, reader, "What did they say?", MemoryFilter(), 50, None).hints == []


def test_the_hint_counts_age_with_the_hints_not_with_the_store(make_service, monkeypatch):
    """Hints arrive from the pipeline after their memories: a recall asked before them must not keep a
    total of 0 until the store itself grows (then every fresh word count would be "more than half")."""
    monkeypatch.setattr(keywords, "HINT_DOCS_MIN", 5)
    monkeypatch.setattr(doc_freq, "MIN_GROWTH_ROWS", 1)  # a handful of rows is growth here
    svc = make_service(**HINTS_ON)
    chatter = [remember(svc, RememberRequest(content=f"Bo: lunch plan number {i}.")) for i in range(6)]
    reader = svc.db.reader()
    asked = keyword_query(svc, reader, "What did Bo say?")
    assert hints_match(svc, reader, asked) == '"bo" OR "say"'  # no hint yet
    hint_docs(svc, [(m, [f"What did Bo say about lunch plan {i}?"]) for i, m in enumerate(chatter)])
    # The store did not grow, the hints did: the counts are read again, and both words are in every document.
    assert hints_match(svc, reader, asked) is None


def test_a_small_hints_index_keeps_every_word(make_service):
    svc = make_service(**HINTS_ON)
    kettle = remember(svc, RememberRequest(content="Ana: the kettle broke this morning."))
    hint_docs(svc, [(kettle, ["What broke at Ana's place?"])])
    leg = keyword_leg(svc, svc.db.reader(), "What broke at Ana's place?", MemoryFilter(), 50, None)
    assert leg.hints == [kettle.id]  # its one document holds every word: more than half, and still the answer


def test_the_hints_index_counts_each_memory_once(make_service):
    """BM25 over hints needs FTS5's row count: a word every hint document holds has no weight. Writing
    a memory's several hints once replaced its document per hint, and each replacement counted a row."""
    svc = make_service(**HINTS_ON)
    memories = [remember(svc, RememberRequest(content=f"Bo: lunch plan number {i}.")) for i in range(4)]
    with svc.db.write() as conn:
        for i, memory in enumerate(memories):
            hints = [f"What did Bo say about lunch {i}?", f"When is lunch {i}?", f"Where is lunch {i}?",
                     "When is lunch 0?"]
            hints_store.replace(conn, memory_id=memory.id, content_hash=mem_store.get(conn, memory.id)["content_hash"],
                                hints=hints, model="m", now="t")
    scores = [r[0] for r in svc.db.reader().execute(
        "SELECT bm25(memory_hints_fts) FROM memory_hints_fts WHERE memory_hints_fts MATCH '\"say\"'")]
    assert len(scores) == 4 and all(abs(s) < 1e-3 for s in scores)  # in every document: no weight


def test_the_hints_index_follows_replaced_hints(make_service):
    svc = make_service(**HINTS_ON)
    memory = remember(svc, RememberRequest(content=MEMORY))
    content_hash = mem_store.get(svc.db.reader(), memory.id)["content_hash"]

    def found(word):
        return [m for m, _ in hints_store.search(svc.db.reader(), f'"{word}"', MemoryFilter(), 5)]

    with svc.db.write() as conn:
        hints_store.replace(conn, memory_id=memory.id, content_hash=content_hash, hints=["Which gym gear?"],
                            model="m", now="t")
    assert found("gym") == [memory.id]
    with svc.db.write() as conn:
        hints_store.replace(conn, memory_id=memory.id, content_hash=content_hash,
                            hints=["What cardio equipment?", "Where is the rower?"], model="m", now="t")
    assert found("gym") == [] and found("cardio") == [memory.id] and found("rower") == [memory.id]
    with svc.db.write() as conn:
        conn.execute("UPDATE memories SET content = 'Samir sold the rowing machine.' WHERE id = ?", (memory.id,))
    assert found("cardio") == []  # new content: its hints are gone until regenerated


def test_a_manual_backfill_gives_old_memories_hints(make_service, workspace):
    svc = make_service(memory={"pipelineV2": {"hints": {"enabled": False}}})
    for text in (MEMORY, "Caroline moved to Sweden in 2019 after her divorce."):
        remember(svc, RememberRequest(content=text))  # written while hints were off: no jobs
    assert hints_store.live_without_hints(svc.db.reader(), 10) != []
    signet = SignetStoreResource(workspace=str(workspace))
    done = dg.materialize([memory_pipeline], resources={"signet": signet, "llm": LlmResource()},
                          run_config={"ops": {"memory_pipeline": {"config": {"hints_backfill": 100}}}})
    meta = hints_metadata(done)
    assert meta["backfill_queued"].value == 2 and meta["hints_written"].value >= 4
    assert hints_store.live_without_hints(svc.db.reader(), 10) == []
