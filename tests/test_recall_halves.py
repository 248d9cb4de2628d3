"""Question halves (recall/halves.py): a question naming two or three people or things at once is also
asked of each alone, and a memory keeps its best score."""

import pytest

from signet_pipeline.models import RecallRequest
from signet_pipeline.recall.halves import halves
from signet_pipeline.recall.search import SEARCH, recall
from tests.test_recall_bridges import converse


@pytest.mark.parametrize("question, expected", [
    ("Which country did both Bartek and Lian visit?", ["Which country did Bartek visit?", "Which country did Lian visit?"]),
    ("What do Jon and Gina both have in common?", ["What do Jon have in common?", "What do Gina have in common?"]),
    ("What are Jon's and Gina's jobs?", ["What are Jon's jobs?", "What are Gina's jobs?"]),
    ("Which trip came first, Cusco or Quito?", ["Which trip came first, Cusco?", "Which trip came first, Quito?"]),
    ("Did she like New York and Paris?", ["Did she like New York?", "Did she like Paris?"]),
    ("What do Caroline, Melanie and Jon each cook?", ["What do Caroline cook?", "What do Melanie cook?", "What do Jon cook?"]),
    ("Which role did Ana get at Harbor & Finch?", []),  # "&" joins the words of one name
    ("What did Tom and I do?", []),  # a pronoun is no name
    ("When and where did Ana go?", []),  # question words are no names
    ("Where did Anna go in May and June?", []),  # nor are months (temporal recall reads those)
    ("What do Ana, Ben, Cleo and Dev like?", []),  # four recalls more: not split
    ("How did Caroline feel after moving?", []),
    ("Which came first: Ada adopting Tofu, or Ada moving to Leeds?", []),  # two clauses, not two names
])
def test_a_question_is_split_at_its_names(question, expected):
    assert halves(question) == expected


TRAVELS = ["Bartek: I flew home from Greece two weeks ago, still a bit dazed.",
           "Lian: I went to Italy on my own for a long weekend and climbed Vesuvius."]
# Turns naming both speakers, which the whole question (sharing its words among the names) prefers.
TOGETHER = [f"Bartek: Lian, {topic}" for topic in (
    "did you see the match last night?", "your plants look great in the photo.", "thanks for the book tip!",
    "how was the dentist?", "I owe you a coffee.", "the new bakery is open.", "that film was so long.",
    "happy birthday!")] + [f"Lian: Bartek, {topic}" for topic in (
    "did you fix the bike?", "I loved the soup recipe.", "the concert got moved to Friday.", "how is your mum?")]
ASKED = "Which country did both Bartek and Lian visit?"


@pytest.mark.parametrize("on", [True, False])
def test_each_name_finds_what_was_said_of_it(make_service, on):
    svc = make_service(search={"question_halves": on})
    greece, italy, *_ = converse(svc, [*TRAVELS, *TOGETHER])
    result = recall(svc, RecallRequest(query=ASKED, agentId="pair", limit=3, min_score=0), SEARCH)
    top = [h.id for h in result.results]
    if on:
        assert {greece, italy} <= set(top), [h.content for h in result.results]
        assert result.meta["halves"] == ["Which country did Bartek visit?", "Which country did Lian visit?"]
        assert "halves" in [stage["name"] for stage in result.meta["timings"]["stages"]]
    else:  # what the mechanism is for: without it, one trip is not among the three
        assert not {greece, italy} <= set(top)
        assert "halves" not in result.meta


def test_halves_keep_the_callers_filter(make_service):
    svc = make_service(search={"question_halves": True})
    converse(svc, [*TRAVELS, *TOGETHER])
    result = recall(svc, RecallRequest(query=ASKED, agentId="pair", who="Lian", limit=5, min_score=0), SEARCH)
    assert result.meta["halves"] and result.results  # Bartek's half finds nothing it may show
    assert all(h.content.startswith("Lian:") for h in result.results)


def test_a_family_takes_one_place_when_the_question_and_a_half_each_keep_another_member(make_service):
    # The question prefers the turn (it also names Lian), the half "... Bartek ..." the fact derived from it.
    svc = make_service(search={"question_halves": True})
    source, *_ = converse(svc, ["Bartek: Lian!! I flew home from Greece two weeks ago, still dazed, Lian.",
                                "Lian: I went to Italy on my own for a long weekend and climbed Vesuvius.",
                                "Bartek: the match last night was great.", "Bartek: I cooked soup on Sunday.",
                                "Lian: my plants are thriving.", "Lian: the dentist was fine."])
    fact = converse(svc, ["Bartek flew home from Greece."])[0]
    with svc.db.write() as conn:  # as the pipeline derives it
        conn.execute("UPDATE memories SET source_memory_id = ?, type = 'fact', who = 'pipeline-v2' WHERE id = ?",
                     (source, fact))
    result = recall(svc, RecallRequest(query=ASKED, agentId="pair", limit=10, min_score=0), SEARCH)
    found = [h.id for h in result.results]
    assert result.meta["halves"] and len({source, fact} & set(found)) == 1, [h.content for h in result.results]


def test_only_the_question_walks_the_graph(make_service, monkeypatch):
    """A half's names are among the question's, whose walk started from them all: halves walk no more."""
    import signet_pipeline.recall.legs as legs
    walked = []
    real = legs.traverse

    def spy(conn, agent_id, query, *args, **kwargs):
        walked.append(query)
        return real(conn, agent_id, query, *args, **kwargs)

    monkeypatch.setattr(legs, "traverse", spy)
    svc = make_service(search={"question_halves": True})
    converse(svc, [*TRAVELS, *TOGETHER])
    result = recall(svc, RecallRequest(query=ASKED, agentId="pair", limit=3, min_score=0), SEARCH)
    assert len(result.meta["halves"]) == 2
    assert walked == [ASKED]
