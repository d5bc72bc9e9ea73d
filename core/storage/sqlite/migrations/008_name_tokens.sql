-- Schema version 8: each entity's name as the duplicate rules fold it (core.hygiene.names.tokens:
-- case, accents, separators, camelCase, titles and given-name variants), stored beside the name it
-- was folded from, so that reflect's first run in a process reads the words instead of folding
-- every name again. Written with the entity's other index rows (core.storage.sqlite.indexing); a
-- row whose name is not the entity's current name is ignored and folded again, so a write by
-- another tool never leaves a wrong key. The entities written before this version get theirs from
-- the first reflect that folds them (a page at a time: resumable, nothing else waits on it).

CREATE TABLE IF NOT EXISTS entity_name_tokens (
    entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    name      TEXT    NOT NULL,
    tokens    TEXT    NOT NULL
);
