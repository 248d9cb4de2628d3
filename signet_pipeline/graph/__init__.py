"""The knowledge graph: the inline entity linker that runs in remember's write transaction
(linker), retiring contradicted sibling attributes (supersession), persisting extracted or
caller-authored triples and aspects (persist), walking from the entities a query names (traversal)
and the graph reads behind /api/knowledge: listings, pins and the constellation (knowledge), the
step-by-step navigation and the tree (navigation, shapes in views) and an entity's expansion
(expand). May import: service, models, analytics, providers, store, text and the base modules;
not recall, write or anything above."""
