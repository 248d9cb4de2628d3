"""Entity types from the words around a name (text/entity_types.py): the cue must be there, and
the words people and tools stand beside must not type them."""

import pytest

from signet_pipeline.text.entity_types import context_type


@pytest.mark.parametrize("name, sentence, expected", [
    ("Taipei", "Omar just moved to Taipei!", "place"),
    ("Lisbon", "We flew back from Lisbon on Sunday.", "place"),
    ("Bristol", "Didn't you move out of Bristol in March?", "place"),
    ("Exeter", "We're in Exeter now.", "place"),
    ("Hamburg", "I got a place in Hamburg.", "place"),
    ("Polsloe Road", "A terraced house off Polsloe Road.", "place"),
    ("Lake Tahoe", "Lake Tahoe was freezing.", "place"),
    ("Maplestone Games", "I have an interview at Maplestone Games.", "organization"),
    ("Kestrel", "She works at Kestrel.", "organization"),
    ("Dogs Trust", "A rescue from Dogs Trust.", "organization"),
    ("Sundial", "New project, codename Sundial.", "project"),
    ("Heron", "The Heron project ships Friday.", "project"),
])
def test_a_cue_types_the_name(name, sentence, expected):
    assert context_type(name, sentence) == expected


@pytest.mark.parametrize("name, sentence", [
    ("Marcus", "I talked to Marcus yesterday."),  # people are talked to
    ("Marcus", "I heard back from Marcus."),  # and heard from
    ("Marcus", "I'm working with Marcus on it."),
    ("Ana", "We went to Ana's for dinner."),  # a person's place is not a place
    ("Notion", "It's all in Notion."),  # tools are worked in
    ("GitHub Actions", "Can we move to GitHub Actions?"),  # spelled like a tool
    ("Ashford Town", "Ashford Town lost again."),  # a town or a football club
    ("Lisbon", "Lisbon was lovely."),  # no cue: left to the pipeline
])
def test_no_cue_leaves_the_name_untyped(name, sentence):
    assert context_type(name, sentence) is None
