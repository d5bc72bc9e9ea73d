"""Writing the SQLite graph: the official server's creates and deletes (their rules are
``core.graph_writes``'; ``SqliteWrites`` is what they run on), Engrama's merges and archive (theirs too).

Every write is one short transaction that also updates the full-text indexes (``touched.py``) and
change_log (``history.py``), so a reader never sees an entity without its index rows or a change
without its history. Inputs arrive validated (``core.memory`` does that); this layer enforces
existence and uniqueness. Editing one entity in place (rename, retype, Save, undo) is ``edits.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from core import graph_writes as rules
from core.graph_rules import PLACEHOLDER_KEY, dumps
from core.model import (
    AddedObservations,
    Entity,
    EntityInput,
    Node,
    ObservationDeletion,
    ObservationInput,
    Relation,
)
from core.storage.sqlite import fact_vectors, history, reads
from core.storage.sqlite import touched as touch
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.database import Database
from core.storage.sqlite.reads import IDS
from core.storage.sqlite.vector_cache import VectorCache

T = TypeVar("T")


class SqliteWrites:
    """``core.graph_writes.Writes`` on one write transaction: each statement runs at once but the
    new observations of existing entities, the index and embedding bookkeeping, and the
    change_log rows, which wait for ``finish`` (one statement each for the batch)."""

    def __init__(self, conn: Connection, actor: str, now: str, cache: VectorCache) -> None:
        self.conn, self.actor, self.now, self.cache = conn, actor, now, cache
        self.ids: dict[str, int] = {}
        self.created: list[int] = []
        self.added: list[tuple[int, str, str]] = []  # (entity, content, created_at): new observations
        self.emptied: list[int] = []  # entities that lost observations
        self.ends: list[int] = []  # of relations created
        self.rows: list[history.LogRow] = []

    def existing(self, names: Sequence[str]) -> set[str]:
        self.ids.update(reads.ids_by_name(self.conn, [n for n in names if n not in self.ids]))
        return {n for n in names if n in self.ids}

    def placeholders(self, names: Sequence[str]) -> dict[str, tuple[str, dict[str, Any]]]:
        if not names:
            return {}
        return {name: (etype, json.loads(props)) for name, etype, props in self.conn.execute(
            f"SELECT name, entity_type, props FROM entities WHERE id IN ({IDS}) "
            f"AND json_extract(props, '$.{PLACEHOLDER_KEY}')", (json.dumps([self.ids[n] for n in names]),))}

    def observations(self, name: str) -> list[str]:
        return reads.observations_of(self.conn, [self.ids[name]])[self.ids[name]]

    def held(self, name: str, contents: Sequence[str]) -> set[str]:
        # Only the texts being added are looked up (the unique index): no work per existing fact
        return {r[0] for r in self.conn.execute(
            "SELECT content FROM observations WHERE entity_id = ? AND content IN (SELECT value FROM json_each(?))",
            (self.ids[name], json.dumps(list(contents), ensure_ascii=False)))}

    def create(self, name: str, entity_type: str, props: dict[str, Any], observations: list[str]) -> None:
        columns, values = ("name, entity_type, props", (name, entity_type, json.dumps(props))) if props else (
            "name, entity_type", (name, entity_type))
        eid = reads.inserted(self.conn.execute(
            f"INSERT INTO entities({columns}, created_at, updated_at) VALUES ({'?, ' * len(values)}?, ?)",
            (*values, self.now, self.now)))
        self.conn.executemany("INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)",
                              [(eid, o, self.now) for o in observations])
        self.ids[name] = eid
        self.created.append(eid)

    def fill(self, name: str, entity_type: str) -> None:
        self.conn.execute(
            f"UPDATE entities SET entity_type = ?, props = json_remove(props, '$.{PLACEHOLDER_KEY}'), "
            "updated_at = ? WHERE id = ?", (entity_type, self.now, self.ids[name]))
        touch.changed(self.conn, [self.ids[name]])

    def add_observations(self, name: str, contents: list[str]) -> None:
        self.added.extend((self.ids[name], o, self.now) for o in contents)

    def delete_observations(self, name: str, contents: list[str]) -> list[list[str]]:
        gone = self.conn.execute(
            "DELETE FROM observations WHERE entity_id = ? AND content IN "
            "(SELECT value FROM json_each(?)) RETURNING content, created_at", (self.ids[name], json.dumps(contents)),
        ).fetchall()
        if gone:
            self.emptied.append(self.ids[name])
        return [list(g) for g in gone]

    def read_relations(self, relations: Sequence[Relation]) -> None:
        pass  # each is one indexed statement here

    def add_relation(self, relation: Relation) -> bool:
        src, dst = self.ids[relation.from_], self.ids[relation.to]
        if not self.conn.execute(
            "INSERT INTO relations(from_entity, to_entity, relation_type, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING", (src, dst, relation.relationType, self.now)).rowcount:
            return False
        self.ends += [src, dst]
        return True

    def delete_relations(self, relations: Sequence[Relation]) -> list[dict[str, Any]]:
        self.existing([n for r in relations for n in (r.from_, r.to)])
        snaps = []
        for r in relations:
            if r.from_ not in self.ids or r.to not in self.ids:
                continue
            gone = self.conn.execute(
                "DELETE FROM relations WHERE from_entity = ? AND to_entity = ? AND relation_type = ? "
                "RETURNING props, created_at, ended_at", (self.ids[r.from_], self.ids[r.to], r.relationType),
            ).fetchone()
            if gone:
                touch.relinked(self.conn, [self.ids[r.from_], self.ids[r.to]])
                snaps.append(rules.relation_snapshot(r.from_, r.to, r.relationType, json.loads(gone[0]), gone[1],
                                                     gone[2]))
        return snaps

    def delete_entities(self, names: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        ids = reads.ids_by_name(self.conn, names)
        if not ids:
            return []
        id_list = list(ids.values())
        snaps = history.entity_snapshots(self.conn, id_list)
        touch.deleting(self.conn, id_list, self.cache)
        for chunk in reads.id_chunks(id_list):
            self.conn.execute(f"DELETE FROM entities WHERE id IN ({IDS})", (chunk,))
        touch.deleted(self.conn)
        return [(s["name"], s) for s in snaps.values()]

    def state(self, name: str) -> tuple[str, dict[str, Any], bool]:
        etype, props, archived_at = self.conn.execute(
            "SELECT entity_type, props, archived_at FROM entities WHERE id = ?", (self.ids[name],)).fetchone()
        return etype, json.loads(props), archived_at is not None

    def set_state(self, name: str, entity_type: str, props: dict[str, Any], *, retyped: bool) -> None:
        eid = self.ids[name]
        self.conn.execute("UPDATE entities SET entity_type = ?, props = ?, updated_at = ? WHERE id = ?",
                          (entity_type, json.dumps(props, ensure_ascii=False), self.now, eid))
        if retyped:
            fact_vectors.due_of(self.conn, [eid])
        touch.changed(self.conn, [eid])

    def archive(self, name: str) -> None:
        self.conn.execute("UPDATE entities SET archived_at = ?, updated_at = ? WHERE id = ?",
                          (self.now, self.now, self.ids[name]))

    def node(self, name: str) -> Node:
        return reads.nodes(self.conn, [self.ids[name]])[0]

    def log(self, op: str, entity: str | None, before: Any = None, after: Any = None) -> None:
        self.rows.append((self.now, self.actor, op, entity, dumps(before), dumps(after)))

    def finish(self) -> None:
        if self.created:
            touch.created(self.conn, self.created)
        if self.added:
            self.conn.executemany("INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)",
                                  self.added)
            grown: dict[int, int] = {}
            for eid, _, _ in self.added:
                grown[eid] = grown.get(eid, 0) + 1
            self._touch(list(grown))
            touch.facts_changed(self.conn, list(grown), grown)
        if self.emptied:
            self._touch(self.emptied)
            touch.facts_changed(self.conn, self.emptied)
        if self.ends:
            touch.relinked(self.conn, self.ends)  # once for the batch
        if self.rows:
            history.write(self.conn, self.rows)

    def _touch(self, ids: list[int]) -> None:
        self.conn.execute(f"UPDATE entities SET updated_at = ? WHERE id IN ({IDS})", (self.now, json.dumps(ids)))


class GraphWrites:
    """The writes of ``SqliteGraphStore`` (which provides ``db`` and the ``vector_cache`` that
    deletions drop vectors from)."""

    db: Database
    vector_cache: VectorCache

    @contextmanager
    def _writes(self, actor: str) -> Iterator[SqliteWrites]:
        now = self.db.now()
        with self.db.write() as conn:
            yield SqliteWrites(conn, actor, now, self.vector_cache)

    def _official(self, actor: str, rule: Callable[[SqliteWrites], T]) -> T:
        with self._writes(actor) as w:
            return rule(w)

    def create_entities(
        self, entities: Sequence[EntityInput], actor: str
    ) -> tuple[list[Entity], list[AddedObservations]]:
        """Create new entities; merge observations into existing ones. Returns (created, merged)."""
        return self._official(actor, lambda w: rules.create_entities(w, entities))

    def add_observations(self, items: Sequence[ObservationInput], actor: str) -> list[AddedObservations]:
        """Add observations to existing entities; unknown entity → NotFound, nothing changed."""
        return self._official(actor, lambda w: rules.add_observations(w, items))

    def delete_entities(self, names: Sequence[str], actor: str) -> int:
        """Delete entities with their observations, relations, vectors and index rows (unknown names ignored)."""
        return self._official(actor, lambda w: rules.delete_entities(w, names))

    def delete_observations(self, items: Sequence[ObservationDeletion], actor: str) -> int:
        """Remove the given observations; unknown entities or texts are ignored. Returns count."""
        return self._official(actor, lambda w: rules.delete_observations(w, items))

    def create_relations(
        self, relations: Sequence[Relation], actor: str, *, placeholders: bool = True
    ) -> list[Relation]:
        """Create relations; returns only the new ones (a missing end: ``core.graph_writes.create_relations``)."""
        return self._official(actor, lambda w: rules.create_relations(w, relations, placeholders=placeholders))

    def delete_relations(self, relations: Sequence[Relation], actor: str) -> int:
        """Delete the given relations; ones that do not exist are ignored. Returns count."""
        return self._official(actor, lambda w: rules.delete_relations(w, relations))

    def merge_node(self, label: str, name: str, props: dict[str, Any], actor: str) -> Node:
        """Create the node or merge ``props`` into it (``core.graph_writes.merge_node``)."""
        return self._official(actor, lambda w: rules.merge_node(w, label, name, props))

    def archive_node(self, name: str, actor: str) -> bool:
        """Mark the node archived (kept and readable, left out of searches). Idempotent."""
        return self._official(actor, lambda w: rules.archive_node(w, name))
