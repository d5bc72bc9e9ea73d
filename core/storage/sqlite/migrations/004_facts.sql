-- Schema version 4: every observation (fact) is indexed on its own, for words and for meaning.
-- The words are filled here; the vectors are computed afterwards by the background embedder or
-- `hipocampo reindex` (resumable, with progress: the facts listed in fact_due are due).
-- Triggers keep the word index in step with every write path, and drop a fact's vector when its
-- text changes (a deleted fact's vector goes by ON DELETE CASCADE).

CREATE VIRTUAL TABLE fact_fts USING fts5(
    content, tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1
);
INSERT INTO fact_fts(rowid, content) SELECT id, hfold(content) FROM observations;

CREATE TABLE fact_vectors (
    observation_id INTEGER PRIMARY KEY REFERENCES observations(id) ON DELETE CASCADE,
    model_id    TEXT NOT NULL,
    text_hash   TEXT NOT NULL,
    embedded_at TEXT NOT NULL,
    vector      BLOB NOT NULL          -- int8 × dimensions: the unit vector scaled to ±127
);
CREATE INDEX idx_fact_vectors_at ON fact_vectors(embedded_at);

-- Facts waiting for a vector (new, changed, or embedded by another model): the embedder's queue.
CREATE TABLE fact_due (
    observation_id INTEGER PRIMARY KEY REFERENCES observations(id) ON DELETE CASCADE
);

INSERT INTO fact_due(observation_id) SELECT id FROM observations;

CREATE TRIGGER fact_added AFTER INSERT ON observations BEGIN
    INSERT INTO fact_fts(rowid, content) VALUES (new.id, hfold(new.content));
    INSERT OR IGNORE INTO fact_due(observation_id) VALUES (new.id);
END;
CREATE TRIGGER fact_removed AFTER DELETE ON observations BEGIN
    DELETE FROM fact_fts WHERE rowid = old.id;
    UPDATE db_metadata SET value = CAST(value AS INTEGER) + 1 WHERE key = 'fact_vectors_version';
END;
CREATE TRIGGER fact_changed AFTER UPDATE OF content ON observations BEGIN
    DELETE FROM fact_fts WHERE rowid = old.id;
    INSERT INTO fact_fts(rowid, content) VALUES (new.id, hfold(new.content));
    DELETE FROM fact_vectors WHERE observation_id = old.id;
    INSERT OR IGNORE INTO fact_due(observation_id) VALUES (new.id);
    UPDATE db_metadata SET value = CAST(value AS INTEGER) + 1 WHERE key = 'fact_vectors_version';
END;

-- An entity's own vector is now its name, type, summary, first 12 facts and relations (every fact
-- has its own):
-- every entity is due for re-embedding.
DELETE FROM embedding_state;
