"""The statement form (recall/statements.py): a yes/no question about one named person is also asked as
that person's own statement, and a memory keeps its best score unless it asks something."""

import time

import pytest

from signet_pipeline.models import RecallRequest
from signet_pipeline.recall.search import SEARCH, recall
from signet_pipeline.recall.statements import as_statement, says_of_oneself
from signet_pipeline.text.content import asks
from tests.test_recall_bridges import converse


@pytest.mark.parametrize("question, expected", [
    ("Would Ana likely enjoy a pottery class?", "Ana: I enjoy a pottery class."),
    ("Would Ana be interested in a photo walk?", "Ana: I am interested in a photo walk."),
    ("Is Jabari likely in decent running shape?", "Jabari: I am in decent running shape."),
    ("Is Jabari likely to plan his holidays early?", "Jabari: I plan my holidays early."),
    ("Would Renata be likely to stick to a no-buy month?", "Renata: I stick to a no-buy month."),
    ("Can Greta probably play the piano?", "Greta: I can play the piano."),  # an ability stays one
    ("Does Tomás tend to cook for Tomás's friends?", "Tomás: I tend to cook for my friends."),
    ("Would Mary Ann enjoy her garden?", "Mary Ann: I enjoy my garden."),
    ("Is Ana more of a saver or a spender?", None),  # alternatives: nobody says both
    ("Does Ana's dog need long walks?", None),  # about something of hers, not her statement
    ("What would Ana cook for a party?", None),  # not a yes/no question
    ("Did Ana go to Lisbon?", None),  # a past event: the question's own words find it
    ("Would it rain on Sunday?", None),  # no person
    ("Would you enjoy it?", None),
    ("Would Ana?", None),
    ("Ana would enjoy a pottery class.", None),  # not a question
    ("Is Ana likely to be happy?", "Ana: I am happy."),
    ("Is Ana to blame?", "Ana: I am to blame."),  # only "likely to" leaves
    ("Would Ana Be interested??", "Ana: I am interested."),
    ("Does James' dog need walks?", None),
    ("Would Ana and I enjoy pottery?", None),  # two people (no halves for "I")
    ("Would Ana & Ben enjoy pottery?", None),
    ("Would Ana, Ben and Cy enjoy it?", None),
    ("?", None), ("Would?", None),
    ("Would " + " " * 10_000 + "Ana enjoy it?", None),  # a prompt, not a question about a person
])
def test_a_question_about_a_person_as_their_statement(question, expected):
    assert as_statement(question) == expected


@pytest.mark.parametrize("text, expected", [
    ("Ana: any fitness tips for me?", True), ("how was work today? 🙃", True), ("(really?)", True),
    ("Ana: I swim every morning.", False), ("Is it? No, it's fine.", False), ("", False),
])
def test_asks(text, expected):
    assert asks(text) is expected


def test_long_input_costs_little():
    """Both once took seconds to minutes on a long run of spaces or punctuation (a regex retrying at each)."""
    started = time.perf_counter()
    for text in ["Would" + " " * 10_000 + "x", "Can\n" + " " * 1_500 + "code", "!" * 100_000, "-" * 100_000 + "?"]:
        as_statement(text)
        asks(text)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("content, expected", [
    ("Ana: I get up before six to swim.", True), ("Ana: new thing: i'm learning padel", True),
    ("Ana: my knee is better now", True),
    ("Ana: hiii how's your week going", False),  # says nothing of her
    ("Ana: work is quiet this week for once", False),
    ("Ana: do I look tired to you?", False),  # asks
    ("Ana swims forty lengths every morning.", False),  # a fact written of her: its turn may take the score
])
def test_what_someone_says_of_themselves(content, expected):
    assert says_of_oneself(content) is expected


SELF = "Ana: I get up before six every day to swim forty lengths, it clears my head."
ANAS_QUESTIONS = ["Ana: any fitness tips for me?", "Ana: do I look tired to you?",
                  "Ana: are you coming to the park on Sunday?"]
TURNS = [SELF, *ANAS_QUESTIONS, "Ben: I would rather sleep in on a Sunday.",
         "Ben: the morning bootcamp in the park looks brutal.", "Ben: would you enjoy a bootcamp?", "Ana: lol same",
         "Ben: my cousin runs a fitness class downtown.", "Ana: my sister is visiting next month.",
         "Ben: early classes are not for me, I need coffee first.", "Ana: honestly the traffic was awful today.",
         "Ben: fitness trackers are everywhere now.", "Ben: my gym does a fitness class at 7 am.",
         "Ana: what are you up to this weekend?", "Ben: we should get lunch sometime."]
ASKED = "Would Ana enjoy a 6 am fitness bootcamp?"


def _ask(make_service, on: bool, limit: int = 6):
    # Every service of a test shares its workspace: the second remembers the same turns, which keep their ids.
    svc = make_service(search={"statement_form": on})
    ids = dict(zip(TURNS, converse(svc, TURNS)))
    result = recall(svc, RecallRequest(query=ASKED, agentId="pair", limit=limit, min_score=0), SEARCH)
    return ids, result, {h.id: h.score for h in result.results}


def test_the_persons_own_statement_is_found(make_service):
    ids, off, _ = _ask(make_service, False)
    assert "statement" not in off.meta and ids[SELF] not in [h.id for h in off.results]
    ids, on, _ = _ask(make_service, True)
    assert on.meta["statement"] == "Ana: I enjoy a 6 am fitness bootcamp."
    assert "statement" in [stage["name"] for stage in on.meta["timings"]["stages"]]
    assert ids[SELF] in [h.id for h in on.results], [h.content for h in on.results]


def test_only_what_the_person_says_of_themselves_takes_the_statements_score(make_service, monkeypatch):
    nothing_of_her = [*ANAS_QUESTIONS, "Ana: lol same", "Ana: honestly the traffic was awful today."]
    ids, _, off = _ask(make_service, False, limit=len(TURNS))
    ids, _, on = _ask(make_service, True, limit=len(TURNS))
    assert {t: on[ids[t]] for t in nothing_of_her} == {t: off[ids[t]] for t in nothing_of_her}
    assert on[ids[SELF]] > off[ids[SELF]]
    # What the rule holds back: without it the statement lifts her questions and her small talk too.
    import signet_pipeline.recall.search as search
    monkeypatch.setattr(search, "says_of_oneself", lambda content: True)
    ids, _, unguarded = _ask(make_service, True, limit=len(TURNS))
    assert unguarded[ids[ANAS_QUESTIONS[0]]] > off[ids[ANAS_QUESTIONS[0]]]
    traffic = "Ana: honestly the traffic was awful today."
    assert unguarded[ids[traffic]] > off[ids[traffic]]


@pytest.mark.parametrize("halves", [True, False])
def test_no_statement_for_a_question_of_two_names_nor_a_keyword_query(make_service, halves):
    svc = make_service(search={"statement_form": True, "question_halves": halves})
    converse(svc, TURNS)
    two = recall(svc, RecallRequest(query="Would Ana and Ben enjoy a bootcamp?", agentId="pair", min_score=0), SEARCH)
    assert ("halves" in two.meta) is halves and "statement" not in two.meta
    keyword = recall(svc, RecallRequest(query=ASKED, keywordQuery="bootcamp", agentId="pair", min_score=0), SEARCH)
    assert "statement" not in keyword.meta
