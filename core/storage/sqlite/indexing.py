"""Keeping the entity-level text indexes in step with the rows, inside the caller's transaction.

An entity's own fields (name, type, props) are indexed here, and rewritten whenever they change;
its observations are facts indexed one by one (``fact_fts`` for words, ``fact_substr`` for
substrings), by triggers on ``observations`` (schema 4), so adding a fact to a long entity
rewrites nothing of the rest. Text is folded with ``hfold`` (see ``core.search.folding``) on the
way in, as queries are. ``entity_folded`` keeps each entity's folded name and type, which
search_nodes reads with ``instr``; ``fact_folded`` keeps each fact's. ``entity_name_tokens`` keeps
each name as the duplicate rules fold it (``core.hygiene.names.tokens``), beside the name it was
folded from, so reflect reads the words instead of folding every name (migration 008).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from core.hygiene import name_index, names
from core.storage.sqlite.connection import Connection

# json_each(?) turns one JSON array parameter into a set of ids: no per-id placeholders.
_IDS = "SELECT value FROM json_each(?)"

# Unit separator between fields (and between observations): a substring query without it never
# spans two fields (search_nodes confirms a query holding it field by field instead).
SEPARATOR = "\x1f"

_FOLD = f"""
INSERT OR REPLACE INTO entity_folded(entity_id, text)
SELECT e.id, hfold(e.name) || char(31) || hfold(e.entity_type) FROM entities e WHERE e.id IN ({_IDS})
"""

# Whole words of the entity's own fields (obs_text stays empty: facts have fact_fts).
_INSERT_WORDS = f"""
INSERT INTO entity_fts(rowid, name, entity_type, obs_text, props_text)
SELECT e.id,
       hfold(e.name),
       hfold(e.entity_type),
       '',
       hfold(coalesce((SELECT group_concat(j.value, char(10))
                         FROM json_tree(e.props) j WHERE j.type = 'text'), ''))
  FROM entities e WHERE e.id IN ({_IDS})
"""

_INSERT_SUBSTR = f"""
INSERT INTO entity_substr(rowid, text)
SELECT entity_id, text FROM entity_folded WHERE entity_id IN ({_IDS})
"""

_CHUNK = 5000


def _chunks(ids: Sequence[int]) -> Iterable[str]:
    for start in range(0, len(ids), _CHUNK):
        yield json.dumps(list(ids[start : start + _CHUNK]))


def flush_facts(conn: Connection) -> None:
    """Index the facts the triggers queued (new, changed or deleted observations): a few statements
    for the whole write, whatever its size. Every write path ends here (``reindex``, ``touched``)."""
    queued = conn.execute("SELECT observation_id, indexed FROM fact_queue").fetchall()
    if not queued:
        return
    # By rowid, one at a time: FTS5 answers ``rowid = ?`` by lookup but ``rowid IN (…)`` by a scan.
    old = [(oid,) for oid, indexed in queued if indexed]
    if old:
        conn.executemany("DELETE FROM fact_fts WHERE rowid = ?", old)
        conn.executemany("DELETE FROM fact_substr WHERE rowid = ?", old)
    conn.execute("INSERT OR REPLACE INTO fact_folded(observation_id, text) SELECT o.id, hfold(o.content) "
                 "FROM fact_queue q JOIN observations o ON o.id = q.observation_id")
    # The folded text serves both indexes (each fact folded once per write)
    fresh = ("SELECT f.observation_id, f.text FROM fact_queue q "
             "JOIN fact_folded f ON f.observation_id = q.observation_id")
    conn.execute(f"INSERT INTO fact_substr(rowid, text) {fresh}")
    conn.execute(f"INSERT INTO fact_fts(rowid, content) {fresh}")
    conn.execute("DELETE FROM fact_queue")


def store_name_tokens(conn: Connection, rows: Sequence[tuple[int, str, str]]) -> None:
    """Store (id, name, words as ``names.stored_tokens`` writes them), each only while the entity
    still has that name."""
    conn.executemany("INSERT OR REPLACE INTO entity_name_tokens(entity_id, name, tokens) SELECT id, name, ? "
                     "FROM entities WHERE id = ? AND name = ?", [(t, i, n) for i, n, t in rows])


def _name_tokens(conn: Connection, chunk: str) -> None:
    """The duplicate rules' words of the entities in ``chunk``, folded in bulk."""
    # Insights are never duplicates of anything (the rules read live entities only): not folded.
    rows = conn.execute(f"SELECT id, name FROM entities WHERE id IN ({_IDS}) AND entity_type <> 'Insight'",
                        (chunk,)).fetchall()
    if not rows:
        return
    words = name_index.tokens_many([n for _, n in rows])
    # One statement for the chunk (a batch of 20k entities: executemany cost ~10 µs an entity).
    conn.execute("INSERT OR REPLACE INTO entity_name_tokens(entity_id, name, tokens) "
                 "SELECT e.id, e.name, j.value ->> 1 FROM json_each(?) j JOIN entities e ON e.id = j.value ->> 0",
                 (json.dumps([[i, names.stored_tokens(w)] for (i, _), w in zip(rows, words, strict=True)]),))


def remove(conn: Connection, ids: Sequence[int]) -> None:
    """Drop the index rows of ``ids`` (before the entities themselves are deleted)."""
    for chunk in _chunks(ids):
        conn.execute(f"DELETE FROM entity_fts WHERE rowid IN ({_IDS})", (chunk,))
        conn.execute(f"DELETE FROM entity_substr WHERE rowid IN ({_IDS})", (chunk,))
        conn.execute(f"DELETE FROM entity_folded WHERE entity_id IN ({_IDS})", (chunk,))
        conn.execute(f"DELETE FROM entity_name_tokens WHERE entity_id IN ({_IDS})", (chunk,))


def reindex(conn: Connection, ids: Sequence[int], *, fresh: bool = False) -> None:
    """Rewrite the index rows of ``ids`` from the current rows.

    ``fresh=True`` skips the delete for entities created in this same transaction.
    """
    ids = list(dict.fromkeys(ids))
    if not fresh:
        remove(conn, ids)
    for chunk in _chunks(ids):
        conn.execute(_FOLD, (chunk,))
        conn.execute(_INSERT_WORDS, (chunk,))
        conn.execute(_INSERT_SUBSTR, (chunk,))
        _name_tokens(conn, chunk)
    flush_facts(conn)


def reindex_all(conn: Connection) -> None:
    """Rebuild the indexes from scratch (after a migration or an import from another tool)."""
    conn.execute("DELETE FROM entity_fts")
    conn.execute("DELETE FROM entity_substr")
    conn.execute("DELETE FROM entity_folded")
    conn.execute("DELETE FROM entity_name_tokens")
    ids = [r[0] for r in conn.execute("SELECT id FROM entities ORDER BY id")]
    reindex(conn, ids, fresh=True)
