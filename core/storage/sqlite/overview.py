"""The whole memory at a glance: its most connected (or most recalled) entities, the relations among
them, and how many live entities there are of each type. What a graph overview draws instead of
every node of a 100k-entity memory.

Ranked in Python over two covering-index scans rather than by one window query over every entity:
at 100k entities and 170k relations the window query took ~1.3 s, holding the store's lock.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from core.model import Relation
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.reads import IDS, ids_by_name, relation

# Both scans read an index only (the unique (from, to, type) index and idx_rel_to); the few ended
# relations are taken off afterwards, so degree counts current relations.
_DEGREE_FROM = "SELECT from_entity, count(*) FROM relations GROUP BY from_entity"
_DEGREE_TO = "SELECT to_entity, count(*) FROM relations GROUP BY to_entity"
_ENDED = "SELECT from_entity, to_entity FROM relations WHERE ended_at IS NOT NULL"
_ACCESS = "SELECT entity_id, access_count FROM entity_access"
_LIVE = ("SELECT id, name, entity_type FROM entities WHERE id IN (SELECT value FROM json_each(:ids)) "
         "AND archived_at IS NULL "
         "AND (:type IS NULL OR entity_type = :type)")
_OF_TYPE = "SELECT id FROM entities WHERE entity_type = ? AND archived_at IS NULL"
_UNRANKED = ("SELECT id, name, entity_type FROM entities WHERE archived_at IS NULL "
             "AND (:type IS NULL OR entity_type = :type) ORDER BY id LIMIT :limit")
_AMONG = f"""
SELECT f.name, t.name, r.relation_type
  FROM relations r JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity
 WHERE r.from_entity IN ({IDS}) AND r.to_entity IN ({IDS}) AND r.ended_at IS NULL
 ORDER BY r.id
"""
_TYPE_COUNTS = (
    "SELECT entity_type, count(*) FROM entities WHERE archived_at IS NULL GROUP BY entity_type ORDER BY 2 DESC, 1"
)

Row = tuple[int, str, str]  # id, name, type


class Source:
    """The reads the shared overview and community rules (core/overview.py) ask of a backend, over
    SQLite; the caller holds the store's lock."""

    def __init__(self, conn: Connection, totals: Callable[[Connection], tuple[int, int]]) -> None:
        self.conn = conn
        self._totals = totals

    def scores(self) -> tuple[dict[int, int], dict[int, int], dict[str, int]]:
        # Degree counts current relations: the few ended ones are taken off the index counts.
        degree: dict[int, int] = dict(self.conn.execute(_DEGREE_FROM).fetchall())
        for eid, n in self.conn.execute(_DEGREE_TO):
            degree[eid] = degree.get(eid, 0) + n
        for src, dst in self.conn.execute(_ENDED):
            degree[src] -= 1
            degree[dst] -= 1
        return ({eid: n for eid, n in degree.items() if n > 0}, dict(self.conn.execute(_ACCESS).fetchall()),
                dict(self.conn.execute(_TYPE_COUNTS).fetchall()))

    def totals(self) -> tuple[int, int]:
        return self._totals(self.conn)

    def live(self, ids: Sequence[int], entity_type: str | None) -> list[Row]:
        return self.conn.execute(_LIVE, {"ids": json.dumps(list(ids)), "type": entity_type}).fetchall()

    def unranked(self, entity_type: str | None, limit: int) -> list[Row]:
        return self.conn.execute(_UNRANKED, {"type": entity_type, "limit": limit}).fetchall()

    def of_type(self, entity_type: str) -> list[int]:
        return [r[0] for r in self.conn.execute(_OF_TYPE, (entity_type,)).fetchall()]

    def names(self, ids: Sequence[int]) -> dict[int, str]:
        return dict(self.conn.execute(f"SELECT id, name FROM entities WHERE id IN ({IDS})", (json.dumps(list(ids)),)))

    def among(self, ids: Sequence[int]) -> list[Relation]:
        chunk = json.dumps(list(ids))
        return [relation(src, dst, rtype) for src, dst, rtype in self.conn.execute(_AMONG, (chunk, chunk))]

    def entities(self) -> list[tuple[int, str]]:
        return self.conn.execute("SELECT id, entity_type FROM entities WHERE archived_at IS NULL").fetchall()

    def links(self) -> list[tuple[int, int]]:
        return self.conn.execute("SELECT from_entity, to_entity FROM relations WHERE ended_at IS NULL").fetchall()

    def ids(self, names: Sequence[str]) -> dict[str, int]:
        return ids_by_name(self.conn, names)
