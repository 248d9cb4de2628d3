"""Sentences that stand alone: speakers for I/me/my, dates for relative times, speaker labels in
entity linking, and what the rules provider extracts from a conversation turn."""

from datetime import datetime

import pytest

from signet_pipeline.models import RememberRequest
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.text.attribution import third_person, with_dates
from signet_pipeline.text.entities import names, opening_name

MONDAY = datetime(2023, 5, 8, 13, 56)


@pytest.mark.parametrize("sentence, expected", [
    ("I went to a support group.", "Caroline went to a support group."),
    ("I love painting and my kids love it too.", "Caroline loves painting and Caroline's kids love it too."),
    ("I'm keen on counseling.", "Caroline is keen on counseling."),
    ("I have a dog named Max.", "Caroline has a dog named Max."),
    ("It reminded me of my childhood.", "It reminded Caroline of Caroline's childhood."),
    ("The book is mine.", "The book is Caroline's."),
    ("I still laugh about it.", "Caroline still laughs about it."),
    ("I track my runs.", "Caroline tracks Caroline's runs."),
    ("Should I get a new phone or wait.", "Should Caroline get a new phone or wait."),
    ("I'd better go.", "Caroline had better go."),
    ("I'd love that.", "Caroline would love that."),
    ("Tell me I'm not crazy.", "Tell Caroline Caroline is not crazy."),
    # curly apostrophes, as phones type them
    ("I’m so tired.", "Caroline is so tired."), ("I’ve been busy.", "Caroline has been busy."),
    ("I’d better go.", "Caroline had better go."),
    # a plural subject keeps its verb; "and" between clauses does not make one
    ("Tom and I watch films on Fridays.", "Tom and Caroline watch films on Fridays."),
    ("My wife and I have two kids.", "Caroline's wife and Caroline have two kids."),
    ("Mom, Dad and I were at the lake.", "Mom, Dad and Caroline were at the lake."),
    ("She left early and I stay late.", "She left early and Caroline stays late."),
    ("Yes and I think so.", "Yes and Caroline thinks so."),
])
def test_the_speaker_takes_the_place_of_the_first_person(sentence, expected):
    assert third_person(sentence, "Caroline") == expected


@pytest.mark.parametrize("phrase, expected", [
    ("yesterday", "7 May 2023"), ("tomorrow", "9 May 2023"), ("last Tuesday", "2 May 2023"),
    ("next Friday", "12 May 2023"), ("last month", "April 2023"), ("last year", "2022"),
    ("two weeks ago", "24 April 2023"), ("3 days ago", "5 May 2023"),
    ("last week", "the week before 8 May 2023"),
])
def test_relative_times_get_their_date(phrase, expected):
    assert with_dates(f"We met {phrase}.", MONDAY) == f"We met {phrase} ({expected})."
    assert with_dates(f"We met {phrase}.", None) == f"We met {phrase}."


def test_a_speaker_label_is_an_entity_when_the_speaker_talks_about_themselves():
    assert names("Caroline: I adopted a beagle from the shelter.") == ["Caroline"]
    assert names("Caroline: Hey Melanie!") == ["Melanie"]  # not "Caroline Hey Melanie"
    assert names("I moved to Porto.", speaker="Ana Lima") == ["Ana Lima", "Porto"]
    assert names("Note: the build is green") == []  # a heading, not a speaker
    assert names("We go hiking on Tuesdays in May with Jonas.") == ["Jonas"]  # calendar words are times


@pytest.mark.parametrize("sentence, expected", [
    ("Can't believe it. I've told Dario already.", ["Dario"]),  # contractions are not names
    ("Didn't Imogen say she'd host?", ["Imogen"]),
    ("Marta's flat was near Alfama.", ["Marta", "Alfama"]),  # the possessive is not part of the name
    ("We met at Halden\u2019s office.", ["Halden"]),
    ("Take lots of photos in Lisbon.", ["Lisbon"]),  # an imperative taking its object
    ("Grab me the address later.", []),
    ("Every single day he steals socks.", []),  # closed-class words never name anything
    ("Felipe trains for the marathon.", ["Felipe"]),  # a name opening a sentence is followed by its verb
    ("Yesterday Marta moved to Porto.", ["Marta", "Porto"]),
    ("Wait, really?", []),  # an opener set off by punctuation: an interjection, a one-word reply
    ("Mood, honestly.", []),
    ("Noted.", []),
    ("Omar, my big brother, just moved to Taipei!", ["Omar", "Taipei"]),  # a comma and what the name is
    ("Evening Emre! How was the trip?", ["Emre"]),  # a greeting is no part of the name
])
def test_names_a_person_would_name(sentence, expected):
    assert names(sentence) == expected


def test_a_query_reaches_the_entity_a_possessive_named():
    from signet_pipeline.graph.traversal import query_phrases
    from signet_pipeline.text.entities import canonical_name
    [name] = names("Marta's flat was near the river.")
    assert canonical_name(name) in query_phrases("Where was Marta's flat?")


def test_rules_extraction_keeps_who_said_it_and_when():
    facts = RulesLlm().extract("Caroline: Hey! I went to a LGBTQ support group yesterday. It was powerful.",
                               written_at=MONDAY)["facts"]
    contents = [f["content"] for f in facts]
    assert "Caroline went to a LGBTQ support group yesterday (7 May 2023)." in contents
    assert not any(c.startswith("Caroline:") for c in contents)


@pytest.mark.parametrize("sentence, opener", [
    ("Talk soon!", "Talk"),  # a capitalised ordinary word where only its place says "name"
    ("Lovely talking to you.", "Lovely"),
    ("Tonight I'm cooking.", "Tonight"),
    ("Gerald went on about it for weeks.", None),  # a finite verb follows: the subject, a name
    ("Nicholai prefers tabs.", None),
    ("Amira's also writing the notes.", None),  # "'s" is "is"
    ("Stefan still hasn't signed off.", None),
    ("Astrid, my younger sister, just moved to Kraków!", None),  # an apposition says what the name is
    ("Signet notes about Signet.", None),  # named again inside the sentence
    ("Ana: Talk soon!", "Talk"),  # after the speaker's label
    ("I met Marta.", None),  # not at the start
    ("Maplestone Games is hiring.", None),  # two words: a name's shape
])
def test_the_opening_word_that_only_its_place_makes_a_name(sentence, opener):
    assert opening_name(sentence) == opener


def test_an_opening_word_is_linked_once_the_agent_has_met_it_elsewhere(svc):
    from signet_pipeline.store import graph as graph_store
    from signet_pipeline.write.remember import remember

    def entities():
        return {e["canonical_name"] for e in graph_store.list_entities(svc.db.reader(), agent_id="a", limit=50,
                                                                       offset=0)}
    remember(svc, RememberRequest(content="Priya: Talk soon! Tonight I'm cooking.", agentId="a"))
    remember(svc, RememberRequest(content="Priya: Lucia sends her love.", agentId="a"))  # a subject: linked
    remember(svc, RememberRequest(content="Priya: Dinner with Marta was fun.", agentId="a"))
    memory = remember(svc, RememberRequest(content="Priya: Marta tonight, then home. Bruno tonight too.", agentId="a"))
    assert {"talk", "tonight", "bruno"}.isdisjoint(entities())
    assert {"lucia", "marta"} <= entities()  # Marta met mid-sentence first, then linked at a start too
    linked = graph_store.linked_entities(svc.db.reader(), [memory.id])[memory.id]
    assert [graph_store.entity_row(svc.db.reader(), e)["canonical_name"] for e, _ in linked] == ["marta"]
