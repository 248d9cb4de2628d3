"""The dashboard and the docs pages in headless Chromium (Debian's `chromium`; .ci/run installs it),
against a live server, with every other host unresolvable: each view renders with data and its
screenshot is not blank."""

import re
import time

import dagster as dg
import pytest

from signet_api.app import create_app
from signet_pipeline.defs.embeddings.assets import embedding_projection
from signet_pipeline.defs.resources import EmbedderResource, SignetStoreResource
from signet_pipeline.providers.llm.rules import RulesLlm
from signet_pipeline.stages.extraction.batch import run_jobs
from signet_pipeline.store.queue import EXTRACT, JOB_TYPES, JobQueue
from tests.browser import CHROMIUM, distinct_colours, dom, screenshot
from tests.browser.cdp import Tab
from tests.conftest import remember
from tests.live_server import LiveServer

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

REFRESH_S = 3  # the pipeline page's refresh while jobs wait (app.js REFRESH_MS)


def _ready(html: str, view: str) -> None:
    assert f'data-ready="{view}"' in html, html[-2000:]
    assert re.search(r'<div id="banner" role="alert" hidden', html), "the page reported an error"


def test_memories_list_filters_search_and_detail(site, tmp_path):
    html = dom(f"{site}/ui/#memories")
    _ready(html, "memories")
    assert 'data-test="memory-list"' in html and "garage door" in html and "Frankfurt" in html
    filtered = dom(f"{site}/ui/#memories?tags=db")
    assert "Postgres over MySQL" in filtered and "garage door" not in filtered
    pinned = dom(f"{site}/ui/#memories?pinned=true")
    assert "garage door" in pinned and "Frankfurt" not in pinned
    searched = dom(f"{site}/ui/#memories?q=where+is+the+key")
    assert re.search(r"<th>score</th>", searched) and "garage door" in searched
    memory_id = re.search(r'data-id="([0-9a-f-]{36})"', html).group(1)
    detail = dom(f"{site}/ui/#memory/{memory_id}")
    assert 'data-test="memory-detail"' in detail and 'data-test="history"' in detail and "created" in detail
    assert distinct_colours(screenshot(f"{site}/ui/#memories", tmp_path / "memories.png", size="900,600")) > 20


def test_entities_and_the_graph_view(site, tmp_path):
    html = dom(f"{site}/ui/#entities")
    _ready(html, "entities")
    assert 'data-test="entity"' in html and "Priya Sharma" in html and "dark mode" in html
    assert "weight 0.5, not learned yet" in html  # the spec's start value, until session feedback moves it
    graph = dom(f"{site}/ui/#graph")
    _ready(graph, "graph")
    nodes = int(re.search(r'data-test="graph" data-nodes="(\d+)" data-edges="(\d+)"', graph).group(1))
    assert nodes >= 4
    assert distinct_colours(screenshot(f"{site}/ui/#graph", tmp_path / "graph.png", size="900,600")) > 10


def test_constellation_computing_then_drawn(site, workspace, tmp_path):
    html = dom(f"{site}/ui/#constellation", budget_ms=3000)
    assert 'data-test="computing"' in html and "computing the projection of 8 memories" in html
    with dg.instance_for_test() as instance:
        assert dg.materialize([embedding_projection], instance=instance,
                              resources={"signet": SignetStoreResource(workspace=str(workspace),
                                                                       embedder=EmbedderResource())}).success
    drawn = dom(f"{site}/ui/#constellation")
    _ready(drawn, "constellation")
    assert 'data-test="constellation" data-nodes="8"' in drawn
    assert distinct_colours(screenshot(f"{site}/ui/#constellation", tmp_path / "sky.png", size="900,600")) > 10


def test_pipeline_status_with_diagnostics_and_the_dagster_ui_the_stack_started(site, tmp_path, monkeypatch):
    monkeypatch.delenv("SIGNET_DAGSTER_URL", raising=False)
    alone = dom(f"{site}/ui/#pipeline")  # `signet serve`: no Dagster UI to link
    _ready(alone, "pipeline")
    assert 'data-test="pipeline"' in alone and "queue depth" in alone and 'data-test="diagnostics"' in alone
    assert "connector" in alone and "No Dagster UI" in alone and "/runs" not in alone
    monkeypatch.setenv("SIGNET_DAGSTER_URL", "http://127.0.0.1:3991")  # `signet up --dagster-port 3991` sets it
    html = dom(f"{site}/ui/#pipeline")
    assert 'href="http://127.0.0.1:3991/runs"' in html and 'href="http://127.0.0.1:3991/assets"' in html
    assert ":3000" not in html
    assert distinct_colours(screenshot(f"{site}/ui/#pipeline", tmp_path / "pipeline.png", size="900,600")) > 10


def test_the_pipeline_page_refreshes_while_jobs_wait_and_stops_when_left_or_empty(site, svc):
    depth = "document.querySelector('[data-test=depth]')?.textContent"
    fetches = "performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/pipeline/status')).length"
    queue = JobQueue(svc.db, owner="test-drain")
    with Tab(f"{site}/ui/#pipeline") as tab:
        before = int(tab.wait_for(depth))
        assert before > 3 and tab.js("!!document.querySelector('[data-test=refreshing]')")
        for job in queue.lease([EXTRACT], limit=3):
            queue.complete(job)
        tab.wait_for(f"{depth} === '{before - 3}'", timeout=15)  # no reload: the page fetched again

        tab.js("location.hash = '#memories'")
        tab.wait_for("document.body.dataset.ready === 'memories'")
        left = tab.js(fetches)
        time.sleep(REFRESH_S + 1)
        assert tab.js(fetches) == left

        while jobs := queue.lease(list(JOB_TYPES), limit=100):
            for job in jobs:
                queue.complete(job)
        tab.js("location.hash = '#pipeline'")
        tab.wait_for(f"document.body.dataset.ready === 'pipeline' && {depth} === '0'")
        assert not tab.js("!!document.querySelector('[data-test=refreshing]')")
        empty = tab.js(fetches)
        time.sleep(REFRESH_S + 1)
        assert tab.js(fetches) == empty


def test_a_derived_fact_links_to_its_source_and_a_deduped_proposal_says_why(client, site, svc):
    source = remember(client, "Nicholai prefers tabs over spaces. We decided to use PostgreSQL for Signet.")
    run_jobs(svc, JobQueue(svc.db), RulesLlm(), 50)
    [fact] = [r[0] for r in svc.db.reader().execute("SELECT id FROM memories WHERE source_memory_id = ? LIMIT 1",
                                                    (source["id"],))]
    html = dom(f"{site}/ui/#memory/{fact}")
    _ready(html, "memory")
    link = re.search(r'data-test="source-memory">Derived by the pipeline from\s*<a href="#memory/([0-9a-f-]+)">', html)
    assert link and link.group(1) == source["id"] and "Nicholai prefers tabs over spaces." in html
    # A one-sentence memory's fact is its own text: the history says so, not "no candidate states ...".
    [alone] = [r[0] for r in svc.db.reader().execute("SELECT id FROM memories WHERE content LIKE 'Alice is%'")]
    history = dom(f"{site}/ui/#memory/{alone}")
    assert "deduped" in history and "the memory it was extracted from already says exactly this" in history


def test_team_mode_asks_for_a_token(make_service):
    svc = make_service(auth={"mode": "team"})
    with LiveServer(create_app(service=svc)) as server:
        html = dom(f"{server.url}/ui/#memories")
    assert 'id="token-form"' in html and 'id="token-form" hidden' not in html
    assert "needs an API token" in html


def test_the_blank_page_check_can_fail(tmp_path):
    blank = tmp_path / "blank.html"
    blank.write_text("<html><body style='background:#fff'></body></html>")
    assert distinct_colours(screenshot(blank.as_uri(), tmp_path / "blank.png", size="400,300")) <= 2


def test_the_docs_render_offline(site, tmp_path):
    html = dom(f"{site}/docs", budget_ms=10000)
    assert "swagger-ui" in html and "/api/memory/recall" in html  # Swagger UI built the operation list
    assert distinct_colours(screenshot(f"{site}/docs", tmp_path / "docs.png", size="900,600")) > 10
