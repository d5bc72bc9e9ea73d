-- Schema version 7: facts are embedded in context (their entity's name and type before their
-- text, core/embeddings/text.py fact_text): every fact is due again. Old vectors stay searchable
-- until the background embedder or `hipocampo reindex` replaces them (resumable, with progress:
-- the facts listed in fact_due are due).

INSERT OR IGNORE INTO fact_due(observation_id) SELECT id FROM observations;
