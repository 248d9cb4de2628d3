"""Conversation-aware recall: the reply to a matching question, when-questions, fact families."""

from signet_pipeline.models import RecallRequest, RememberRequest
from signet_pipeline.recall.context import asks_when, says_when
from signet_pipeline.recall.search import SEARCH, recall_memories
from signet_pipeline.write.remember import remember, remember_many

TURNS = [
    ("Tariq", "wait, how did the maplestone games interview go??"),
    ("Grace", "they said yes!!! I start monday"),
    ("Tariq", "the weather has been awful all week"),
    ("Grace", "my cousin keeps sending me videos of cats"),
]


def converse(svc, agent: str = "pair", session: str | None = None) -> list[str]:
    reqs = [RememberRequest(content=f"{who}: {text}", who=who, agentId=agent, session_id=session,
                            createdAt=f"2024-03-01T10:00:{i:02d}Z") for i, (who, text) in enumerate(TURNS)]
    return [r.id for r in remember_many(svc, reqs)]


def ids(svc, query: str) -> list[str]:
    req = RecallRequest(query=query, agentId="pair", limit=3, min_score=0)
    return [h.id for h in recall_memories(svc, req, SEARCH).results]


def scores(svc, query: str) -> dict[str, float]:
    req = RecallRequest(query=query, agentId="pair", limit=10, min_score=0)
    return {h.id: h.score for h in recall_memories(svc, req, SEARCH).results}


def test_the_reply_to_a_matching_question_is_lifted_to_its_question(make_service):
    on = make_service()
    question, reply, *_ = converse(on)
    asked = "Which company hired Grace after the interview at Maplestone Games?"
    lifted = scores(on, asked)
    assert lifted[reply] >= 0.85 * lifted[question] - 1e-4  # hit scores are rounded
    plain = scores(make_service(search={"reply_weight": 0}), asked)
    assert plain.get(reply, 0.0) < 0.85 * plain[question]  # alone, the reply shares nothing with the question


def test_a_fact_derived_from_a_question_lifts_the_reply_to_that_question(make_service):
    """A derived fact stands for its turn: the turn asked, and its reply is the turn after it,
    though the fact was written later (by the drain) and holds no question mark."""
    svc = make_service()
    question, reply, *_ = converse(svc)
    fact = remember(svc, RememberRequest(content="Grace had an interview at Maplestone Games.", agentId="pair",
                                         createdAt="2024-03-02T08:00:00Z"))
    with svc.db.write() as conn:  # as the pipeline derives it
        conn.execute("UPDATE memories SET source_memory_id = ?, type = 'fact', who = 'pipeline-v2' WHERE id = ?",
                     (question, fact.id))
    found = scores(svc, "Which company hired Grace after the interview at Maplestone Games?")
    assert fact.id in found and question not in found  # the family's best member stands for it
    assert found[reply] >= 0.85 * found[fact.id] - 1e-4


def test_a_reply_comes_from_the_same_conversation_only(make_service):
    svc = make_service()
    converse(svc, session="s1")
    other = remember(svc, RememberRequest(content="Grace: totally unrelated note", agentId="pair", session_id="s2",
                                          createdAt="2024-03-01T10:00:00.500Z"))
    assert other.id not in ids(svc, "how did the maplestone games interview go")


def test_when_questions_prefer_memories_that_say_when():
    assert asks_when("When did Ana adopt the dog?") and asks_when("what year did they move?")
    assert not asks_when("Where does Ana live?")
    assert says_when("we adopted him last weekend") and says_when("moved in May 2021")
    assert not says_when("we adopted a beagle")


def test_a_fact_and_its_source_take_one_place(make_service):
    svc = make_service()
    source = remember(svc, RememberRequest(content="Dana moved to Lyon and works as a nurse there."))
    with svc.db.write() as conn:  # a fact the pipeline derived from it
        conn.execute("INSERT INTO memories(id, content, normalized_content, content_hash, type, source_memory_id, "
                     "who, agent_id, visibility, created_at, updated_at) SELECT 'fact-1', 'Dana works as a nurse.', "
                     "'dana works as a nurse', 'h-fact-1', 'fact', id, 'pipeline-v2', agent_id, visibility, "
                     "created_at, updated_at FROM memories WHERE id = ?", (source.id,))
    found = [h.id for h in recall_memories(svc, RecallRequest(query="Dana nurse", limit=5, min_score=0)).results]
    assert len({source.id, "fact-1"} & set(found)) == 1


def test_a_fact_sharing_no_word_with_the_question_leaves_its_place_to_the_source(make_service):
    svc = make_service()
    source = remember(svc, RememberRequest(content="Dana moved to Lyon last spring and works as a nurse there now."))
    fact = remember(svc, RememberRequest(content="Dana is a nurse."))
    with svc.db.write() as conn:  # as the pipeline derives it (its vector written like any memory's)
        conn.execute("UPDATE memories SET source_memory_id = ?, type = 'fact', who = 'pipeline-v2' WHERE id = ?",
                     (source.id, fact.id))
    found = [h.id for h in recall_memories(svc, RecallRequest(query="hospital job", limit=5, min_score=0),
                                           SEARCH).results]
    assert fact.id not in found and source.id in found  # by meaning alone: the source speaks for it
    found = [h.id for h in recall_memories(svc, RecallRequest(query="Dana nurse", limit=5, min_score=0),
                                           SEARCH).results]
    assert len({source.id, fact.id} & set(found)) == 1  # sharing words: the family's best stands for it


PETS_AND_MORE = [
    "Ana: I finally adopted a beagle named Pepper from the shelter last week.",
    "Ben: the bus was late again this morning", "Ana: my sister is moving to Porto in June",
    "Ben: I started learning the cello, my neighbours are thrilled", "Ana: work has been a lot lately",
    "Ben: we painted the kitchen yellow over the weekend", "Ana: the new bakery on our street is great",
    "Ben: my knee still hurts after the run", "Ana: I am reading a novel about lighthouse keepers",
    "Ben: our team lost the final on penalties", "Ana: I want to learn to sail next summer",
    "Ben: the printer at the office jammed twice today", "Ana: I made a huge pot of lentil soup",
    "Ben: my brother got engaged on Saturday", "Ana: the train strike ruined my Friday plans",
]


def test_a_memory_loses_no_score_for_the_facts_derived_from_it(make_service):
    """Facts restate their source; the hubness correction must not take them for signs that the
    source resembles everything (recall/hubness.py). Facts shown beside their source, to see its score."""
    svc = make_service(search={"collapse_derived": False})
    reqs = [RememberRequest(content=text, agentId="pair", createdAt=f"2024-03-01T10:00:{i:02d}Z")
            for i, text in enumerate(PETS_AND_MORE)]
    source, *_ = [r.id for r in remember_many(svc, reqs)]
    asked = "What kind of dog did Ana adopt?"
    before = scores(svc, asked)[source]
    facts = [remember(svc, RememberRequest(content=text, agentId="pair", createdAt="2024-03-02T08:00:00Z")).id
             for text in ("Ana adopted a beagle.", "Ana's beagle is named Pepper.",
                          "Ana adopted Pepper from a shelter.")]
    with svc.db.write() as conn:  # as the pipeline derives them
        for fact in facts:
            conn.execute("UPDATE memories SET source_memory_id = ?, type = 'fact', who = 'pipeline-v2' WHERE id = ?",
                         (source, fact))
    assert scores(svc, asked)[source] >= before - 0.01
