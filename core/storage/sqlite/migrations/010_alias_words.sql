-- Schema version 10: an entity's aliases (names merged into it) are part of its embedding text
-- (core/embeddings/text.py), so a former name finds it by meaning: the vectors of entities merged
-- into before are due again (their own words, entity_fts.props_text, held the aliases already).

DELETE FROM embedding_state WHERE entity_id IN (SELECT entity_id FROM entity_aliases);
