-- Schema version 4: every observation (fact) is indexed on its own, for words and for meaning.
-- The words are filled here; the vectors are computed afterwards by the background embedder or
-- `hipocampo reindex` (resumable, with progress: the facts listed in fact_due are due).
-- Triggers queue every changed fact for the word indexes (flushed by the writer's transaction) and
-- drop a fact's vector when its text changes (a deleted fact's vector goes by ON DELETE CASCADE).

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
INSERT INTO fact_folded(observation_id, text) SELECT id, hfold(content) FROM observations;
INSERT INTO fact_substr(rowid, text) SELECT observation_id, text FROM fact_folded;
INSERT INTO fact_fts(rowid, content) SELECT observation_id, text FROM fact_folded;

-- Facts waiting for a vector (new, changed, or embedded by another model): the embedder's queue.
CREATE TABLE fact_due (
    observation_id INTEGER PRIMARY KEY REFERENCES observations(id) ON DELETE CASCADE
);

INSERT INTO fact_due(observation_id) SELECT id FROM observations;

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

-- The entity-level indexes now hold only the entity's own fields (name, type, props): its facts
-- are indexed above, one by one.
DELETE FROM entity_folded;
INSERT INTO entity_folded(entity_id, text)
SELECT id, hfold(name) || char(31) || hfold(entity_type) FROM entities;
INSERT INTO entity_substr(entity_substr) VALUES ('delete-all');
INSERT INTO entity_substr(rowid, text) SELECT entity_id, text FROM entity_folded;
INSERT INTO entity_fts(entity_fts) VALUES ('delete-all');
INSERT INTO entity_fts(rowid, name, entity_type, obs_text, props_text)
SELECT id, hfold(name), hfold(entity_type), '',
       hfold(coalesce((SELECT group_concat(j.value, char(10)) FROM json_tree(entities.props) j
                        WHERE j.type = 'text'), ''))
  FROM entities;

-- An entity's own vector is now its name, type, summary, first 12 facts and relations (every fact
-- has its own):
-- every entity is due for re-embedding.
DELETE FROM embedding_state;
