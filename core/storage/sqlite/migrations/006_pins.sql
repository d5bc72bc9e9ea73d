-- Schema version 6: what the user pinned for the session brief (an entity, or one of its facts).
-- A pin goes with its entity (cascade) and with a rename (it names the entity by id); a pinned
-- fact whose text no longer exists is simply not shown (core/brief.py).

CREATE TABLE pins (
    entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    fact      TEXT    NOT NULL DEFAULT '',   -- '' pins the entity itself; else one observation's text
    pinned_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (entity_id, fact)
);
