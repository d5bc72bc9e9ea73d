"""The whole memory at a glance: its most connected (or most recalled) entities, the relations among
them, and how many live entities there are of each type. What a graph overview draws instead of
every node of a 100k-entity memory.

Ranked in Python over two covering-index scans rather than by one window query over every entity:
at 100k entities and 170k relations the window query took ~1.3 s, holding the store's lock.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from core import overview as rules
from core.model import GraphCommunities, GraphOverview, Relation
from core.overview import graph_overview as ranked_overview
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.reads import IDS, ids_by_name, relation

_CHUNK = 2000  # candidates looked up per statement while walking down the ranking

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


def degrees(conn: Connection) -> dict[int, int]:
    """Current relations per entity id (entities without any are left out)."""
    degree: dict[int, int] = dict(conn.execute(_DEGREE_FROM).fetchall())
    for eid, n in conn.execute(_DEGREE_TO):
        degree[eid] = degree.get(eid, 0) + n
    for src, dst in conn.execute(_ENDED):
        degree[src] -= 1
        degree[dst] -= 1
    return {eid: n for eid, n in degree.items() if n > 0}


class _Source:
    """The lookups the shared ranking (core/overview.py) asks of a backend, over SQLite."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

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


class _CommunitySource(_Source):
    """What the shared community rule (core/overview.py) asks of a backend, over SQLite."""

    def entities(self) -> list[tuple[int, str]]:
        return self.conn.execute("SELECT id, entity_type FROM entities WHERE archived_at IS NULL").fetchall()

    def links(self) -> list[tuple[int, int]]:
        return self.conn.execute("SELECT from_entity, to_entity FROM relations WHERE ended_at IS NULL").fetchall()

    def ids(self, names: Sequence[str]) -> dict[str, int]:
        return ids_by_name(self.conn, names)


@contextmanager
def reading(conn: Connection) -> Iterator[tuple[_CommunitySource, tuple[int, int]]]:
    """What a partition is read from, and the data's version (``PRAGMA data_version`` changes with
    another connection's commits, ``total_changes`` with this one's); the caller holds the lock."""
    yield _CommunitySource(conn), (conn.execute("PRAGMA data_version").fetchone()[0], conn.total_changes)


def graph_communities(conn: Connection, part: rules.Partition, *, limit: int,
                      totals: tuple[int, int]) -> GraphCommunities:
    """See ``core.overview.graph_communities``."""
    return rules.graph_communities(_CommunitySource(conn), part, limit=limit, totals=totals)


def graph_community(conn: Connection, part: rules.Partition, name: str, *, limit: int) -> GraphOverview:
    """See ``core.overview.graph_community``."""
    return rules.graph_community(_CommunitySource(conn), part, name, limit=limit)


def graph_overview(
    conn: Connection, *, limit: int, by: str, per_type: int, entity_type: str | None, totals: tuple[int, int]
) -> GraphOverview:
    """The ``limit`` top live entities by ``by`` (``"degree"`` or ``"access"``; the top
    ``per_type`` of every type are always in), the current relations among them, and live entity
    counts by type."""
    return ranked_overview(_Source(conn), degree=degrees(conn), access=dict(conn.execute(_ACCESS).fetchall()),
                           types=dict(conn.execute(_TYPE_COUNTS).fetchall()), limit=limit, by=by,
                           per_type=per_type, entity_type=entity_type, totals=totals, chunk=_CHUNK)
