-- Schema version 2: each entity's folded text, stored where SQL can read it, so search_nodes
-- confirms a substring with instr() instead of folding every candidate in Python.
-- Fields (name, type, each observation) are joined by U+001F, which a query never spans.

CREATE TABLE entity_folded (
    entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    text      TEXT    NOT NULL
);
INSERT INTO entity_folded(entity_id, text)
SELECT e.id, hfold(e.name) || char(31) || hfold(e.entity_type) || char(31)
             || coalesce((SELECT group_concat(hfold(o.content), char(31) ORDER BY o.id)
                            FROM observations o WHERE o.entity_id = e.id), '')
  FROM entities e;
