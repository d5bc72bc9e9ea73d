-- Schema version 9: each alias (a name merged into an entity) stored folded beside it
-- (hfold = core/search/folding.py fold), so search_nodes finds entities by a former name with one
-- read of the (folded, entity_id) index instead of reading and folding every alias on every call.
-- One transaction: an interrupted upgrade leaves version 8 as it was and runs again on next open.

ALTER TABLE entity_aliases ADD COLUMN folded TEXT NOT NULL DEFAULT '';
UPDATE entity_aliases SET folded = hfold(alias);
CREATE INDEX idx_entity_aliases_folded ON entity_aliases(folded, entity_id);

DROP TRIGGER entity_aliases_added;
CREATE TRIGGER entity_aliases_added AFTER INSERT ON entities
WHEN json_type(new.props, '$.aliases') = 'array' BEGIN
    INSERT OR IGNORE INTO entity_aliases(alias, entity_id, folded)
        SELECT value, new.id, hfold(value) FROM json_each(new.props, '$.aliases') WHERE type = 'text';
END;

DROP TRIGGER entity_aliases_changed;
CREATE TRIGGER entity_aliases_changed AFTER UPDATE OF props ON entities
WHEN json_type(old.props, '$.aliases') IS NOT NULL OR json_type(new.props, '$.aliases') IS NOT NULL BEGIN
    DELETE FROM entity_aliases WHERE entity_id = new.id;
    INSERT OR IGNORE INTO entity_aliases(alias, entity_id, folded)
        SELECT value, new.id, hfold(value) FROM json_each(new.props, '$.aliases') WHERE type = 'text';
END;
