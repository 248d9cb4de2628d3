// Signet dashboard: plain JavaScript over the REST API (no framework, no build step, nothing from
// another host); the graph and the constellation are in graph.js. Every value from the store is
// escaped before it reaches the page.
"use strict";

// Aspect weights start at 0.5 and move with session feedback (spec knowledge-graph "feedback loop").
const ASPECT_WEIGHT = "How much recalls have confirmed this aspect: 0.5 until session feedback moves it.";
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

// What a history event concerns beside the memory shown: the memory a fact came from, the one that
// already said it, the candidate a decision named, the one that replaced it.
const RELATED = { sourceMemoryId: "from", existingId: "already said by", targetId: "candidate", supersededBy: "replaced by" };
const memoryLink = (id, text) => `<a href="#memory/${encodeURIComponent(id)}">${esc(text)}</a>`;
const related = (e, self) => Object.entries(RELATED).filter(([key]) => e.metadata?.[key] && e.metadata[key] !== self)
  .map(([key, label]) => `<br><span class="muted">${label}</span> ${memoryLink(e.metadata[key], e.metadata[key].slice(0, 8))}`).join("");

async function memory(id) {
  const [{ body: m }, { body: h }] = await Promise.all([api(`/api/memory/${encodeURIComponent(id)}`),
    api(`/api/memory/${encodeURIComponent(id)}/history`)]);
  const from = m.source_memory_id && await api(`/api/memory/${encodeURIComponent(m.source_memory_id)}`).then((r) => r.body, () => null);
  const source = m.source_memory_id ? `<p data-test="source-memory">Derived by the pipeline from
    ${memoryLink(m.source_memory_id, from ? `“${short(from.content, 140)}”` : `memory ${m.source_memory_id}`)}</p>` : "";
  view.innerHTML = `<p><a href="#memories">← memories</a></p>
    <div class="card" data-test="memory-detail"><h2>${esc(m.type)}${m.pinned ? " 📌" : ""}</h2><pre>${esc(m.content)}</pre>${source}
      <p class="muted">id ${esc(m.id)} · agent ${esc(m.agent_id)} · importance ${esc(m.importance)} · version ${esc(m.version)} · created ${esc(day(m.created_at))}</p>
      <p>${tags(m.tags)}</p></div>
    <h3>History</h3>
    <table data-test="history"><thead><tr><th>when</th><th>event</th><th>by</th><th>reason</th><th>content</th></tr></thead><tbody>
      ${h.history.map((e) => `<tr><td class="muted">${esc(day(e.createdAt))}</td><td>${esc(e.event)}</td><td>${esc(e.changedBy || "")}</td>
        <td>${esc(e.reason || "")}${related(e, m.id)}</td><td>${esc(short(e.newContent || e.oldContent || "", 120))}</td></tr>`).join("")}
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
  box.innerHTML = shown.map(entityCard).join("");
}

const entityCard = (e) => `<div class="card" data-test="entity"><h3>${esc(e.name)}${e.pinned ? " 📌" : ""} <span class="muted">${esc(e.entityType)} · ${esc(e.mentions)} mentions</span></h3>
  ${(e.aspects || []).map((a) => `<p><b>${esc(a.name)}</b> <span class="muted" title="${esc(ASPECT_WEIGHT)}">${a.weight === 0.5 ? "weight 0.5, not learned yet" : `weight ${esc(a.weight)}`}</span></p><ul>
    ${(a.attributes || []).slice(0, 8).map((t) => `<li>${t.kind === "constraint" ? "⚠ " : ""}<a href="#memory/${esc(t.memoryId)}">${esc(short(t.content, 140))}</a></li>`).join("")}</ul>`).join("")}</div>`;

async function entity(id) {
  const { body } = await api("/api/knowledge/constellation");
  const found = body.entities.find((e) => e.id === id);
  view.innerHTML = `<p><a href="#graph">← graph</a> · <a href="#entities">entities</a></p>
    ${found ? entityCard(found) : `<p class="muted">No entity ${esc(id)} for this agent.</p>`}`;
}

// -- pipeline: refreshed while jobs wait, until the queue is empty or the page is left ------------
const REFRESH_MS = 3000;

async function pipeline() {
  const { body: p } = await api("/api/pipeline/status");
  const t = p.backlog?.total || {}, d = p.diagnostics || {}, dagster = p.dagsterUrl;
  const cls = (s) => (s === "healthy" ? "ok" : s === "degraded" ? "warn" : "bad");
  const open = (path, text) => `<a href="${esc(dagster + path)}" target="_blank" rel="noopener">${text}</a>`;
  view.innerHTML = `<div class="grid" data-test="pipeline">
      <div class="card stat">queue depth<b data-test="depth">${esc(t.depth ?? 0)}</b></div>
      <div class="card stat">due<b>${esc(t.due ?? 0)}</b></div>
      <div class="card stat">leased<b>${esc(t.leased ?? 0)}</b></div>
      <div class="card stat">drain rate<b>${esc(t.ratePerS ?? 0)}/s</b></div>
      <div class="card stat">ETA<b>${t.etaS == null ? "-" : `${esc(t.etaS)} s`}</b></div>
      <div class="card stat">dead jobs<b>${esc(t.dead ?? 0)}</b></div>
      <div class="card stat">health<b class="${cls(d.status)}">${esc(d.status)} ${esc(d.score)}</b></div>
    </div>
    <p class="muted">${t.depth ? `<span data-test="refreshing">Refreshing every ${REFRESH_MS / 1000} s while jobs wait.</span>` : "Nothing queued."}
      Drain rate: jobs per second of the time drains worked, over the last ten minutes.</p>
    <h3>Queues</h3>
    <table><thead><tr><th>queue</th><th>depth</th><th>due</th><th>leased</th><th>dead</th><th>jobs/s</th><th>ETA s</th></tr></thead><tbody>
      ${Object.entries(p.backlog?.queues || {}).map(([name, q]) => `<tr><td>${esc(name)}</td><td>${esc(q.depth)}</td><td>${esc(q.due)}</td><td>${esc(q.leased)}</td><td>${esc(q.dead)}</td><td>${esc(q.ratePerS)}</td><td>${esc(q.etaS ?? "-")}</td></tr>`).join("") || `<tr><td colspan="7" class="muted">nothing queued</td></tr>`}
    </tbody></table>
    <h3>Diagnostics</h3>
    <table data-test="diagnostics"><thead><tr><th>domain</th><th>score</th><th>status</th><th>issues</th></tr></thead><tbody>
      ${Object.values(d.domains || {}).map((x) => `<tr><td>${esc(x.domain)}</td><td>${esc(x.score)}</td><td class="${cls(x.status)}">${esc(x.status)}</td><td>${esc((x.issues || []).join("; "))}</td></tr>`).join("")}
    </tbody></table>
    ${dagster ? `<p data-test="dagster">Runs, sensors and asset history: ${open("", "Dagster UI")} (${open("/runs", "runs")},
      ${open("/assets", "assets")}, ${open("/automation", "sensors and schedules")}).</p>`
      : `<p class="muted" data-test="dagster">No Dagster UI: this API runs without a pipeline (<code>signet serve</code>); <code>signet up</code> starts both and links it here.</p>`}`;
  if (t.depth) again(REFRESH_MS);
}

// -- routing ------------------------------------------------------------------------------------
const VIEWS = { memories, memory, entities, entity, graph, constellation, pipeline };
const NAV = { memory: "memories", entity: "entities" };
let later = null;  // a view's own refresh; leaving the view cancels it

function again(ms) {
  const at = location.hash;
  later = setTimeout(() => { later = null; if (location.hash === at) route(); }, ms);
}

async function route() {
  clearTimeout(later);
  unmountGraph();
  const [head, query = ""] = (location.hash.slice(1) || "memories").split("?");
  const [name, arg] = head.split("/");
  document.body.dataset.view = name;
  document.querySelectorAll("nav a[data-view]").forEach((a) => a.classList.toggle("active", a.dataset.view === (NAV[name] || name)));
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
