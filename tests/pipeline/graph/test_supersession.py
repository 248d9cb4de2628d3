"""Retroactive supersession between sibling attributes of one entity aspect."""

import pytest

from signet_pipeline.graph.supersession import supersedes
from signet_pipeline.models import RememberRequest
from signet_pipeline.write.remember import remember


@pytest.mark.parametrize("older, newer, reason", [
    ("The dark mode toggle is enabled for Alice", "The dark mode toggle is disabled for Alice", "contradiction"),
    ("Alice likes coffee in the morning", "Alice no longer likes coffee in the morning", "contradiction"),
    ("Signet uses Postgres for storage", "Signet uses SQLite for storage", "value_conflict"),
    ("Alice lives in Berlin", "Alice now lives in Lisbon", "value_conflict"),
    ("The Zephyr build runs nightly on the old runner", "The Zephyr build now runs nightly on the new runner",
     "temporal_update"),
    ("Alice likes coffee with milk", "Alice likes coffee with sugar", None),  # same head value: a refinement
    ("Alice likes coffee", "Bob likes tea", None),  # different subjects
    ("Alice works at Google in Berlin", "Alice met Priya at the Berlin office", None),
])
def test_supersession_signals(older, newer, reason):
    assert supersedes(older, newer) == reason


def attributes(svc, entity):
    return svc.db.reader().execute(
        "SELECT t.content, t.status, t.kind, t.superseded_by IS NOT NULL FROM entity_attributes t "
        "JOIN entities e ON e.id = t.entity_id WHERE e.canonical_name = ? ORDER BY t.created_at, t.rowid",
        (entity,)).fetchall()


def test_a_new_memory_retires_the_attribute_it_contradicts(svc):
    remember(svc, RememberRequest(content="Priya Sharma lives in Berlin"))
    remember(svc, RememberRequest(content="Priya Sharma likes jazz"))
    remember(svc, RememberRequest(content="Priya Sharma now lives in Lisbon"))
    assert attributes(svc, "priya sharma") == [
        ("Priya Sharma lives in Berlin", "superseded", "attribute", 1),
        ("Priya Sharma likes jazz", "active", "attribute", 0),  # another aspect (preferences)
        ("Priya Sharma now lives in Lisbon", "active", "attribute", 0),
    ]


def test_constraints_are_never_superseded(svc):
    remember(svc, RememberRequest(content="Deploys of Signet must never happen on Fridays"))
    remember(svc, RememberRequest(content="Deploys of Signet happen on Fridays now"))
    statuses = {content: (status, kind) for content, status, kind, _ in attributes(svc, "signet")}
    assert statuses["Deploys of Signet must never happen on Fridays"] == ("active", "constraint")


def test_sharing_only_the_entity_name_supersedes_nothing(svc):
    """Every sibling shares the entity's name; a negation about something else is no contradiction."""
    remember(svc, RememberRequest(content="Priya Sharma likes green tea"))
    remember(svc, RememberRequest(content="Priya Sharma does not like loud offices"))
    remember(svc, RememberRequest(content="Priya Sharma does not like green tea"))
    assert [(content, status) for content, status, _, _ in attributes(svc, "priya sharma")] == [
        ("Priya Sharma likes green tea", "superseded"),
        ("Priya Sharma does not like loud offices", "active"),
        ("Priya Sharma does not like green tea", "active"),
    ]
