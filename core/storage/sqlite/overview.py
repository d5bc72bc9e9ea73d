"""The whole memory at a glance: its most connected (or most recalled) entities, the relations among
them, and how many live entities there are of each type. What a graph overview draws instead of
every node of a 100k-entity memory."""

from __future__ import annotations

import json
from collections.abc import Sequence

from core.model import GraphOverview, OverviewNode
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.reads import IDS, relation

# Degree counts current relations; a relation to an archived entity still says the entity matters.
_RANKED = """
WITH degree(id, n) AS (
    SELECT id, sum(n) FROM (
        SELECT from_entity AS id, count(*) AS n FROM relations WHERE ended_at IS NULL GROUP BY from_entity
        UNION ALL
        SELECT to_entity, count(*) FROM relations WHERE ended_at IS NULL GROUP BY to_entity
    ) GROUP BY id
),
scored AS (
    SELECT e.id, e.name, e.entity_type, coalesce(d.n, 0) AS degree, coalesce(a.access_count, 0) AS access
      FROM entities e
      LEFT JOIN degree d ON d.id = e.id
      LEFT JOIN entity_access a ON a.entity_id = e.id
     WHERE e.archived_at IS NULL AND (:type IS NULL OR e.entity_type = :type)
),
ranked AS (
    SELECT *, row_number() OVER (PARTITION BY entity_type ORDER BY {order}) AS type_rank FROM scored
)
SELECT id, name, entity_type, degree, access FROM ranked
 ORDER BY type_rank <= :per_type DESC, {order}
 LIMIT :limit
"""

ORDERS = {
    "degree": "degree DESC, access DESC, id",
    "access": "access DESC, degree DESC, id",
}

_AMONG = f"""
SELECT f.name, t.name, r.relation_type
  FROM relations r JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity
 WHERE r.from_entity IN ({IDS}) AND r.to_entity IN ({IDS}) AND r.ended_at IS NULL
 ORDER BY r.id
"""

_TYPE_COUNTS = (
    "SELECT entity_type, count(*) FROM entities WHERE archived_at IS NULL GROUP BY entity_type ORDER BY 2 DESC, 1"
)


def graph_overview(
    conn: Connection, *, limit: int, by: str, per_type: int, entity_type: str | None, totals: tuple[int, int]
) -> GraphOverview:
    """The ``limit`` top live entities by ``by`` (at least ``per_type`` of every type come first),
    the current relations among them, and live entity counts by type."""
    rows = conn.execute(
        _RANKED.format(order=ORDERS[by]),
        {"type": entity_type, "per_type": per_type, "limit": limit},
    ).fetchall()
    ids: Sequence[int] = [r[0] for r in rows]
    chunk = json.dumps(list(ids))
    relations = [relation(src, dst, rtype) for src, dst, rtype in conn.execute(_AMONG, (chunk, chunk))]
    # The order above put the per-type quota first; show the most important first instead.
    key = (lambda r: (-r[3], -r[4], r[0])) if by == "degree" else (lambda r: (-r[4], -r[3], r[0]))
    nodes = [
        OverviewNode.model_construct(name=name, entityType=etype, degree=degree, accessCount=access)
        for _, name, etype, degree, access in sorted(rows, key=key)
    ]
    return GraphOverview(
        entities=nodes, relations=relations, types=dict(conn.execute(_TYPE_COUNTS).fetchall()),
        total_entities=totals[0], total_relations=totals[1],
    )
