// The entity graph and the constellation, drawn by cytoscape.js (vendor/, MIT): hover a node for
// what it is, click to open it, scroll to zoom, drag to pan, untick a type in the legend to hide it.
// Loaded before app.js, whose helpers (api, esc, short, day, view, again) these functions call when they run.
"use strict";

const ENTITY_COLOURS = { person: "#ff8c69", place: "#7bd389", organization: "#c792ea", project: "#ffd166",
  system: "#4fc1e9", tool: "#f78fb3", concept: "#8fb0ff", skill: "#b5e853", task: "#f2a65a", extracted: "#9aa3b5" };
const MEMORY_COLOURS = { fact: "#8fb0ff", preference: "#7bd389", decision: "#ffd166", rule: "#ff8c69",
  session_summary: "#c792ea", document_chunk: "#4fc1e9" };
const SPARE = ["#e07a5f", "#81b29a", "#f2cc8f", "#a5a8ff", "#ef8fd1", "#6fd3c6", "#d4a373"];
const DERIVED = "pipeline-v2";  // `who` of a fact the pipeline extracted from a memory

let drawn = null;  // the cytoscape instance on the page, destroyed when the page changes

function colourOf(known, type) {
  if (known[type]) return known[type];
  const hash = [...String(type)].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  return SPARE[hash % SPARE.length];
}

function unmountGraph() {
  if (drawn) { drawn.destroy(); drawn = null; }
  document.getElementById("tip").hidden = true;
}

function mount(container, elements, style, layout) {
  unmountGraph();
  drawn = cytoscape({ container, elements, style, layout, minZoom: 0.05, maxZoom: 10 });
  if (drawn.zoom() > 1.5) { drawn.zoom(1.5); drawn.center(); }  // a few nodes fitted would be drawn huge
  const tip = document.getElementById("tip");
  drawn.on("viewport tap", () => { tip.hidden = true; });
  drawn.on("mouseout", "node", () => { tip.hidden = true; });
  return drawn;
}

function tooltip(cy, describe) {
  const tip = document.getElementById("tip");
  cy.on("mouseover", "node", (e) => {
    const box = cy.container().getBoundingClientRect(), at = e.target.renderedPosition();
    tip.innerHTML = describe(e.target.data());
    tip.hidden = false;
    tip.style.left = `${Math.min(box.left + at.x + 14, innerWidth - tip.offsetWidth - 8)}px`;
    tip.style.top = `${Math.min(box.top + at.y + 14, innerHeight - tip.offsetHeight - 8)}px`;
  });
}

// The legend: one tick box per type, its colour and count; unticking hides that type's nodes.
function legend(box, cy, colours, extra = "") {
  const counts = {};
  cy.nodes().forEach((n) => { counts[n.data("type")] = (counts[n.data("type")] || 0) + 1; });
  box.innerHTML = Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([type, n]) =>
    `<label><input type="checkbox" data-type="${esc(type)}" checked><i class="dot" style="background:${colourOf(colours, type)}"></i>${esc(type)} <span class="muted">${n}</span></label>`).join("") + extra;
  box.addEventListener("change", (e) => {
    const type = e.target.dataset.type;
    cy.nodes().filter((n) => n.data("type") === type).style("display", e.target.checked ? "element" : "none");
  });
}

// -- entities: who and what the memories name, joined when one memory names both --------------
async function graph() {
  const { body } = await api("/api/knowledge/constellation");
  const ents = body.entities.slice(0, 300);
  if (!ents.length) { view.innerHTML = `<p class="muted">No entities yet.</p>`; return; }
  const known = new Set(ents.map((e) => e.id)), byMemory = new Map(), links = new Map();
  ents.forEach((e) => (e.aspects || []).forEach((a) => (a.attributes || []).forEach((t) => {
    if (!byMemory.has(t.memoryId)) byMemory.set(t.memoryId, new Set());
    byMemory.get(t.memoryId).add(e.id);
  })));
  const link = (a, b) => { const key = [a, b].sort().join(" "); links.set(key, (links.get(key) || 0) + 1); };
  for (const group of byMemory.values()) { const g = [...group]; g.forEach((a, i) => g.slice(i + 1).forEach((b) => link(a, b))); }
  for (const d of body.dependencies || []) if (known.has(d.source) && known.has(d.target) && d.source !== d.target) link(d.source, d.target);
  const nodes = ents.map((e) => ({ data: { id: e.id, label: e.name, type: e.entityType, mentions: e.mentions, pinned: !!e.pinned,
    size: 12 + 5 * Math.min(8, Math.sqrt(e.mentions)), colour: colourOf(ENTITY_COLOURS, e.entityType),
    facts: (e.aspects || []).flatMap((a) => a.attributes || []).slice(0, 3).map((t) => t.content) } }));
  const edges = [...links].map(([key, weight], i) => { const [source, target] = key.split(" "); return { data: { id: `l${i}`, source, target, weight } }; });
  view.innerHTML = `<p class="muted">${ents.length} entities${body.entities.length > ents.length ? ` (pinned, then the most mentioned, of ${body.entities.length})` : ""};
      a line joins two that one memory names, or that depend on each other. Hover a node, click to open it; scroll to zoom, drag to pan.</p>
    <div class="legend" data-test="graph-legend"></div>
    <div id="graph" data-test="graph" data-nodes="${nodes.length}" data-edges="${edges.length}" class="cy"></div>`;
  const cy = mount(document.getElementById("graph"), [...nodes, ...edges], [
    { selector: "node", style: { "background-color": "data(colour)", width: "data(size)", height: "data(size)", label: "data(label)",
      color: "#dfe6ff", "font-size": 11, "text-valign": "bottom", "text-margin-y": 3, "text-outline-color": "#10131c",
      "text-outline-width": 2, "min-zoomed-font-size": 6 } },
    { selector: "node[?pinned]", style: { "border-width": 3, "border-color": "#ffd166" } },
    { selector: "edge", style: { width: "mapData(weight, 1, 6, 1, 4)", "line-color": "#4a5578", opacity: 0.6, "curve-style": "haystack" } },
  ], { name: "cose", animate: false, randomize: true, nodeDimensionsIncludeLabels: true, padding: 30,
    nodeRepulsion: () => 9000, idealEdgeLength: () => 70 });
  tooltip(cy, (d) => `<b>${esc(d.label)}</b>${d.pinned ? " 📌" : ""}<br><span class="muted">${esc(d.type)} · ${esc(d.mentions)} mentions</span>
    ${d.facts.map((f) => `<div>${esc(short(f, 90))}</div>`).join("")}`);
  cy.on("tap", "node", (e) => { location.hash = `#entity/${encodeURIComponent(e.target.id())}`; });
  legend(view.querySelector(".legend"), cy, ENTITY_COLOURS, `<span class="muted"><i class="dot ring"></i>pinned</span>`);
}

// -- constellation: memories placed by meaning (UMAP of their vectors) ------------------------------
async function constellation() {
  const { status, body } = await api("/api/embeddings/projection?dimensions=2");
  if (status === 202) {
    view.innerHTML = `<div class="card" data-test="computing">The pipeline is computing the projection of ${esc(body.total)} memories… this page checks again every 5 s.</div>`;
    again(5000);
    return;
  }
  if (!body.nodes.length) { view.innerHTML = `<p class="muted">No memories with a vector yet.</p>`; return; }
  // The projection's coordinates are a few units wide: spread over 600, a node's size reads about as pixels once fitted.
  const xs = body.nodes.map((n) => n.x), ys = body.nodes.map((n) => n.y);
  const x0 = Math.min(...xs), y0 = Math.min(...ys), span = Math.max(Math.max(...xs) - x0, Math.max(...ys) - y0) || 1;
  const nodes = body.nodes.map((n) => ({ data: { id: n.id, type: n.type, colour: colourOf(MEMORY_COLOURS, n.type),
    shape: n.who === DERIVED ? "diamond" : "ellipse", content: n.content, who: n.who, created: n.createdAt },
    position: { x: (n.x - x0) / span * 600, y: (n.y - y0) / span * 600 } }));
  const edges = (body.edges || []).map(([a, b], i) => ({ data: { id: `n${i}`, source: body.nodes[a].id, target: body.nodes[b].id } }));
  view.innerHTML = `<p class="muted">${esc(body.count)} of ${esc(body.total)} memories, placed by meaning (UMAP of their vectors):
      near each other, they say similar things. Colour: the memory's type. Hover a point, click to open it; scroll to zoom, drag to pan.
      ${body.stale ? "Laid out before the latest changes: the pipeline is recomputing it, this page checks again every 5 s." : ""}</p>
    <div class="legend" data-test="constellation-legend"></div>
    <div id="sky" data-test="constellation" data-nodes="${nodes.length}" class="cy"></div>`;
  const cy = mount(document.getElementById("sky"), [...nodes, ...edges], [
    { selector: "node", style: { "background-color": "data(colour)", shape: "data(shape)", width: 10, height: 10 } },
    { selector: "edge", style: { width: 0.6, "line-color": "#3a4360", opacity: 0.5, "curve-style": "haystack" } },
  ], { name: "preset", fit: true, padding: 30 });
  tooltip(cy, (d) => `<span class="muted">${esc(d.type)}${d.who === DERIVED ? " · derived by the pipeline" : ""} · ${esc(day(d.created))}</span>
    <div>${esc(short(d.content, 220))}</div>`);
  cy.on("tap", "node", (e) => { location.hash = `#memory/${encodeURIComponent(e.target.id())}`; });
  if (body.stale) again(5000);
  legend(view.querySelector(".legend"), cy, MEMORY_COLOURS,
    `<span class="muted"><i class="dot"></i>remembered <i class="dot diamond"></i>derived by the pipeline from a memory</span>`);
}
