"""Writing memories: remember (normalize, dedup, embed, one short transaction with the row, FTS,
inline links, history and the pipeline's jobs), a caller's structured payload (structured), the
rules a prospective hint must pass (hints), documents queued through the API (documents), Codex
native notes (codex_notes). May import: graph, service, models, analytics, providers, store, text
and the base modules; not recall, mutations, sessions or anything above."""
