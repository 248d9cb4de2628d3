"""The entity graph and the constellation as a person explores them, in headless Chromium driven
over the DevTools protocol: a legend per type, a tooltip on hover, a click that opens the entity or
the memory, the wheel that zooms, a tick box that hides a type."""

import dagster as dg
import pytest

from signet_pipeline.defs.embeddings.assets import embedding_projection
from signet_pipeline.defs.resources import EmbedderResource, SignetStoreResource
from tests.browser import CHROMIUM
from tests.browser.cdp import Tab

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

CY = "document.querySelector('.cy')._cyreg.cy"  # the instance cytoscape registers on its container
# The node farthest from every other (so the mouse lands on it alone), where it is on the screen.
LONE_NODE = f"""(() => {{
  const cy = {CY}, box = cy.container().getBoundingClientRect(), nodes = cy.nodes(':visible');
  const gap = (n) => Math.min(...nodes.filter((m) => m !== n).map((m) => Math.hypot(
    m.renderedPosition().x - n.renderedPosition().x, m.renderedPosition().y - n.renderedPosition().y)));
  const n = nodes.max(gap).ele, at = n.renderedPosition();
  return {{ id: n.id(), label: n.data('label') || '', content: n.data('content') || '',
           x: box.left + at.x, y: box.top + at.y }};
}})()"""
TIP = "document.getElementById('tip')"


def _hover_zoom_and_open(tab: Tab, view: str) -> dict:
    """Hover the loneliest node (its tooltip), zoom on it with the wheel, click it: the page it opens."""
    tab.wait_for(f"document.body.dataset.ready === '{view}'")
    node = tab.js(LONE_NODE)
    tab.mouse("mouseMoved", node["x"], node["y"])
    shown = tab.wait_for(f"!{TIP}.hidden && {TIP}.textContent")
    assert (node["label"] or node["content"][:40]) in shown
    zoom = tab.js(f"{CY}.zoom()")
    for _ in range(5):
        tab.wheel(node["x"], node["y"], -300)
    tab.wait_for(f"{CY}.zoom() > {zoom} * 1.1")
    node = tab.js(LONE_NODE)
    tab.click(node["x"], node["y"])
    return node


def test_the_entity_graph_has_a_legend_tooltips_zoom_a_type_filter_and_opens_an_entity(site):
    with Tab(f"{site}/ui/#graph") as tab:
        node = _hover_zoom_and_open(tab, "graph")
        tab.wait_for("document.body.dataset.ready === 'entity'")
        assert tab.js("location.hash") == f"#entity/{node['id']}"
        assert node["label"] in tab.js("document.querySelector('[data-test=entity]').textContent")

        tab.js("history.back()")
        tab.wait_for(f"document.body.dataset.ready === 'graph' && {CY}.nodes().length > 0")
        types = tab.js("[...document.querySelectorAll('[data-test=graph-legend] input')].map((i) => i.dataset.type)")
        assert types and len(types) == len(set(types)) == tab.js(
            f"new Set({CY}.nodes().map((n) => n.data('type'))).size")
        hidden = types[0]
        box = tab.js(f"(() => {{ const r = document.querySelector('[data-type=\"{hidden}\"]').getBoundingClientRect();"
                     " return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()")
        tab.click(box["x"], box["y"])  # untick it
        by_type = f"{CY}.nodes().map((n) => [n.data('type'), n.visible()])"
        tab.wait_for(f"{by_type}.every(([t, v]) => v === (t !== '{hidden}'))")
        tab.click(box["x"], box["y"])
        tab.wait_for(f"{by_type}.every(([, v]) => v)")


def test_the_constellation_names_its_colours_shows_a_memory_on_hover_and_opens_it(site, workspace):
    with Tab(f"{site}/ui/#constellation") as tab:
        tab.wait_for("!!document.querySelector('[data-test=computing]')")  # the page asked for the projection
        with dg.instance_for_test() as instance:
            assert dg.materialize([embedding_projection], instance=instance,
                                  resources={"signet": SignetStoreResource(workspace=str(workspace),
                                                                           embedder=EmbedderResource())}).success
        legend = tab.wait_for("document.querySelector('[data-test=constellation-legend]')?.textContent")
        types = tab.js(f"[...new Set({CY}.nodes().map((n) => n.data('type')))]")
        assert len(types) >= 2 and all(t in legend for t in types) and "derived by the pipeline" in legend
        colours = tab.js("[...document.querySelectorAll('[data-test=constellation-legend] input + .dot')]"
                         ".map((d) => d.style.background)")
        assert len(colours) == len(set(colours)) == len(types)  # one colour per type, each named
        node = _hover_zoom_and_open(tab, "constellation")
        tab.wait_for("document.body.dataset.ready === 'memory'")
        assert tab.js("location.hash") == f"#memory/{node['id']}"
        assert node["content"] in tab.js("document.querySelector('[data-test=memory-detail]').textContent")
