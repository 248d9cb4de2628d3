-- Knowledge graph (spec knowledge-graph.txt): entities -> aspects -> attributes/constraints, mentions
-- linking memories to entities, relations from extracted triples, dependencies between entities,
-- communities. Entities are per agent, like content-hash dedup.

CREATE TABLE IF NOT EXISTS entities (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    canonical_name TEXT NOT NULL,
    entity_type    TEXT NOT NULL DEFAULT 'extracted',
    agent_id       TEXT NOT NULL DEFAULT 'default',
    description    TEXT,
    mentions       INTEGER NOT NULL DEFAULT 0,
    pinned         INTEGER NOT NULL DEFAULT 0,
    pinned_at      TEXT,
    community_id   TEXT,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_entities_agent_canonical ON entities(agent_id, canonical_name);
CREATE INDEX IF NOT EXISTS idx_entities_listing ON entities(agent_id, pinned, pinned_at, mentions);

CREATE TABLE IF NOT EXISTS memory_entity_mentions (
    memory_id    TEXT NOT NULL,
    entity_id    TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    mention_text TEXT,
    confidence   REAL,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (memory_id, entity_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idx_mentions_entity ON memory_entity_mentions(entity_id);

CREATE TABLE IF NOT EXISTS relations (
    id               TEXT PRIMARY KEY,
    source_entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    target_entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    relation_type    TEXT NOT NULL,
    strength         REAL NOT NULL DEFAULT 1.0,
    mentions         INTEGER NOT NULL DEFAULT 1,
    confidence       REAL NOT NULL DEFAULT 0.5,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    UNIQUE (source_entity_id, target_entity_id, relation_type)
);
CREATE INDEX IF NOT EXISTS idx_relations_target ON relations(target_entity_id);

-- Which memories asserted a relation: re-processing a memory never counts its triples twice.
CREATE TABLE IF NOT EXISTS relation_mentions (
    relation_id TEXT NOT NULL REFERENCES relations(id) ON DELETE CASCADE,
    memory_id   TEXT NOT NULL,
    PRIMARY KEY (relation_id, memory_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS entity_aspects (
    id             TEXT PRIMARY KEY,
    entity_id      TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    canonical_name TEXT NOT NULL,
    weight         REAL NOT NULL DEFAULT 0.5,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    UNIQUE (entity_id, canonical_name)
);

CREATE TABLE IF NOT EXISTS entity_attributes (
    id                 TEXT PRIMARY KEY,
    entity_id          TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    aspect_id          TEXT REFERENCES entity_aspects(id) ON DELETE SET NULL,
    memory_id          TEXT,
    kind               TEXT NOT NULL DEFAULT 'attribute' CHECK (kind IN ('attribute', 'constraint')),
    content            TEXT NOT NULL,
    normalized_content TEXT NOT NULL,
    status             TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded', 'deleted')),
    superseded_by      TEXT,
    confidence         REAL NOT NULL DEFAULT 0.0,
    importance         REAL NOT NULL DEFAULT 0.5,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
);
-- Re-linking the same memory never duplicates its attributes.
CREATE UNIQUE INDEX IF NOT EXISTS idx_attributes_identity ON entity_attributes(entity_id, memory_id, normalized_content);
CREATE INDEX IF NOT EXISTS idx_attributes_aspect ON entity_attributes(aspect_id, status, importance);
CREATE INDEX IF NOT EXISTS idx_attributes_kind ON entity_attributes(entity_id, kind, status);
CREATE INDEX IF NOT EXISTS idx_attributes_memory ON entity_attributes(memory_id);

CREATE TABLE IF NOT EXISTS entity_dependencies (
    id               TEXT PRIMARY KEY,
    source_entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    target_entity_id TEXT NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    dependency_type  TEXT NOT NULL,
    strength         REAL NOT NULL DEFAULT 0.5,
    aspect_id        TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    UNIQUE (source_entity_id, target_entity_id, dependency_type)
);
CREATE INDEX IF NOT EXISTS idx_dependencies_target ON entity_dependencies(target_entity_id);

CREATE TABLE IF NOT EXISTS entity_communities (
    id          TEXT PRIMARY KEY,
    agent_id    TEXT NOT NULL,
    label       TEXT,
    size        INTEGER NOT NULL,
    modularity  REAL,
    computed_at TEXT NOT NULL
);
