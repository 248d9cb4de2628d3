"""Sentences that stand alone: speakers for I/me/my, dates for relative times, speaker labels in
entity linking, and what the rules provider extracts from a conversation turn."""

from datetime import datetime

import pytest

from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.text.attribution import third_person, with_dates
from signet_pipeline.text.entities import names

MONDAY = datetime(2023, 5, 8, 13, 56)


@pytest.mark.parametrize("sentence, expected", [
    ("I went to a support group.", "Caroline went to a support group."),
    ("I love painting and my kids love it too.", "Caroline loves painting and Caroline's kids love it too."),
    ("I'm keen on counseling.", "Caroline is keen on counseling."),
    ("I have a dog named Max.", "Caroline has a dog named Max."),
    ("It reminded me of my childhood.", "It reminded Caroline of Caroline's childhood."),
    ("The book is mine.", "The book is Caroline's."),
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
