"""The knowledge graph: the inline entity linker that runs in remember's write transaction
(linker), retiring contradicted sibling attributes (supersession), persisting extracted or
caller-authored triples and aspects (persist), walking from the entities a query names (traversal)
and the graph reads behind /api/knowledge (knowledge). May import: service, models, analytics,
providers, store, text and the base modules; not recall, write or anything above."""
