// Signet dashboard: plain JavaScript over the REST API (no framework, nothing from another host).
// Every value from the store is escaped before it reaches the page.
"use strict";

const view = document.getElementById("view");
const banner = document.getElementById("banner");
const TOKEN_KEY = "signet-token";

const esc = (value) => String(value ?? "").replace(/[&<>"']/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const short = (text, n = 160) => { const t = String(text ?? "").replace(/\s+/g, " "); return t.length > n ? t.slice(0, n - 1) + "…" : t; };
const day = (iso) => (iso || "").slice(0, 16).replace("T", " ");
const tags = (value) => String(value || "").split(",").filter(Boolean).map((t) => `<span class="tag">${esc(t.trim())}</span>`).join("");

function say(message) { banner.textContent = message; banner.hidden = !message; }

async function api(path, options = {}) {
  const headers = { "content-type": "application/json", ...(options.headers || {}) };
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, { ...options, headers });
  const body = response.headers.get("content-type")?.includes("json") ? await response.json() : await response.text();
  if (response.status === 401 || response.status === 403) {
    document.getElementById("token-form").hidden = false;
    throw new Error("this service needs an API token with the right role: paste one above");
  }
  if (!response.ok) throw new Error(body?.error?.message || body?.error || `${response.status} ${path}`);
  return { status: response.status, body };
}

// -- memories ---------------------------------------------------------------------------------
async function memories(params) {
  const q = new URLSearchParams(params);
  view.innerHTML = `
    <form class="filters" id="filters">
      <input name="q" placeholder="Search (recall)" value="${esc(q.get("q"))}" size="30">
      <input name="type" placeholder="type" value="${esc(q.get("type"))}" size="10">
      <input name="tags" placeholder="tags (a,b)" value="${esc(q.get("tags"))}" size="12">
      <input name="agentId" placeholder="agent" value="${esc(q.get("agentId"))}" size="10">
      <select name="pinned"><option value="">pinned or not</option><option value="true" ${q.get("pinned") === "true" ? "selected" : ""}>pinned</option></select>
      <label class="muted">since <input name="since" type="date" value="${esc(q.get("since"))}"></label>
      <label class="muted">until <input name="until" type="date" value="${esc(q.get("until"))}"></label>
      <button>Show</button>
    </form>
    <div id="list" class="muted">Loading…</div>`;
  document.getElementById("filters").addEventListener("submit", (e) => {
    e.preventDefault();
    const chosen = [...new FormData(e.target)].filter(([, v]) => v);
    location.hash = `#memories?${new URLSearchParams(chosen)}`;
  });
  const filters = {};
  for (const key of ["type", "tags", "agentId", "pinned", "since", "until"]) if (q.get(key)) filters[key] = q.get(key);
  let rows;
  if (q.get("q")) {
    const body = { query: q.get("q"), limit: 50, ...filters };
    if (body.pinned) body.pinned = true;
    const { body: found } = await api("/api/memory/recall", { method: "POST", body: JSON.stringify(body) });
    rows = found.results;
  } else {
    const { body: page } = await api(`/api/memories?${new URLSearchParams({ limit: 100, ...filters })}`);
    rows = page.memories;
  }
  const list = document.getElementById("list");
  if (!rows.length) { list.textContent = "No memories match."; return; }
  list.classList.remove("muted");
  list.innerHTML = `<table data-test="memory-list"><thead><tr><th>created</th><th>type</th><th>content</th><th>tags</th><th>agent</th>${rows[0].score !== undefined ? "<th>score</th>" : ""}</tr></thead><tbody>
    ${rows.map((m) => `<tr class="row" data-id="${esc(m.id)}"><td class="muted">${esc(day(m.created_at))}</td><td>${esc(m.type)}${m.pinned ? " 📌" : ""}</td>
      <td>${esc(short(m.content))}</td><td>${tags(m.tags)}</td><td class="muted">${esc(m.agent_id || "")}</td>${m.score !== undefined ? `<td>${Number(m.score).toFixed(3)}</td>` : ""}</tr>`).join("")}
    </tbody></table>`;
  list.querySelectorAll("tr.row").forEach((tr) => tr.addEventListener("click", () => { location.hash = `#memory/${tr.dataset.id}`; }));
}

async function memory(id) {
  const [{ body: m }, { body: h }] = await Promise.all([api(`/api/memory/${encodeURIComponent(id)}`),
    api(`/api/memory/${encodeURIComponent(id)}/history`)]);
  view.innerHTML = `<p><a href="#memories">← memories</a></p>
    <div class="card" data-test="memory-detail"><h2>${esc(m.type)}${m.pinned ? " 📌" : ""}</h2><pre>${esc(m.content)}</pre>
      <p class="muted">id ${esc(m.id)} · agent ${esc(m.agent_id)} · importance ${esc(m.importance)} · version ${esc(m.version)} · created ${esc(day(m.created_at))}</p>
      <p>${tags(m.tags)}</p></div>
    <h3>History</h3>
    <table data-test="history"><thead><tr><th>when</th><th>event</th><th>by</th><th>reason</th><th>content</th></tr></thead><tbody>
      ${h.history.map((e) => `<tr><td class="muted">${esc(day(e.createdAt))}</td><td>${esc(e.event)}</td><td>${esc(e.changedBy || "")}</td>
        <td>${esc(e.reason || "")}</td><td>${esc(short(e.newContent || e.oldContent || "", 120))}</td></tr>`).join("")}
    </tbody></table>`;
}

// -- entities and the graph -------------------------------------------------------------------
async function entities(params) {
  const q = new URLSearchParams(params);
  view.innerHTML = `<form class="filters" id="ef"><input name="q" placeholder="Find an entity" value="${esc(q.get("q"))}"><button>Find</button></form>
    <div id="ents" class="muted">Loading…</div>`;
  document.getElementById("ef").addEventListener("submit", (e) => { e.preventDefault(); location.hash = `#entities?q=${encodeURIComponent(e.target.q.value)}`; });
  const { body } = await api(`/api/knowledge/constellation`);
  const needle = (q.get("q") || "").toLowerCase();
  const shown = body.entities.filter((e) => !needle || e.name.toLowerCase().includes(needle)).slice(0, 100);
  const box = document.getElementById("ents");
  if (!shown.length) { box.textContent = "No entities yet: they are linked as memories are remembered."; return; }
  box.classList.remove("muted");
  box.innerHTML = shown.map((e) => `<div class="card" data-test="entity"><h3>${esc(e.name)}${e.pinned ? " 📌" : ""} <span class="muted">${esc(e.entityType)} · ${esc(e.mentions)} mentions</span></h3>
    ${(e.aspects || []).map((a) => `<p><b>${esc(a.name)}</b> <span class="muted">weight ${esc(a.weight)}</span></p><ul>
      ${(a.attributes || []).slice(0, 8).map((t) => `<li>${t.kind === "constraint" ? "⚠ " : ""}<a href="#memory/${esc(t.memoryId)}">${esc(short(t.content, 140))}</a></li>`).join("")}</ul>`).join("")}</div>`).join("");
}

function draw(canvas, nodes, edges, { label = true } = {}) {
  const ctx = canvas.getContext("2d");
  const w = canvas.width = canvas.clientWidth * devicePixelRatio, h = canvas.height = canvas.clientHeight * devicePixelRatio;
  const xs = nodes.map((n) => n.x), ys = nodes.map((n) => n.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const px = (n) => 30 + ((n.x - x0) / ((x1 - x0) || 1)) * (w - 60), py = (n) => 30 + ((n.y - y0) / ((y1 - y0) || 1)) * (h - 60);
  ctx.fillStyle = "#10131c"; ctx.fillRect(0, 0, w, h);
  ctx.strokeStyle = "rgba(160,180,255,0.25)";
  for (const [a, b] of edges) { ctx.beginPath(); ctx.moveTo(px(nodes[a]), py(nodes[a])); ctx.lineTo(px(nodes[b]), py(nodes[b])); ctx.stroke(); }
  ctx.font = `${11 * devicePixelRatio}px system-ui`;
  for (const n of nodes) {
    ctx.fillStyle = n.color || "#8fb0ff";
    ctx.beginPath(); ctx.arc(px(n), py(n), (n.r || 3) * devicePixelRatio, 0, 2 * Math.PI); ctx.fill();
    if (label && n.label) { ctx.fillStyle = "#dfe6ff"; ctx.fillText(n.label, px(n) + 6, py(n) - 6); }
  }
}

function layout(nodes, edges, steps = 300) {
  // A small force layout: springs along edges, repulsion between every pair, then settle.
  nodes.forEach((n, i) => { n.x = Math.cos(i * 2.4) * (1 + i * 0.05); n.y = Math.sin(i * 2.4) * (1 + i * 0.05); });
  for (let s = 0; s < steps; s++) {
    const t = 0.05 * (1 - s / steps);
    for (const a of nodes) { a.fx = -a.x * 0.01; a.fy = -a.y * 0.01; }
    for (let i = 0; i < nodes.length; i++) for (let j = i + 1; j < nodes.length; j++) {
      const a = nodes[i], b = nodes[j], dx = a.x - b.x, dy = a.y - b.y, d2 = dx * dx + dy * dy + 0.01;
      a.fx += dx / d2 * 0.05; a.fy += dy / d2 * 0.05; b.fx -= dx / d2 * 0.05; b.fy -= dy / d2 * 0.05;
    }
    for (const [i, j] of edges) {
      const a = nodes[i], b = nodes[j], dx = b.x - a.x, dy = b.y - a.y;
      a.fx += dx * 0.05; a.fy += dy * 0.05; b.fx -= dx * 0.05; b.fy -= dy * 0.05;
    }
    for (const a of nodes) { a.x += Math.max(-1, Math.min(1, a.fx)) * t * 10; a.y += Math.max(-1, Math.min(1, a.fy)) * t * 10; }
  }
}

async function graph() {
  const { body } = await api("/api/knowledge/constellation");
  const ents = body.entities.slice(0, 150);
  if (!ents.length) { view.innerHTML = `<p class="muted">No entities yet.</p>`; return; }
  const index = new Map(ents.map((e, i) => [e.id, i]));
  const byMemory = new Map();
  ents.forEach((e, i) => (e.aspects || []).forEach((a) => (a.attributes || []).forEach((t) => {
    if (!byMemory.has(t.memoryId)) byMemory.set(t.memoryId, new Set());
    byMemory.get(t.memoryId).add(i);
  })));
  const edges = new Set();
  for (const group of byMemory.values()) { const g = [...group]; for (let a = 0; a < g.length; a++) for (let b = a + 1; b < g.length; b++) edges.add(`${g[a]}-${g[b]}`); }
  for (const d of body.dependencies || []) {
    const a = index.get(d.sourceEntityId ?? d.source), b = index.get(d.targetEntityId ?? d.target);
    if (a !== undefined && b !== undefined) edges.add(`${a}-${b}`);
  }
  const pairs = [...edges].map((k) => k.split("-").map(Number));
  const nodes = ents.map((e) => ({ label: e.name, r: 3 + Math.min(6, Math.sqrt(e.mentions)), color: e.pinned ? "#ffd166" : "#8fb0ff" }));
  layout(nodes, pairs);
  view.innerHTML = `<p class="muted">${ents.length} entities; a line joins two that one memory mentions, or that depend on each other.</p>
    <canvas id="graph-canvas" data-test="graph" data-nodes="${nodes.length}" data-edges="${pairs.length}"></canvas>`;
  draw(document.getElementById("graph-canvas"), nodes, pairs);
}

// -- constellation (UMAP projection) ------------------------------------------------------------
async function constellation() {
  const { status, body } = await api("/api/embeddings/projection?dimensions=2");
  if (status === 202) {
    view.innerHTML = `<div class="card" data-test="computing">The pipeline is computing the projection of ${esc(body.total)} memories… this page checks again every 5 s.</div>`;
    setTimeout(() => { if (location.hash.startsWith("#constellation")) route(); }, 5000);
    return;
  }
  const colors = { fact: "#8fb0ff", decision: "#ffd166", preference: "#7bd389", rule: "#ff8c69", session_summary: "#c792ea" };
  const nodes = body.nodes.map((n) => ({ x: n.x, y: n.y, r: 2.5, color: colors[n.type] || "#9aa3b5", label: "" }));
  view.innerHTML = `<p class="muted">${esc(body.count)} of ${esc(body.total)} memories, placed by meaning (UMAP of their vectors).</p>
    <canvas id="sky" data-test="constellation" data-nodes="${nodes.length}"></canvas>`;
  draw(document.getElementById("sky"), nodes, body.edges || [], { label: false });
}

// -- pipeline -----------------------------------------------------------------------------------
async function pipeline() {
  const [{ body: p }, { body: d }] = await Promise.all([api("/api/pipeline/status"), api("/api/diagnostics")]);
  const t = p.backlog?.total || {};
  const dagster = `${location.protocol}//${location.hostname}:3000`;
  const cls = (s) => (s === "healthy" ? "ok" : s === "degraded" ? "warn" : "bad");
  view.innerHTML = `<div class="grid" data-test="pipeline">
      <div class="card stat">queue depth<b>${esc(t.depth ?? 0)}</b></div>
      <div class="card stat">due<b>${esc(t.due ?? 0)}</b></div>
      <div class="card stat">drain rate<b>${esc(t.ratePerS ?? 0)}/s</b></div>
      <div class="card stat">dead jobs<b>${esc(t.dead ?? 0)}</b></div>
      <div class="card stat">health<b class="${cls(d.status)}">${esc(d.status)} ${esc(d.score)}</b></div>
    </div>
    <h3>Queues</h3>
    <table><thead><tr><th>queue</th><th>depth</th><th>due</th><th>leased</th><th>dead</th><th>jobs/s</th><th>ETA s</th></tr></thead><tbody>
      ${Object.entries(p.backlog?.queues || {}).map(([name, q]) => `<tr><td>${esc(name)}</td><td>${esc(q.depth)}</td><td>${esc(q.due)}</td><td>${esc(q.leased)}</td><td>${esc(q.dead)}</td><td>${esc(q.ratePerS)}</td><td>${esc(q.etaS ?? "-")}</td></tr>`).join("") || `<tr><td colspan="7" class="muted">nothing queued</td></tr>`}
    </tbody></table>
    <h3>Diagnostics</h3>
    <table data-test="diagnostics"><thead><tr><th>domain</th><th>score</th><th>status</th><th>issues</th></tr></thead><tbody>
      ${Object.values(d.domains || {}).map((x) => `<tr><td>${esc(x.domain)}</td><td>${esc(x.score)}</td><td class="${cls(x.status)}">${esc(x.status)}</td><td>${esc((x.issues || []).join("; "))}</td></tr>`).join("")}
    </tbody></table>
    <p>Runs, backfills and asset history: <a href="${esc(dagster)}" target="_blank" rel="noopener">Dagster UI</a>
      (<a href="${esc(dagster)}/runs" target="_blank" rel="noopener">runs</a>,
      <a href="${esc(dagster)}/assets" target="_blank" rel="noopener">assets</a>) — served by <code>signet up</code>.</p>`;
}

// -- routing ------------------------------------------------------------------------------------
const VIEWS = { memories, memory, entities, graph, constellation, pipeline };

async function route() {
  const [head, query = ""] = (location.hash.slice(1) || "memories").split("?");
  const [name, arg] = head.split("/");
  document.querySelectorAll("nav a[data-view]").forEach((a) => a.classList.toggle("active", a.dataset.view === (name === "memory" ? "memories" : name)));
  say("");
  try {
    await (VIEWS[name] || memories)(arg !== undefined ? decodeURIComponent(arg) : query);
  } catch (err) {
    view.innerHTML = "";
    say(err.message);
  }
  document.body.dataset.ready = name;
}

document.getElementById("token-form").addEventListener("submit", (e) => {
  e.preventDefault();
  localStorage.setItem(TOKEN_KEY, document.getElementById("token").value.trim());
  route();
});

(async () => {
  try {
    const { body } = await api("/api/auth/whoami");
    document.getElementById("who").textContent = body.trusted ? `local (${body.mode})` : `${body.claims?.sub || "anonymous"} · ${body.role || "no role"}`;
    document.getElementById("token-form").hidden = body.trusted;
  } catch (err) { say(err.message); }
  window.addEventListener("hashchange", route);
  route();
})();
