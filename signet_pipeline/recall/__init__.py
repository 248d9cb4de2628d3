"""Recall: hybrid search over FTS5 and the vector index with graph paths and hubness correction
(search), the answers that skip ranking — timelines, unavailable
aggregates (answers), temporal windows (temporal), what a session was already given
(session_context), and the plain reads — list, get, similar (reads). May import: graph, service,
models, analytics, providers, store, text and the base modules; not write or anything above."""
