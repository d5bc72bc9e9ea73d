"""Walking the SQLite graph: the nodes within 1–3 relations of one entity, each with its distance
and the relation types along one shortest path (``core.graph_rules.walk``, a level a statement)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from core import errors
from core.graph_rules import walk
from core.model import Neighbour, NodeWithNeighbours
from core.storage.sqlite import reads
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.database import Database

# The current relations touching a level's ids (each direction over its own index), as walk reads them
_TYPES = "AND ended_at IS NULL AND (:types IS NULL OR relation_type IN (SELECT value FROM json_each(:types)))"
_STEP = f"""
SELECT near, far, rtype FROM (
    SELECT from_entity AS near, to_entity AS far, relation_type AS rtype, id FROM relations
     WHERE from_entity IN (SELECT value FROM json_each(:ids)) {_TYPES}
    UNION ALL
    SELECT to_entity, from_entity, relation_type, id FROM relations
     WHERE to_entity IN (SELECT value FROM json_each(:ids)) {_TYPES}
) ORDER BY near, id
"""


class GraphNeighbours:
    """Neighbourhoods for ``SqliteGraphStore`` (which provides ``db``)."""

    db: Database

    def get_neighbours(
        self, name: str, hops: int = 1, *, rel_types: Sequence[str] | None = None
    ) -> list[Neighbour]:
        """Nodes within ``hops`` (1–3) relations of ``name``, either direction, nearest first.

        Each neighbour carries its distance and the relation types along one shortest path.
        """
        errors.check_hops(hops)
        types = json.dumps(list(rel_types)) if rel_types else None
        with self.db.locked() as conn:
            start = reads.ids_by_name(conn, [name]).get(name)
            if start is None:
                raise errors.no_entity(name)
            return self._walk(conn, start, hops, types)

    @staticmethod
    def _walk(conn: Connection, start: int, hops: int, types: str | None) -> list[Neighbour]:
        """The neighbours of entity ``start``, nearest first (the caller holds the lock): one level a
        statement, each direction over its own index."""
        found = walk(start, hops, lambda ids: conn.execute(_STEP, {"ids": json.dumps(ids), "types": types}))
        by_id = {n.id: n for n in reads.nodes(conn, [i for i, _, _ in found])}
        return [Neighbour(node=by_id[i], distance=d, path=p) for i, d, p in found]

    def get_node_with_neighbours(self, name: str, hops: int = 1) -> NodeWithNeighbours:
        """A node, its neighbours within ``hops``, and the relations among all of them."""
        with self.db.locked() as conn:
            start = reads.ids_by_name(conn, [name]).get(name)
            if start is None:
                raise errors.no_entity(name)
            node = reads.nodes(conn, [start])[0]
            errors.check_hops(hops)
            neighbours = self._walk(conn, start, hops, None)
            ids = {node.id, *(n.node.id for n in neighbours)}
            names = {node.name, *(n.node.name for n in neighbours)}
            rels = [r for r in reads.relations_touching(conn, list(ids))
                    if r.from_ in names and r.to in names]
            return NodeWithNeighbours(node=node, neighbours=neighbours, relations=rels)
