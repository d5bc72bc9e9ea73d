"""Walking the SQLite graph: the nodes within 1–3 relations of one entity, each with its distance
and the relation types along one shortest path (a recursive CTE over the relation indexes)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from core import errors
from core.model import Neighbour, NodeWithNeighbours
from core.storage.sqlite import reads
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.database import Database
from core.storage.sqlite.reads import IDS


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

    def _walk(self, conn: Connection, start: int, hops: int, types: str | None) -> list[Neighbour]:
        """The neighbours of entity ``start``, nearest first (the caller holds the lock)."""
        # Two recursive terms (out-edges, in-edges) so each uses its own index; UNION keeps
        # (id, depth) pairs unique, which bounds the walk by nodes × hops, not by paths.
        depth = dict(conn.execute(
            """
            WITH RECURSIVE walk(id, depth) AS (
                SELECT :start, 0
                UNION
                SELECT r.to_entity, w.depth + 1 FROM walk w
                  JOIN relations r ON r.from_entity = w.id
                 WHERE w.depth < :hops AND r.ended_at IS NULL
                   AND (:types IS NULL OR r.relation_type IN (SELECT value FROM json_each(:types)))
                UNION
                SELECT r.from_entity, w.depth + 1 FROM walk w
                  JOIN relations r ON r.to_entity = w.id
                 WHERE w.depth < :hops AND r.ended_at IS NULL
                   AND (:types IS NULL OR r.relation_type IN (SELECT value FROM json_each(:types)))
            )
            SELECT id, min(depth) FROM walk GROUP BY id
            """,
            {"start": start, "hops": hops, "types": types},
        ).fetchall())
        paths = self._shortest_paths(conn, start, depth, types)
        order = sorted((d, i) for i, d in depth.items() if i != start)
        by_id = {n.id: n for n in reads.nodes(conn, [i for _, i in order])}
        return [Neighbour(node=by_id[i], distance=d, path=paths.get(i, [])) for d, i in order]

    @staticmethod
    def _shortest_paths(conn: Connection, start: int, depth: dict[int, int], types: str | None) -> dict[int, list[str]]:
        """Relation types along one shortest path from ``start`` to each node in ``depth``."""
        edges: dict[int, list[tuple[int, str]]] = {}
        for src, dst, rtype in conn.execute(
            f"SELECT from_entity, to_entity, relation_type FROM relations WHERE from_entity IN ({IDS}) "
            f"AND to_entity IN ({IDS}) AND ended_at IS NULL "
            "AND (? IS NULL OR relation_type IN (SELECT value FROM json_each(?)))",
            (json.dumps(list(depth)), json.dumps(list(depth)), types, types),
        ):
            edges.setdefault(src, []).append((dst, rtype))
            edges.setdefault(dst, []).append((src, rtype))
        paths: dict[int, list[str]] = {start: []}
        frontier = [start]
        while frontier:
            nxt = []
            for node in frontier:
                for other, rtype in edges.get(node, []):
                    if other not in paths and depth.get(other) == depth[node] + 1:
                        paths[other] = [*paths[node], rtype]
                        nxt.append(other)
            frontier = nxt
        return paths

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
