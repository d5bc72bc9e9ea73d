-- Brings a database written by MCP Memory v2 (seed 000's schema, user_version 0) to Hipocampo's
-- schema version 1, keeping every entity, observation, relation, access and co-occurrence row.
-- Run inside one transaction after a backup copy; FTS tables are rebuilt by the caller.

ALTER TABLE entities ADD COLUMN props TEXT NOT NULL DEFAULT '{}';
ALTER TABLE entities ADD COLUMN archived_at TEXT;
UPDATE entities SET
    created_at = coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', created_at), created_at),
    updated_at = coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', updated_at), updated_at);
DROP INDEX IF EXISTS idx_entities_name;  -- the UNIQUE constraint already indexes name
CREATE INDEX IF NOT EXISTS idx_entities_type ON entities(entity_type);

-- Observations gain per-entity de-duplication; exact repeats (same entity, same text) carry no
-- information and are folded into the oldest copy.
CREATE TABLE observations_v1 (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    entity_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    content    TEXT    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (entity_id, content)
);
INSERT INTO observations_v1 (id, entity_id, content, created_at)
    SELECT min(id), entity_id, content,
           coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', min(created_at)), min(created_at))
    FROM observations GROUP BY entity_id, content;
DROP TABLE observations;
ALTER TABLE observations_v1 RENAME TO observations;

ALTER TABLE relations ADD COLUMN props TEXT NOT NULL DEFAULT '{}';
ALTER TABLE relations ADD COLUMN ended_at TEXT;
UPDATE relations SET created_at = coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', created_at), created_at);
DROP INDEX IF EXISTS idx_rel_from;  -- the UNIQUE (from_entity, …) constraint covers it
CREATE INDEX IF NOT EXISTS idx_rel_to ON relations(to_entity);
CREATE INDEX IF NOT EXISTS idx_rel_type ON relations(relation_type);

UPDATE entity_access SET
    last_access = coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', last_access), last_access);
UPDATE co_occurrences SET last_co = coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', last_co), last_co);

DROP TABLE IF EXISTS entity_fts;
CREATE VIRTUAL TABLE entity_fts USING fts5(
    name, entity_type, obs_text, props_text,
    tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1
);
CREATE VIRTUAL TABLE entity_substr USING fts5(
    text, tokenize = 'trigram', content = '', contentless_delete = 1, detail = 'none'
);
CREATE VIRTUAL TABLE IF NOT EXISTS entity_embeddings
    USING vec0(embedding float[384] distance_metric=cosine);

CREATE TABLE insights (
    entity_id   INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    pattern     TEXT    NOT NULL,
    confidence  REAL    NOT NULL DEFAULT 0.0,
    status      TEXT    NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'approved', 'dismissed', 'synced')),
    evidence    TEXT    NOT NULL DEFAULT '{}',
    stale       INTEGER NOT NULL DEFAULT 0,
    decided_at  TEXT,
    decided_by  TEXT,
    base_confidence REAL NOT NULL DEFAULT 0.0,
    confirmed_at    TEXT
);
CREATE INDEX idx_insights_status ON insights(status, confidence DESC);

-- v2's vectors are kept, but with no record of what they were computed from the embedding
-- lifecycle treats every entity as due for (re-)embedding with the current model.
CREATE TABLE embedding_state (
    entity_id   INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    text_hash   TEXT NOT NULL,
    model_id    TEXT NOT NULL,
    embedded_at TEXT NOT NULL
);
CREATE INDEX idx_embedding_state_at ON embedding_state(embedded_at);

CREATE TABLE IF NOT EXISTS db_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE change_log (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,
    at     TEXT NOT NULL,
    actor  TEXT NOT NULL,
    op     TEXT NOT NULL,
    entity TEXT,
    before TEXT,
    after  TEXT
);
CREATE INDEX idx_change_entity ON change_log(entity);  -- rowid order is time order
