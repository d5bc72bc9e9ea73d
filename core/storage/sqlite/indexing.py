"""Keeping the full-text indexes in step with the rows, inside the caller's transaction.

Both FTS tables are contentless (the text is stored once, in entities/observations), so an
entity's index rows are rewritten whole whenever its name, type, props or observations change.
Text is folded with ``hfold`` (see ``core.search.folding``) on the way in, as queries are.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from core.storage.sqlite.connection import Connection

# json_each(?) turns one JSON array parameter into a set of ids: no per-id placeholders.
_IDS = "SELECT value FROM json_each(?)"

_DOC = f"""
SELECT e.id,
       hfold(e.name) AS name,
       hfold(e.entity_type) AS entity_type,
       hfold(coalesce((SELECT group_concat(o.content, char(10) ORDER BY o.id)
                         FROM observations o WHERE o.entity_id = e.id), '')) AS obs_text,
       hfold(coalesce((SELECT group_concat(j.value, char(10))
                         FROM json_tree(e.props) j WHERE j.type = 'text'), '')) AS props_text
  FROM entities e WHERE e.id IN ({_IDS})
"""

_INSERT_WORDS = f"""
INSERT INTO entity_fts(rowid, name, entity_type, obs_text, props_text)
SELECT id, name, entity_type, obs_text, props_text FROM ({_DOC})
"""

# Unit separator between fields: a substring query never spans two fields by accident.
_INSERT_SUBSTR = f"""
INSERT INTO entity_substr(rowid, text)
SELECT id, name || char(31) || entity_type || char(31) || obs_text FROM ({_DOC})
"""

_CHUNK = 5000


def _chunks(ids: Sequence[int]) -> Iterable[str]:
    for start in range(0, len(ids), _CHUNK):
        yield json.dumps(list(ids[start : start + _CHUNK]))


def remove(conn: Connection, ids: Sequence[int]) -> None:
    """Drop the index rows of ``ids`` (before the entities themselves are deleted)."""
    for chunk in _chunks(ids):
        conn.execute(f"DELETE FROM entity_fts WHERE rowid IN ({_IDS})", (chunk,))
        conn.execute(f"DELETE FROM entity_substr WHERE rowid IN ({_IDS})", (chunk,))


def reindex(conn: Connection, ids: Sequence[int], *, fresh: bool = False) -> None:
    """Rewrite the index rows of ``ids`` from the current rows.

    ``fresh=True`` skips the delete for entities created in this same transaction.
    """
    ids = list(dict.fromkeys(ids))
    if not fresh:
        remove(conn, ids)
    for chunk in _chunks(ids):
        conn.execute(_INSERT_WORDS, (chunk,))
        conn.execute(_INSERT_SUBSTR, (chunk,))


def reindex_all(conn: Connection) -> None:
    """Rebuild both indexes from scratch (after a migration or an import from another tool)."""
    conn.execute("DELETE FROM entity_fts")
    conn.execute("DELETE FROM entity_substr")
    ids = [r[0] for r in conn.execute("SELECT id FROM entities ORDER BY id")]
    reindex(conn, ids, fresh=True)
