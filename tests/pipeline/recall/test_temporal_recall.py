"""Temporal recall: date phrases in the query and the `time` object, timelines for date-only
queries, windows that filter a topic search, and the facet that placed each result."""

from __future__ import annotations

import time
from datetime import date

import pytest

from signet_pipeline.recall.temporal import find_dates
from tests.conftest import recall, remember


@pytest.fixture
def utc(monkeypatch):
    """Date phrases mean days in the server's time zone: pin it for the assertions."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def dated(client, utc):
    ids = {
        "occurred": remember(client, "The billing migration finished without errors",
                             occurredAt="2026-05-13T15:00:00Z")["id"],
        "captured": remember(client, "Ana approved the billing dashboard redesign",
                             createdAt="2026-05-13T09:30:00Z")["id"],
        "valid": remember(client, "The billing freeze is in force for the audit",
                          validFrom="2026-05-10T00:00:00Z", validUntil="2026-05-20T00:00:00Z",
                          createdAt="2026-05-01T00:00:00Z")["id"],
        "before": remember(client, "The billing team planned the migration", occurredAt="2026-05-12T10:00:00Z",
                           createdAt="2026-05-12T10:00:00Z")["id"],
        "after": remember(client, "The billing retro happened", occurredAt="2026-05-14T10:00:00Z",
                          createdAt="2026-05-14T10:00:00Z")["id"],
    }
    return ids


def test_date_phrases_are_found_and_leave_the_query():
    assert find_dates("what happened on 2026/05/13?") == ([date(2026, 5, 13)], "what happened ?")
    days, rest = find_dates("deploys between May 1 2026 and 3rd of May, 2026")
    assert [d.day for d in days] == [1, 3] and rest == "deploys"
    assert find_dates("release 2026-02-30 and version 1.2.3") == ([], "release 2026-02-30 and version 1.2.3")


def test_a_date_only_query_is_a_timeline_of_that_day(client, dated):
    found = recall(client, "2026-05-13")
    assert found["method"] == "timeline" and found["meta"]["temporal"]["mode"] == "timeline"
    assert found["meta"]["temporal"]["source"] == "query" and found["meta"]["temporal"]["contentQuery"] == ""
    by_id = {r["id"]: r for r in found["results"]}
    assert set(by_id) == {dated["occurred"], dated["captured"], dated["valid"]}
    assert [r["id"] for r in found["results"]] == [dated["valid"], dated["captured"], dated["occurred"]]  # event time
    assert (by_id[dated["occurred"]]["temporal_facet"], by_id[dated["occurred"]]["temporal_start_at"]) == \
        ("occurred", "2026-05-13T15:00:00.000Z")
    assert by_id[dated["captured"]]["temporal_facet"] == "captured"
    assert (by_id[dated["valid"]]["temporal_facet"], by_id[dated["valid"]]["temporal_end_at"]) == \
        ("valid", "2026-05-20T00:00:00.000Z")


def test_a_date_and_a_topic_filter_the_topic_search_to_that_day(client, dated):
    found = recall(client, "billing migration May 13 2026")
    meta = found["meta"]["temporal"]
    assert (meta["mode"], meta["contentQuery"], meta["start"], meta["end"]) == \
        ("filter", "billing migration", "2026-05-13T00:00:00.000Z", "2026-05-14T00:00:00.000Z")
    ids = [r["id"] for r in found["results"]]
    assert ids[0] == dated["occurred"] and dated["before"] not in ids and dated["after"] not in ids
    assert found["query"] == "billing migration May 13 2026"
    plain = recall(client, "billing migration")  # no date: no window, no temporal meta
    assert dated["before"] in [r["id"] for r in plain["results"]] and "temporal" not in plain["meta"]


def test_the_time_object_picks_facets_and_mode(client, dated):
    window = {"start": "2026-05-13T00:00:00Z", "end": "2026-05-14T00:00:00Z"}
    occurred = recall(client, "billing", time={**window, "facets": ["occurred"], "mode": "timeline"})
    assert [r["id"] for r in occurred["results"]] == [dated["occurred"]]
    assert occurred["meta"]["temporal"]["source"] == "request"
    filtered = recall(client, "dashboard", time={**window, "facets": ["captured"]})
    assert [r["id"] for r in filtered["results"]] == [dated["captured"]]
    open_ended = recall(client, "billing", time={"start": "2026-05-14T00:00:00Z", "mode": "timeline",
                                                 "facets": ["occurred", "valid"]})
    assert [r["id"] for r in open_ended["results"]] == [dated["valid"], dated["after"]]  # the freeze runs to 05-20
    for bad in ({"start": "2026-05-14T00:00:00Z", "end": "2026-05-13T00:00:00Z"}, {"facets": ["yesterday"]},
                {"mode": "sideways"}, {"start": "not a date"}):
        response = client.post("/api/memory/recall", json={"query": "billing", "time": bad})
        assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_request", bad


def test_a_date_phrase_means_that_day_in_the_servers_time_zone(client, monkeypatch):
    monkeypatch.setenv("TZ", "CST6CDT,M3.2.0,M11.1.0")  # POSIX form: needs no tz database
    time.tzset()
    try:
        meta = recall(client, "2026-05-13")["meta"]["temporal"]
    finally:
        monkeypatch.undo()
        time.tzset()
    assert (meta["start"], meta["end"]) == ("2026-05-13T05:00:00.000Z", "2026-05-14T05:00:00.000Z")  # CDT


def test_the_session_facet_places_memories_by_when_their_session_ran(client, svc, utc):
    client.post("/api/hooks/session-start", json={"harness": "h", "sessionKey": "s-may"})
    with svc.db.write() as conn:
        conn.execute("UPDATE sessions SET started_at = '2026-05-13T08:00:00.000Z', ended_at = "
                     "'2026-05-13T11:00:00.000Z' WHERE session_key = 's-may'")
    saved = remember(client, "We picked Postgres for the ledger service", sessionId="s-may")["id"]
    found = recall(client, "2026-05-13", time={"start": "2026-05-13T00:00:00Z", "end": "2026-05-14T00:00:00Z",
                                               "facets": ["session"]})
    assert [(r["id"], r["temporal_facet"], r["temporal_start_at"]) for r in found["results"]] == \
        [(saved, "session", "2026-05-13T08:00:00.000Z")]


def test_aggregate_recall_answers_as_stopped_for_want_of_a_router(client):
    remember(client, "The editor of choice is Helix")
    found = client.post("/api/memory/recall", json={"query": "editor", "aggregate": True,
                                                    "aggregateBudget": "medium"}).json()
    assert found["results"] == [] and found["meta"]["noHits"] is True
    assert found["aggregate"]["stoppedReason"] == "router_unavailable" and found["aggregate"]["budget"] == "medium"


@pytest.mark.parametrize("query", ["top 5 marketing 2026 ideas", "the 3 decisions 2024", "12 novels 2025",
                                   "mayor 3 2026 election", "2 juniper 2024", "9999-12-31", "0001-01-01"])
def test_words_that_merely_look_like_dates_are_not_dates(query):
    assert find_dates(query) == ([], query)


def test_dates_at_the_calendar_edge_and_long_preposition_runs_are_harmless(client):
    for query in ("9999-12-31", "Dec 31 9999 stuff", "0001-01-01", "to " * 3000 + "2026-05-13"):
        response = client.post("/api/memory/recall", json={"query": query})
        assert response.status_code == 200, query[:40]
    days, rest = find_dates("to " * 5000 + "2026-05-13")  # linear: only the 3 words before a date are looked at
    assert days == [date(2026, 5, 13)] and len(rest.split()) == 5000 - 3


def test_internal_lookups_are_not_cut_to_a_day_named_in_their_text(client, utc):
    remember(client, "Mel painted a sunrise over the lake")
    target = remember(client, "The Nov 22 2026 outage was caused by a full disk")["id"]
    preview = client.post("/api/memory/forget", json={"mode": "preview", "query": "Nov 22 2026 outage"}).json()
    assert [c["id"] for c in preview["candidates"]] == [target]  # words, not every memory stored that day
