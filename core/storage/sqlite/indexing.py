"""Keeping the text indexes in step with the rows, inside the caller's transaction.

Both FTS tables are contentless (the text is stored once, in entities/observations), so an
entity's index rows are rewritten whole whenever its name, type, props or observations change.
Text is folded with ``hfold`` (see ``core.search.folding``) on the way in, as queries are.
``entity_folded`` keeps each entity's folded fields, which search_nodes reads with ``instr``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from core.storage.sqlite.connection import Connection

# json_each(?) turns one JSON array parameter into a set of ids: no per-id placeholders.
_IDS = "SELECT value FROM json_each(?)"

# Unit separator between fields (and between observations): a substring query without it never
# spans two fields (search_nodes confirms a query holding it field by field instead).
SEPARATOR = "\x1f"

_FOLD = f"""
INSERT OR REPLACE INTO entity_folded(entity_id, text)
SELECT e.id, hfold(e.name) || char(31) || hfold(e.entity_type) || char(31)
             || coalesce((SELECT group_concat(hfold(o.content), char(31) ORDER BY o.id)
                            FROM observations o WHERE o.entity_id = e.id), '')
  FROM entities e WHERE e.id IN ({_IDS})
"""

# Whole words: the observations are cut from the folded text just stored (the long part is
# folded once per write); name, type and props are folded here.
_INSERT_WORDS = f"""
INSERT INTO entity_fts(rowid, name, entity_type, obs_text, props_text)
SELECT e.id,
       hfold(e.name),
       hfold(e.entity_type),
       substr(f.text, length(hfold(e.name)) + length(hfold(e.entity_type)) + 3),
       hfold(coalesce((SELECT group_concat(j.value, char(10))
                         FROM json_tree(e.props) j WHERE j.type = 'text'), ''))
  FROM entities e JOIN entity_folded f ON f.entity_id = e.id WHERE e.id IN ({_IDS})
"""

_INSERT_SUBSTR = f"""
INSERT INTO entity_substr(rowid, text)
SELECT entity_id, text FROM entity_folded WHERE entity_id IN ({_IDS})
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
        conn.execute(f"DELETE FROM entity_folded WHERE entity_id IN ({_IDS})", (chunk,))


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


def reindex_all(conn: Connection) -> None:
    """Rebuild the indexes from scratch (after a migration or an import from another tool)."""
    conn.execute("DELETE FROM entity_fts")
    conn.execute("DELETE FROM entity_substr")
    conn.execute("DELETE FROM entity_folded")
    ids = [r[0] for r in conn.execute("SELECT id FROM entities ORDER BY id")]
    reindex(conn, ids, fresh=True)
