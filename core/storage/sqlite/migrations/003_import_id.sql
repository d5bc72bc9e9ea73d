-- Imports land in short chunks tagged with an import id, so a failed, cancelled or crashed import
-- is rolled back by that id (and its change_log rows removed) while other clients keep writing.
ALTER TABLE change_log ADD COLUMN import_id TEXT;
CREATE INDEX idx_change_import ON change_log(import_id) WHERE import_id IS NOT NULL;
