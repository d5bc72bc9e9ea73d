-- Schema version 5: the names an entity was merged from (its aliases), so a name that was merged
-- into another still opens it. The aliases themselves live in the entity's props ("aliases": a
-- list of names), written and undone like any other props change; this table is only their index,
-- kept in step with props by the triggers below (a deleted entity's rows go by ON DELETE CASCADE).

CREATE TABLE entity_aliases (
    alias     TEXT    NOT NULL,
    entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    PRIMARY KEY (alias, entity_id)
) WITHOUT ROWID;
CREATE INDEX idx_entity_aliases_entity ON entity_aliases(entity_id);

CREATE TRIGGER entity_aliases_added AFTER INSERT ON entities
WHEN json_type(new.props, '$.aliases') = 'array' BEGIN
    INSERT OR IGNORE INTO entity_aliases(alias, entity_id)
        SELECT value, new.id FROM json_each(new.props, '$.aliases') WHERE type = 'text';
END;

CREATE TRIGGER entity_aliases_changed AFTER UPDATE OF props ON entities
WHEN json_type(old.props, '$.aliases') IS NOT NULL OR json_type(new.props, '$.aliases') IS NOT NULL BEGIN
    DELETE FROM entity_aliases WHERE entity_id = new.id;
    INSERT OR IGNORE INTO entity_aliases(alias, entity_id)
        SELECT value, new.id FROM json_each(new.props, '$.aliases') WHERE type = 'text';
END;

INSERT OR IGNORE INTO entity_aliases(alias, entity_id)
    SELECT j.value, e.id FROM entities e, json_each(e.props, '$.aliases') j
     WHERE json_type(e.props, '$.aliases') = 'array' AND j.type = 'text';
