"""The whole memory at a glance: its most connected (or most recalled) entities, the relations among
them, and how many live entities there are of each type. What a graph overview draws instead of
every node of a 100k-entity memory.

Ranked in Python over two covering-index scans rather than by one window query over every entity:
at 100k entities and 170k relations the window query took ~1.3 s, holding the store's lock.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Sequence

from core.model import GraphOverview, OverviewNode
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.reads import IDS, relation

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


def graph_overview(
    conn: Connection, *, limit: int, by: str, per_type: int, entity_type: str | None, totals: tuple[int, int]
) -> GraphOverview:
    """The ``limit`` top live entities by ``by`` (``"degree"`` or ``"access"``; the top
    ``per_type`` of every type are always in), the current relations among them, and live entity
    counts by type."""
    degree = degrees(conn)
    access: dict[int, int] = dict(conn.execute(_ACCESS).fetchall())
    first, second = (degree, access) if by == "degree" else (access, degree)
    # One sortable tuple per scored entity, best first: plain tuple comparisons run in C.
    scores = {eid: (-first.get(eid, 0), -second.get(eid, 0), eid) for eid in set(degree) | set(access)}

    def key(eid: int) -> tuple[int, int, int]:
        return scores.get(eid, (0, 0, eid))

    types = dict(conn.execute(_TYPE_COUNTS).fetchall())
    # Most overviews are settled within the first few hundred; only a filter that skips many
    # (one rare type, many archived) needs the whole ranking.
    ranked = [t[2] for t in heapq.nsmallest(limit * 3, scores.values())]
    best = _walk(conn, ranked, entity_type, limit)
    if len(best) < limit and len(ranked) < len(scores):
        ranked = [t[2] for t in sorted(scores.values())]
        best = _walk(conn, ranked, entity_type, limit)
    if len(best) < limit:  # a small or sparse memory: entities nobody links or recalls fill up
        seen = {r[0] for r in best}
        best += [r for r in conn.execute(_UNRANKED, {"type": entity_type, "limit": limit + len(seen)})
                 if r[0] not in seen][: limit - len(best)]
    quota = _quota(conn, best, types, entity_type, per_type, scores)
    chosen: dict[int, Row] = {r[0]: r for r in quota}
    for row in best:
        if len(chosen) >= limit:
            break
        chosen.setdefault(row[0], row)
    ids = list(chosen)
    chunk = json.dumps(ids)
    relations = [relation(src, dst, rtype) for src, dst, rtype in conn.execute(_AMONG, (chunk, chunk))]
    nodes = [
        OverviewNode.model_construct(name=name, entityType=etype, degree=degree.get(eid, 0),
                                     accessCount=access.get(eid, 0))
        for eid, name, etype in sorted(chosen.values(), key=lambda r: key(r[0]))
    ]
    return GraphOverview(entities=nodes, relations=relations, types=types,
                         total_entities=totals[0], total_relations=totals[1])


def _walk(conn: Connection, ranked: Sequence[int], entity_type: str | None, limit: int) -> list[Row]:
    """The first ``limit`` live entities (of ``entity_type``, if given) in ``ranked`` order."""
    found: list[Row] = []
    for start in range(0, len(ranked), _CHUNK):
        part = ranked[start : start + _CHUNK]
        rows = {r[0]: r for r in conn.execute(_LIVE, {"ids": json.dumps(list(part)), "type": entity_type})}
        found += [rows[i] for i in part if i in rows]
        if len(found) >= limit:
            return found[:limit]
    return found


def _quota(conn: Connection, best: Sequence[Row], types: dict[str, int], entity_type: str | None,
           per_type: int, scores: dict[int, tuple[int, int, int]]) -> list[Row]:
    """The top ``per_type`` entities of every type: from ``best`` when it holds enough of them
    (it is in ranking order), else from all entities of that type."""
    if per_type == 0:
        return []
    picked: list[Row] = []
    for etype in ([entity_type] if entity_type is not None else list(types)):
        mine = [r for r in best if r[2] == etype][:per_type]
        if len(mine) < per_type and types.get(etype, 0) > len(mine):
            ids = [r[0] for r in conn.execute(_OF_TYPE, (etype,)).fetchall()]
            top = [t[2] for t in heapq.nsmallest(per_type, (scores[i] for i in ids if i in scores))]
            top += sorted(i for i in ids if i not in scores)[: per_type - len(top)]
            names = dict(conn.execute(f"SELECT id, name FROM entities WHERE id IN ({IDS})", (json.dumps(top),)))
            mine = [(i, names[i], etype) for i in top]
        picked += mine
    return picked
