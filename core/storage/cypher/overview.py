"""The graph overview on a Cypher server: the scores and lookups ``core.overview`` ranks.

It reads through the store's dialect (``db``) and the store queries it needs, handed in by the
store (``relations_among``, ``totals``), so it never imports the store.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

from core import overview
from core.model import Relation
from core.storage.cypher import rows as R

#: ids → the relations among those entities, as the store's rows (``from``, ``to``, ``relationType`` …)
RelationsAmong = Callable[[Sequence[int]], list[dict[str, Any]]]
Scores = tuple[dict[int, int], dict[int, int], dict[str, int]]

_LIVE = "e.archived_at IS NULL AND ($type IS NULL OR e.type = $type)"
# Each dialect's last scores and the graph version they were read at (gone with the dialect).
_SCORES: weakref.WeakKeyDictionary[Any, tuple[int, Scores]] = weakref.WeakKeyDictionary()


class Source:
    """``overview.StoreSource`` over one store's dialect."""

    def __init__(self, db: Any, relations_among: RelationsAmong, totals: Callable[[], tuple[int, int]]) -> None:
        self._db = db
        self._relations_among = relations_among
        self.totals = totals

    def scores(self) -> Scores:
        """Read again only after a write by anyone: the graph pane asks for several overviews in a row."""
        db = self._db
        version = db.version()
        cached = _SCORES.get(db)
        if cached is not None and cached[0] == version:
            return cached[1]
        # The server keeps each node's degree: no relation is read, except the few that have ended.
        degree = {eid: int(n) for eid, n in db.read(
            f"MATCH (e:Entity) WITH e, {db.DEGREE} AS n WHERE n > 0 RETURN e.id, n")}
        for a, b in db.read("MATCH (a:Entity)-[r:REL]->(b:Entity) WHERE r.ended_at IS NOT NULL RETURN a.id, b.id"):
            for eid in (a, b):
                degree[eid] -= 1
                if not degree[eid]:
                    del degree[eid]
        access = {eid: int(n) for eid, n in db.read(
            "MATCH (e:Entity) WHERE e.access_count > 0 RETURN e.id, e.access_count")}
        types = {t: int(n) for t, n in db.read(
            "MATCH (e:Entity) WHERE e.archived_at IS NULL RETURN e.type, count(e) AS n ORDER BY n DESC, e.type")}
        _SCORES[db] = (version, (degree, access, types))
        return degree, access, types

    def live(self, ids: Sequence[int], entity_type: str | None) -> list[overview.Row]:
        return [tuple(r) for r in self._db.read(
            f"UNWIND $ids AS i MATCH (e:Entity {{id: i}}) WHERE {_LIVE} RETURN e.id, e.name, e.type",
            {"ids": list(ids), "type": entity_type})]

    def unranked(self, entity_type: str | None, limit: int) -> list[overview.Row]:
        return [tuple(r) for r in self._db.read(
            f"MATCH (e:Entity) WHERE {_LIVE} RETURN e.id, e.name, e.type ORDER BY e.id LIMIT $limit",
            {"type": entity_type, "limit": limit})]

    def of_type(self, entity_type: str) -> list[int]:
        return [r[0] for r in self._db.read("MATCH (e:Entity) WHERE e.type = $t AND e.archived_at IS NULL RETURN e.id",
                                            {"t": entity_type})]

    def names(self, ids: Sequence[int]) -> dict[int, str]:
        return {i: n for i, n in self._db.read("UNWIND $ids AS i MATCH (e:Entity {id: i}) RETURN e.id, e.name",
                                               {"ids": list(ids)})}

    def among(self, ids: Sequence[int]) -> list[Relation]:
        return [R.relation(r["from"], r["to"], r["relationType"]) for r in self._relations_among(ids)]

    # One row of two lists rather than a row per entity or relation: the client decodes rows one
    # by one in Python (measured at 10k: 0.40 → 0.23 s for the relations).
    def entities(self) -> list[tuple[int, str]]:
        ids, types = self._db.read(
            "MATCH (e:Entity) WHERE e.archived_at IS NULL RETURN collect(e.id), collect(e.type)")[0]
        return list(zip(ids, types, strict=True))

    def links(self) -> list[tuple[int, int]]:
        froms, tos = self._db.read(
            "MATCH (a:Entity)-[r:REL]->(b:Entity) WHERE r.ended_at IS NULL RETURN collect(a.id), collect(b.id)")[0]
        return list(zip(froms, tos, strict=True))

    def ids(self, names: Sequence[str]) -> dict[str, int]:
        return {n: int(i) for n, i in self._db.read("UNWIND $names AS n MATCH (e:Entity {name: n}) RETURN e.name, e.id",
                                                    {"names": list(names)})}
