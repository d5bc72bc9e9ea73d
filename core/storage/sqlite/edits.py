"""Editing one entity in SQLite: the reads and single writes that the editing rules
(``core.history.undo``: rename, retype, one observation, ending a relation, one editor Save,
undo of any change_log row) run on, and the editor's reads.

Every write runs inside the caller's transaction (the store holds its lock and an ``atomic``
block) and records its change_log row in the shapes ``core.history.undo`` lists.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from core import errors
from core.history import undo as rules
from core.history.changes import entity_history, needs_group
from core.history.editing import EditingRules
from core.history.session import LoggedSession
from core.model import GROUP_OPS, RELATION_OPS, Change, ObservationDeletion, ObservationInput, Relation
from core.storage.sqlite import embedding_state, fact_vectors, history, indexing, insights, reads
from core.storage.sqlite import touched as touch
from core.storage.sqlite.connection import Connection

if TYPE_CHECKING:
    from core.protocols import GraphStore
    from core.storage.sqlite.database import Database

Row = Change
T = TypeVar("T")


def _rows(conn: Connection, where: str, args: Sequence[Any]) -> list[Change]:
    return [Change.decode(*r) for r in conn.execute(
        f"SELECT id, at, actor, op, entity, before, after FROM change_log WHERE {where}", args)]


class ChangeReads:
    """``core.history.undo.ChangeReads`` over one connection."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def latest_change_id(self) -> int:
        return history.latest_change_id(self.conn)

    def groups_after(self, floor: int) -> list[tuple[str, dict[str, Any]]]:
        return [(op, json.loads(after)) for op, after in self.conn.execute(
            "SELECT op, after FROM change_log WHERE id > ? AND op IN (SELECT value FROM json_each(?))",
            (floor, json.dumps(GROUP_OPS)))]

    def page(self, top: int, bottom: int) -> list[Row]:
        return _rows(self.conn, "id <= ? AND id > ? ORDER BY id DESC", [top, bottom])

    def change(self, change_id: int) -> Row | None:
        found = _rows(self.conn, "id = ?", [change_id])
        return found[0] if found else None

    def changes_after(self, change_id: int, op: str | None = None) -> list[Row]:
        if op is None:
            return _rows(self.conn, "id > ? ORDER BY id", [change_id])
        return _rows(self.conn, "id > ? AND op = ? ORDER BY id", [change_id, op])


class Session(ChangeReads, LoggedSession):
    """``core.history.undo.EditSession`` inside one SQLite write transaction (the logged writes are
    ``LoggedSession``'s; this supplies the reads and bare writes)."""

    def __init__(self, store: GraphStore, conn: Connection, actor: str, now: str) -> None:
        super().__init__(conn)
        self.store, self.actor, self.now = store, actor, now
        self.start = history.latest_change_id(conn)

    # -- reads --------------------------------------------------------------------------------

    def _id(self, name: str) -> int:
        row = self.conn.execute("SELECT id FROM entities WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise errors.no_entity(name, write=True)
        return int(row[0])

    def entity(self, name: str) -> rules.EntityState | None:
        row = self.conn.execute("SELECT id, entity_type, props, archived_at FROM entities WHERE name = ?",
                                (name,)).fetchone()
        if row is None:
            return None
        return rules.EntityState(name, row[1], json.loads(row[2]), reads.observations_of(self.conn, [row[0]])[row[0]],
                                 row[3] is not None)

    def relation(self, src: str, dst: str, rtype: str) -> rules.RelationState | None:
        found = self.conn.execute(
            "SELECT r.created_at, r.ended_at, r.props FROM relations r JOIN entities f ON f.id = r.from_entity "
            "JOIN entities t ON t.id = r.to_entity WHERE f.name = ? AND t.name = ? AND r.relation_type = ?",
            (src, dst, rtype)).fetchone()
        return None if found is None else rules.RelationState(found[0], found[1], json.loads(found[2]))

    def last_entity(self) -> str | None:
        row = self.conn.execute("SELECT entity FROM change_log WHERE id > ? ORDER BY id DESC LIMIT 1",
                                (self.start,)).fetchone()
        return row[0] if row else None

    def last_deletion(self, name: str) -> Change | None:
        return last_deletion(self.conn, name)

    def insight(self, title: str) -> rules.InsightState | None:
        return insights.insight_state(self.conn, title)

    # -- writes -------------------------------------------------------------------------------

    def log(self, op: str, entity: str | None, before: Any = None, after: Any = None) -> None:
        history.write(self.conn, [(self.now, self.actor, op, entity, history.dumps(before), history.dumps(after))])

    def _touch(self, eid: int, *, neighbours: bool = False) -> None:
        """The entity's text changed: move updated_at, rewrite its index rows, mark vectors stale."""
        self.conn.execute("UPDATE entities SET updated_at = ? WHERE id = ?", (self.now, eid))
        indexing.reindex(self.conn, [eid])
        # Neighbours' embedding texts name this entity in their "Rel:" lines.
        near = [r[0] for r in self.conn.execute(
            "SELECT to_entity FROM relations WHERE from_entity = ? UNION SELECT from_entity FROM relations "
            "WHERE to_entity = ?", (eid, eid))] if neighbours else []
        embedding_state.invalidate(self.conn, [eid, *near])

    def write_entity(self, name: str, entity_type: str) -> None:
        eid = self.conn.execute(
            "INSERT INTO entities(name, entity_type, created_at, updated_at) VALUES (?, ?, ?, ?)",
            (name, entity_type, self.now, self.now)).lastrowid
        assert eid is not None  # just inserted
        touch.created(self.conn, [eid])

    def write_restored(self, name: str, snap: dict[str, Any]) -> None:
        eid = self.conn.execute(
            "INSERT INTO entities(name, entity_type, props, created_at, updated_at, archived_at) "
            "VALUES (?, ?, ?, ?, ?, ?)", (name, snap["entityType"], json.dumps(snap["props"], ensure_ascii=False),
                                          snap["created_at"], self.now, snap["archived_at"])).lastrowid
        assert eid is not None  # just inserted
        self.conn.executemany("INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)",
                              [(eid, content, created) for content, created in snap["observations"]])
        touch.created(self.conn, [eid])

    def write_restored_relation(self, rel: dict[str, Any]) -> None:
        ids = reads.ids_by_name(self.conn, [rel["from"], rel["to"]])
        self.conn.execute(
            "INSERT INTO relations(from_entity, to_entity, relation_type, props, created_at, ended_at) "
            "VALUES (?, ?, ?, ?, ?, ?)", (ids[rel["from"]], ids[rel["to"]], rel["relationType"],
                                          json.dumps(rel["props"], ensure_ascii=False), rel["created_at"],
                                          rel["ended_at"]))
        touch.relinked(self.conn, list(ids.values()))

    def delete_entity(self, name: str) -> None:
        self.store.delete_entities([name], self.actor)

    def add_observations(self, name: str, contents: list[str]) -> None:
        self.store.add_observations([ObservationInput(entityName=name, contents=contents)], self.actor)

    def delete_observations(self, name: str, contents: list[str]) -> None:
        self.store.delete_observations([ObservationDeletion(entityName=name, observations=contents)], self.actor)

    def write_observation(self, name: str, old: str, new: str) -> str:
        eid = self._id(name)
        oid, created = self.conn.execute("SELECT id, created_at FROM observations WHERE entity_id = ? AND content = ?",
                                         (eid, old)).fetchone()
        self.conn.execute("UPDATE observations SET content = ? WHERE id = ?", (new, oid))
        self._touch(eid)
        return str(created)

    def write_type(self, name: str, entity_type: str) -> str:
        eid = self._id(name)
        old = str(self.conn.execute("SELECT entity_type FROM entities WHERE id = ?", (eid,)).fetchone()[0])
        self.conn.execute("UPDATE entities SET entity_type = ? WHERE id = ?", (entity_type, eid))
        self._touch(eid)
        return old

    def write_name(self, old: str, new: str) -> None:
        eid = self._id(old)
        self.conn.execute("UPDATE entities SET name = ? WHERE id = ?", (new, eid))
        self._touch(eid, neighbours=True)

    def facts_due(self, name: str) -> None:
        fact_vectors.due_of(self.conn, [self._id(name)])

    def write_state(self, name: str, entity_type: str, props: dict[str, Any]) -> None:
        eid = self._id(name)
        self.conn.execute("UPDATE entities SET entity_type = ?, props = ? WHERE id = ?",
                          (entity_type, json.dumps(props, ensure_ascii=False), eid))
        self._touch(eid)

    def write_archived(self, name: str, archived: bool) -> None:
        self.conn.execute("UPDATE entities SET archived_at = ?, updated_at = ? WHERE id = ?",
                          (self.now if archived else None, self.now, self._id(name)))

    def create_relations(self, relations: Sequence[Relation]) -> None:
        self.store.create_relations(relations, self.actor)

    def delete_relations(self, relations: Sequence[Relation]) -> None:
        self.store.delete_relations(relations, self.actor)

    _BETWEEN = ("WHERE from_entity = (SELECT id FROM entities WHERE name = ?) "
                "AND to_entity = (SELECT id FROM entities WHERE name = ?) AND relation_type = ?")

    def write_relation_end(self, src: str, dst: str, rtype: str, ended_at: str | None) -> None:
        self.conn.execute(f"UPDATE relations SET ended_at = ? {self._BETWEEN}", (ended_at, src, dst, rtype))
        # Only current relations are in the ends' embedded text.
        embedding_state.invalidate(self.conn, list(reads.ids_by_name(self.conn, [src, dst]).values()))

    def set_relation_state(self, src: str, dst: str, rtype: str, props: dict[str, Any], ended_at: str | None) -> None:
        self.conn.execute(f"UPDATE relations SET props = ?, ended_at = ? {self._BETWEEN}",
                          (json.dumps(props, ensure_ascii=False), ended_at, src, dst, rtype))

    def write_insight(self, title: str, state: rules.InsightState) -> None:
        insights.set_insight_state(self.conn, title, state, self.now)

    def finish(self, group: str | None, entity: str | None = None,
               extra: dict[str, Any] | None = None) -> int | None:
        ids = [r[0] for r in self.conn.execute("SELECT id FROM change_log WHERE id > ? ORDER BY id", (self.start,))]
        if group is None or not needs_group(group, len(ids)):
            return ids[-1] if ids else None
        self.log(group, entity, None, {**(extra or {}), "rows": ids})
        return history.latest_change_id(self.conn)


# -- reads for the editor --------------------------------------------------------------------

def relations_of(conn: Connection, eid: int) -> list[dict[str, Any]]:
    """Every relation touching the entity, ended ones included, oldest first."""
    rows = conn.execute(
        "SELECT r.id, f.name, t.name, r.relation_type, r.props, r.created_at, r.ended_at FROM relations r "
        "JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity "
        "WHERE r.from_entity = ? OR r.to_entity = ? ORDER BY r.id", (eid, eid)).fetchall()
    return [{"from": s, "to": d, "relationType": t, "props": json.loads(p), "created_at": c, "ended_at": e}
            for _, s, d, t, p, c, e in rows]


def relation_type_counts(conn: Connection) -> dict[str, int]:
    """How many relations of each type there are, most used first."""
    return dict(conn.execute(
        "SELECT relation_type, count(*) FROM relations GROUP BY relation_type ORDER BY 2 DESC, 1"))


class HistoryReads:
    """``core.history.changes.HistoryReads`` over one connection."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def last_rename(self, name: str, at_most: int) -> tuple[int, str] | None:
        found = self.conn.execute("SELECT id, before FROM change_log WHERE entity = ? AND op = 'rename_entity' "
                                  "AND id <= ? ORDER BY id DESC LIMIT 1", (name, at_most)).fetchone()
        return None if found is None else (found[0], json.loads(found[1])["name"])

    def about(self, names: list[str], limit: int) -> list[Change]:
        marks = ",".join("?" * len(names))
        own = _rows(self.conn, f"entity IN ({marks}) ORDER BY id DESC LIMIT ?", [*names, limit * 2])
        # No index reaches into the JSON: a plain substring test on the quoted name skips nearly every
        # row before JSON is parsed (``entity_history`` checks the rows it lets through exactly).
        quoted = [json.dumps(n, ensure_ascii=False) for n in names]
        found = " OR ".join(["instr(coalesce(after, before), ?) > 0"] * len(quoted))
        return [*own, *_rows(
            self.conn, f"({found}) AND op IN ({','.join('?' * len(RELATION_OPS))}) AND entity NOT IN ({marks}) "
            "ORDER BY id DESC LIMIT ?", [*quoted, *RELATION_OPS, *names, limit * 4])]


def last_deletion(conn: Connection, name: str) -> Change | None:
    """The newest delete_entity row for ``name`` if no entity has that name now, else None."""
    if conn.execute("SELECT 1 FROM entities WHERE name = ?", (name,)).fetchone():
        return None
    found = _rows(conn, "entity = ? AND op = 'delete_entity' ORDER BY id DESC LIMIT 1", [name])
    return found[0] if found else None


class EditsMixin(EditingRules):
    """The editor's reads of ``SqliteGraphStore`` (which provides ``db``, and the writes a Save or an
    undo is made of), and the hooks the editing rules (``EditingRules``) run on."""

    db: Database

    def _edit(self, work: Callable[[Session], T], actor: str) -> T:
        with self.db.write() as conn:
            return work(Session(self, conn, actor, self.db.now()))  # type: ignore[arg-type]  # the mixin is a store

    def run_edit(self, work: Callable[[Session], T], actor: str) -> T:
        """``work`` on one ``core.history.undo.EditSession``: one atomic write (it ends with ``finish``)."""
        return self._edit(work, actor)

    @contextlib.contextmanager
    def _change_log(self) -> Iterator[ChangeReads]:
        with self.db.locked() as conn:
            yield ChangeReads(conn)

    def entity_for_edit(self, name: str) -> dict[str, Any]:
        """The entity, every relation touching it (ended ones too), and the change_log id it was read at."""
        with self.db.snapshot() as conn:
            ids = reads.ids_by_name(conn, [name])
            if not ids:
                raise errors.no_entity(name)
            node = reads.nodes(conn, [ids[name]])[0]
            return {"node": node, "relations": relations_of(conn, ids[name]),
                    "version": history.latest_change_id(conn)}

    def entity_history(self, name: str, *, limit: int = 100) -> list[Change]:
        with self.db.locked() as conn:
            return entity_history(HistoryReads(conn), name, limit)

    def last_deletion(self, name: str) -> Change | None:
        with self.db.locked() as conn:
            return last_deletion(conn, name)

    def relation_type_counts(self) -> dict[str, int]:
        with self.db.locked() as conn:
            return relation_type_counts(conn)
