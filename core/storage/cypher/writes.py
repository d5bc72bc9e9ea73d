"""``core.graph_writes.Writes`` on a Cypher server: the official server's creates and deletes and
Engrama's merge and archive (their rules are ``core.graph_writes``') on one ``work.Work``, sent as
one atomic batch by ``finish``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from core.graph_rules import PLACEHOLDER_KEY
from core.graph_writes import relation_snapshot
from core.model import Node, Relation
from core.storage.cypher import fact_vectors, facts, work
from core.storage.cypher import rows as R
from core.storage.cypher.seams import Graph
from core.storage.cypher.work import Work


class CypherWrites:
    """Reads through ``w`` (which answers later steps from what earlier ones changed); the deletes
    queue their statements in its transaction at once."""

    def __init__(self, graph: Graph, w: Work) -> None:
        self.graph, self.w, self.tx = graph, w, w.tx

    def _row(self, name: str) -> dict[str, Any]:
        return self.w.rows_named(name)

    def existing(self, names: Sequence[str]) -> set[str]:
        self.w.find_all(list(names))
        return {n for n in names if self.w.find(n) is not None}

    def placeholders(self, names: Sequence[str]) -> dict[str, tuple[str, dict[str, Any]]]:
        return {n: (row["type"], row["props"]) for n in names if (row := self._row(n))["props"].get(PLACEHOLDER_KEY)}

    def observations(self, name: str) -> list[str]:
        return list(self._row(name)["obs"])

    def held(self, name: str, contents: Sequence[str]) -> set[str]:
        return set(self._row(name)["obs"]).intersection(contents)

    def create(self, name: str, entity_type: str, props: dict[str, Any], observations: list[str]) -> None:
        self.w.create(name, entity_type, props=props, observations=[(o, self.w.now) for o in observations])

    def fill(self, name: str, entity_type: str) -> None:
        row = self._row(name)
        row["type"] = entity_type
        row["props"] = {k: v for k, v in row["props"].items() if k != PLACEHOLDER_KEY}
        self.w.touch(row)

    def add_observations(self, name: str, contents: list[str]) -> None:
        row = self._row(name)
        row["obs"] = [*row["obs"], *contents]
        row["obs_at"] = [*row["obs_at"], *([self.w.now] * len(contents))]
        self.w.touch(row)

    def delete_observations(self, name: str, contents: list[str]) -> list[list[str]]:
        return work.take_observations(self.w, self._row(name), contents)

    def read_relations(self, relations: Sequence[Relation]) -> None:
        self.w.relations_between([(self._row(r.from_), self._row(r.to), r.relationType) for r in relations])

    def add_relation(self, relation: Relation) -> bool:
        a, b = self._row(relation.from_), self._row(relation.to)
        if self.w.relation(a, b, relation.relationType) is not None:
            return False
        self.w.add_relation(a, b, relation.relationType)
        return True

    def delete_relations(self, relations: Sequence[Relation]) -> list[dict[str, Any]]:
        found = self.tx.read(
            "UNWIND $rels AS p MATCH (a:Entity {name: p[0]})-[r:REL]->(b:Entity {name: p[1]}) "
            "WHERE r.type = p[2] RETURN p[0], p[1], p[2], r.props, r.created_at, r.ended_at, r.id, a.id, b.id",
            {"rels": [[r.from_, r.to, r.relationType] for r in relations]})
        if found:
            self.tx.write("UNWIND $rels AS p MATCH (:Entity {id: p.a})-[r:REL]->() WHERE r.id = p.id DELETE r",
                          {"rels": [{"a": f[7], "id": f[6]} for f in found]})
            self.graph.mark_stale(self.tx, [i for f in found for i in (f[7], f[8])])
        return [relation_snapshot(src, dst, rtype, json.loads(props or "{}"), created, ended)
                for src, dst, rtype, props, created, ended, *_ in found]

    def delete_entities(self, names: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        rows = self.graph.rows_by_name(self.tx, names)
        if not rows:
            return []
        ids = [r["id"] for r in rows.values()]
        rels = self.graph.relation_snaps(self.tx, ids)
        others = [r[0] for r in self.tx.read(
            "UNWIND $ids AS i MATCH (e:Entity {id: i})-[:REL]-(o:Entity) RETURN DISTINCT o.id", {"ids": ids})]
        self.tx.write("UNWIND $ids AS i MATCH (e:Entity {id: i}) DETACH DELETE e", {"ids": ids})
        self.tx.write("UNWIND $ids AS i MATCH (v:Vec {id: i}) DELETE v", {"ids": ids})
        facts.drop(self.tx, ids)
        self.graph.mark_stale(self.tx, [o for o in others if o not in ids])
        return [(r["name"], R.snapshot(r, rels[r["id"]])) for r in rows.values()]

    def state(self, name: str) -> tuple[str, dict[str, Any], bool]:
        row = self._row(name)
        return row["type"], dict(row["props"]), row["archived_at"] is not None

    def set_state(self, name: str, entity_type: str, props: dict[str, Any], *, retyped: bool) -> None:
        row = self._row(name)
        if retyped:
            fact_vectors.due_of(self.tx, [row["id"]])
        row["type"], row["props"] = entity_type, props
        self.w.touch(row)

    def archive(self, name: str) -> None:
        # Written at once, not through ``w``: a row written back would have its vector re-made.
        row = self._row(name)
        row["archived_at"] = row["updated_at"] = self.w.now
        self.tx.write("MATCH (e:Entity {id: $i}) SET e.archived_at = $now, e.updated_at = $now",
                      {"i": row["id"], "now": self.w.now})

    def node(self, name: str) -> Node:
        return R.node(self._row(name))

    def log(self, op: str, entity: str | None, before: Any = None, after: Any = None) -> None:
        self.w.record(op, entity, before, after)

    def finish(self) -> None:
        self.w.commit()
