-- Hipocampo's knowledge graph, schema version 11 (PRAGMA user_version).
-- A fresh database gets this file whole; older ones are brought here by migrations/.
-- Timestamps are ISO-8601 UTC with milliseconds ('2026-11-29T20:58:28.123Z'), so they sort as text.

CREATE TABLE entities (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL UNIQUE,          -- matched exactly, case-sensitive, as given
    entity_type TEXT    NOT NULL DEFAULT 'Generic',  -- also Engrama's label
    props       TEXT    NOT NULL DEFAULT '{}',    -- JSON object: summary, details, tags, status…
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    archived_at TEXT                                 -- soft delete: still readable
);
CREATE INDEX idx_entities_type ON entities(entity_type);

CREATE TABLE observations (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    entity_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    content    TEXT    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (entity_id, content)                   -- de-duplicated per entity; also the entity index
);

CREATE TABLE relations (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    from_entity   INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    to_entity     INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    relation_type TEXT    NOT NULL,
    props         TEXT    NOT NULL DEFAULT '{}',
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at      TEXT,                            -- stopped being true, not forgotten
    UNIQUE (from_entity, to_entity, relation_type)
);
CREATE INDEX idx_rel_to   ON relations(to_entity);
CREATE INDEX idx_rel_type ON relations(relation_type);

-- Insights proposed by reflect: an Insight entity plus its review state.
CREATE TABLE insights (
    entity_id   INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    pattern     TEXT    NOT NULL,
    confidence  REAL    NOT NULL DEFAULT 0.0,
    status      TEXT    NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'approved', 'dismissed', 'synced')),
    evidence    TEXT    NOT NULL DEFAULT '{}',     -- JSON: entity ids and the path that produced it
    stale       INTEGER NOT NULL DEFAULT 0,        -- 1: the pattern no longer finds it (evidence gone)
    decided_at  TEXT,
    decided_by  TEXT,
    base_confidence REAL NOT NULL DEFAULT 0.0,  -- what the pattern gave when last confirmed
    confirmed_at    TEXT                         -- last found by reflect or approved: decay counts from here
);
CREATE INDEX idx_insights_status ON insights(status, confidence DESC);

-- Limbic scoring tables, exactly as MCP Memory v2 defines them.
CREATE TABLE entity_access (
    entity_id    INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    access_count INTEGER NOT NULL DEFAULT 1,
    last_access  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX idx_access_last ON entity_access(last_access);

CREATE TABLE co_occurrences (
    entity_a_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    entity_b_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    co_count    INTEGER NOT NULL DEFAULT 1,
    last_co     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (entity_a_id, entity_b_id)          -- canonical order: a < b
);
CREATE INDEX idx_cooc_b ON co_occurrences(entity_b_id);

-- Words of the entity's own fields, ranked by BM25 (obs_text stays empty: facts have fact_fts).
-- Contentless: the text lives in the tables above, not twice.
CREATE VIRTUAL TABLE entity_fts USING fts5(
    name, entity_type, obs_text, props_text,
    tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1
);

-- Facts: each observation's own words (porter-stemmed, folded) and its own vector, rowid /
-- key = observations.id. Triggers queue the words of every write; a changed text drops
-- its vector, a deleted fact's goes by cascade. Entity vectors (below) embed name, type, summary,
-- the first facts and relations.
CREATE VIRTUAL TABLE fact_fts USING fts5(
    content, tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1
);

CREATE TABLE fact_vectors (
    observation_id INTEGER PRIMARY KEY REFERENCES observations(id) ON DELETE CASCADE,
    model_id    TEXT NOT NULL,
    text_hash   TEXT NOT NULL,
    embedded_at TEXT NOT NULL,
    vector      BLOB NOT NULL          -- int8 × dimensions: the unit vector scaled to ±127
);
CREATE INDEX idx_fact_vectors_at ON fact_vectors(embedded_at);

-- Each fact's folded text, and a trigram index over it: search_nodes' substrings, fact by fact
-- (confirmed with instr() on the folded text, as entity_folded is for names).
CREATE TABLE fact_folded (
    observation_id INTEGER PRIMARY KEY REFERENCES observations(id) ON DELETE CASCADE,
    text           TEXT    NOT NULL
);
CREATE VIRTUAL TABLE fact_substr USING fts5(
    text, tokenize = 'trigram', content = '', contentless_delete = 1, detail = 'none'
);

-- Facts waiting for a vector (new, changed, or embedded by another model): the embedder's queue.
CREATE TABLE fact_due (
    observation_id INTEGER PRIMARY KEY REFERENCES observations(id) ON DELETE CASCADE
);

-- Facts whose word and substring rows must be (re)written: the triggers only queue them, and
-- the writer's transaction indexes the queue in one statement per index (indexing.flush_facts):
-- an FTS5 insert from a trigger would flush FTS5's buffer for every row, 15× slower.
CREATE TABLE fact_queue (
    observation_id INTEGER PRIMARY KEY,
    indexed        INTEGER NOT NULL      -- 1: its old rows are in the indexes and go first
);

CREATE TRIGGER fact_added AFTER INSERT ON observations BEGIN
    INSERT OR IGNORE INTO fact_queue(observation_id, indexed) VALUES (new.id, 0);
    INSERT OR IGNORE INTO fact_due(observation_id) VALUES (new.id);
END;
CREATE TRIGGER fact_removed AFTER DELETE ON observations BEGIN
    INSERT OR IGNORE INTO fact_queue(observation_id, indexed) VALUES (old.id, 1);
    UPDATE db_metadata SET value = CAST(value AS INTEGER) + 1 WHERE key = 'fact_vectors_version';
END;
CREATE TRIGGER fact_changed AFTER UPDATE OF content ON observations BEGIN
    INSERT OR IGNORE INTO fact_queue(observation_id, indexed) VALUES (new.id, 1);
    DELETE FROM fact_vectors WHERE observation_id = old.id;
    INSERT OR IGNORE INTO fact_due(observation_id) VALUES (new.id);
    UPDATE db_metadata SET value = CAST(value AS INTEGER) + 1 WHERE key = 'fact_vectors_version';
END;


-- Substrings (the official server's search_nodes semantics), over folded text: the entity's
-- name and type here, each fact's text in fact_substr.
CREATE VIRTUAL TABLE entity_substr USING fts5(
    text, tokenize = 'trigram', content = '', contentless_delete = 1, detail = 'none'
);

-- The name and type folded, joined by U+001F: search_nodes confirms the trigram index's candidates
-- with instr() here (and on fact_substr's text for facts), at C speed.
CREATE TABLE entity_folded (
    entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    text      TEXT    NOT NULL
);

-- The name as the duplicate rules fold it (core.hygiene.names.tokens), beside the name it was folded
-- from: a row whose name differs from the entity's is stale and ignored (migration 008).
CREATE TABLE entity_name_tokens (
    entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    name      TEXT    NOT NULL,
    tokens    TEXT    NOT NULL
);

-- Meaning: one vector per entity, rowid = entities.id. vec0 has no cascade: delete vectors first.
CREATE VIRTUAL TABLE entity_embeddings USING vec0(embedding float[384] distance_metric=cosine);

-- What each stored vector was computed from, so a crash or a model change never leaves an
-- entity silently unsearchable.
CREATE TABLE embedding_state (
    entity_id   INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    text_hash   TEXT NOT NULL,
    model_id    TEXT NOT NULL,
    embedded_at TEXT NOT NULL
);
CREATE INDEX idx_embedding_state_at ON embedding_state(embedded_at);  -- what changed since

-- What the user pinned for the session brief: an entity ('' fact) or one of its facts, by text.
CREATE TABLE pins (
    entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    fact      TEXT    NOT NULL DEFAULT '',
    pinned_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (entity_id, fact)
);

CREATE TABLE db_metadata (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Every write: who, what, and enough of before/after to show history and undo a deletion.
CREATE TABLE change_log (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,
    at     TEXT NOT NULL,
    actor  TEXT NOT NULL,
    op     TEXT NOT NULL,
    entity TEXT,                                  -- entity name: survives the entity's deletion
    before TEXT,                                  -- JSON or NULL
    after  TEXT,                                  -- JSON or NULL
    import_id TEXT                                -- the import that wrote it, while one runs (see io)
);
CREATE INDEX idx_change_entity ON change_log(entity);  -- rowid order is time order
CREATE INDEX idx_change_import ON change_log(import_id) WHERE import_id IS NOT NULL;

-- Schema version 5 (migration 005): the names an entity was merged from (its aliases), so a name that was merged
-- into another still opens it. The aliases themselves live in the entity's props ("aliases": a
-- list of names), written and undone like any other props change; this table is only their index,
-- kept in step with props by the triggers below (a deleted entity's rows go by ON DELETE CASCADE).

CREATE TABLE entity_aliases (
    alias     TEXT    NOT NULL,
    entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    folded    TEXT    NOT NULL DEFAULT '',       -- hfold(alias) (migration 009): search_nodes reads it as is
    PRIMARY KEY (alias, entity_id)
) WITHOUT ROWID;
CREATE INDEX idx_entity_aliases_entity ON entity_aliases(entity_id);
CREATE INDEX idx_entity_aliases_folded ON entity_aliases(folded, entity_id);

CREATE TRIGGER entity_aliases_added AFTER INSERT ON entities
WHEN json_type(new.props, '$.aliases') = 'array' BEGIN
    INSERT OR IGNORE INTO entity_aliases(alias, entity_id, folded)
        SELECT value, new.id, hfold(value) FROM json_each(new.props, '$.aliases') WHERE type = 'text';
END;

CREATE TRIGGER entity_aliases_changed AFTER UPDATE OF props ON entities
WHEN json_type(old.props, '$.aliases') IS NOT NULL OR json_type(new.props, '$.aliases') IS NOT NULL BEGIN
    DELETE FROM entity_aliases WHERE entity_id = new.id;
    INSERT OR IGNORE INTO entity_aliases(alias, entity_id, folded)
        SELECT value, new.id, hfold(value) FROM json_each(new.props, '$.aliases') WHERE type = 'text';
END;

INSERT OR IGNORE INTO entity_aliases(alias, entity_id, folded)
    SELECT j.value, e.id, hfold(j.value) FROM entities e, json_each(e.props, '$.aliases') j
     WHERE json_type(e.props, '$.aliases') = 'array' AND j.type = 'text';
