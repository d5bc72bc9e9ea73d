"""The editing rules' session on a Cypher server (``core.history.undo.EditSession``): the reads
and single writes of one editor Save, one undo or one single edit, gathered in one ``work.Work``
and sent as one atomic write. The rules, refusals and change_log rows are
``core.history.undo``'s, so history, time travel and the desktop read them alike on every backend."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import errors, graph_writes
from core.history import undo as rules
from core.history.session import LoggedSession
from core.model import GROUP_OPS, Change, Relation
from core.storage.cypher import fact_vectors, work
from core.storage.cypher import rows as R
from core.storage.cypher.history import CHANGE, change_dicts
from core.storage.cypher.insights import insight_state, set_insight_state
from core.storage.cypher.seams import Reader
from core.storage.cypher.work import Work

Row = dict[str, Any]  # an entity or relation row as ``work.Work`` holds it


class ChangeReads:
    """``core.history.undo.ChangeReads`` over a dialect or a write transaction."""

    def __init__(self, reader: Reader) -> None:
        self.reader = reader

    def latest_change_id(self) -> int:
        found = self.reader.read("MATCH (c:Counter {name: 'change'}) RETURN c.value")
        return int(found[0][0]) if found else 0

    def groups_after(self, floor: int) -> list[tuple[str, dict[str, Any]]]:
        return [(op, R.loads(after)) for op, after in self.reader.read(
            "MATCH (c:Change) WHERE c.id > $f AND c.op IN $groups RETURN c.op, c.after",
            {"f": floor, "groups": list(GROUP_OPS)})]

    def page(self, top: int, bottom: int) -> list[Change]:
        return change_dicts(self.reader.read(f"MATCH (c:Change) WHERE c.id <= $top AND c.id > $bottom "
                                             f"RETURN {CHANGE} ORDER BY c.id DESC", {"top": top, "bottom": bottom}))

    def change(self, change_id: int) -> Change | None:
        found = change_dicts(self.reader.read(f"MATCH (c:Change {{id: $i}}) RETURN {CHANGE}", {"i": change_id}))
        return found[0] if found else None

    def changes_after(self, change_id: int, op: str | None = None) -> list[Change]:
        return change_dicts(self.reader.read(
            f"MATCH (c:Change) WHERE c.id > $i AND ($op IS NULL OR c.op = $op) RETURN {CHANGE} ORDER BY c.id",
            {"i": change_id, "op": op}))


def last_deletion(reader: Reader, name: str) -> Change | None:
    """The newest delete_entity row about ``name``."""
    found = change_dicts(reader.read(f"MATCH (c:Change {{entity: $n}}) WHERE c.op = 'delete_entity' "
                                     f"RETURN {CHANGE} ORDER BY c.id DESC LIMIT 1", {"n": name}))
    return found[0] if found else None


class Session(ChangeReads, LoggedSession):
    """``core.history.undo.EditSession`` over one ``Work`` (the logged writes are ``LoggedSession``'s;
    this supplies the reads and bare writes)."""

    def __init__(self, w: Work) -> None:
        super().__init__(w.tx)
        self.w, self.now = w, w.now
        self._finished: tuple[int | None] | None = None
        self._insights: dict[str, rules.InsightState] = {}  # set by this write (its writes wait for the commit)

    def _row(self, name: str) -> Row:
        row = self.w.find(name)
        if row is None:
            raise errors.no_entity(name, write=True)
        return row

    def entity(self, name: str) -> rules.EntityState | None:
        row = self.w.find(name)
        return None if row is None else rules.EntityState(name, row["type"], dict(row["props"]), list(row["obs"]),
                                                          row["archived_at"] is not None)

    def _ends(self, src: str, dst: str) -> tuple[Row, Row]:
        a, b = self.w.find(src), self.w.find(dst)
        if a is None or b is None:
            raise errors.no_entity(src if a is None else dst, write=True)
        return a, b

    def _rel(self, src: str, dst: str, rtype: str) -> Row | None:
        a, b = self.w.find(src), self.w.find(dst)
        return None if a is None or b is None else self.w.relation(a, b, rtype)

    def relation(self, src: str, dst: str, rtype: str) -> rules.RelationState | None:
        rel = self._rel(src, dst, rtype)
        return None if rel is None else rules.RelationState(rel["created_at"], rel["ended_at"], dict(rel["props"]))

    def last_entity(self) -> str | None:
        return self.w.log[-1][3] if self.w.log else None

    def last_deletion(self, name: str) -> Change | None:
        return last_deletion(self.w.tx, name)

    def insight(self, title: str) -> rules.InsightState | None:
        if title in self._insights:
            return self._insights[title]
        return insight_state(self.w.tx, title)

    # -- writes -------------------------------------------------------------------------------

    def log(self, op: str, entity: str | None, before: Any = None, after: Any = None) -> None:
        self.w.record(op, entity, before, after)

    def write_entity(self, name: str, entity_type: str) -> None:
        self.w.create(name, entity_type)

    def write_restored(self, name: str, snap: dict[str, Any]) -> None:
        self.w.create(name, snap["entityType"], props=snap["props"], created_at=snap["created_at"],
                      observations=[(o, t) for o, t in snap["observations"]], archived_at=snap["archived_at"])

    def write_restored_relation(self, rel: dict[str, Any]) -> None:
        a, b = self._ends(rel["from"], rel["to"])
        self.w.add_relation(a, b, rel["relationType"], props=rel["props"], ended_at=rel["ended_at"],
                            created_at=rel["created_at"])

    def delete_entity(self, name: str) -> None:
        graph_writes.log_deleted_entity(self.log, name, self.w.delete(self._row(name)))

    def add_observations(self, name: str, contents: list[str]) -> None:
        work.add_observations(self.w, self._row(name), contents)

    def delete_observations(self, name: str, contents: list[str]) -> None:
        work.delete_observations(self.w, self._row(name), contents)

    def write_observation(self, name: str, old: str, new: str) -> str:
        row = self._row(name)
        k = row["obs"].index(old)
        row["obs"] = [*row["obs"][:k], new, *row["obs"][k + 1:]]
        self.w.touch(row)
        return str(row["obs_at"][k])

    def write_type(self, name: str, entity_type: str) -> str:
        row = self._row(name)
        old, row["type"] = str(row["type"]), entity_type
        self.w.touch(row)
        return old

    def write_name(self, old: str, new: str) -> None:
        self.w.rename(self._row(old), new)

    def facts_due(self, name: str) -> None:
        fact_vectors.due_of(self.w.tx, [self._row(name)["id"]])

    def write_state(self, name: str, entity_type: str, props: dict[str, Any]) -> None:
        row = self._row(name)
        row["type"], row["props"] = entity_type, props
        self.w.touch(row)

    def write_archived(self, name: str, archived: bool) -> None:
        row = self._row(name)
        row["archived_at"] = self.now if archived else None
        self.w.touch(row)

    def create_relations(self, relations: Sequence[Relation]) -> None:
        for rel in R.unique_relations(relations):
            work.create_relation(self.w, rel.from_, rel.to, rel.relationType)

    def delete_relations(self, relations: Sequence[Relation]) -> None:
        for rel in R.unique_relations(relations):
            found = self._rel(rel.from_, rel.to, rel.relationType)
            if found is None:
                continue
            self.w.delete_relation(*self._ends(rel.from_, rel.to), rel.relationType)
            graph_writes.log_deleted_relation(self.log, graph_writes.relation_snapshot(
                rel.from_, rel.to, rel.relationType, found["props"], found["created_at"], found["ended_at"]))

    def write_relation_end(self, src: str, dst: str, rtype: str, ended_at: str | None) -> None:
        self.w.set_relation(*self._ends(src, dst), rtype, ended_at=ended_at)

    def set_relation_state(self, src: str, dst: str, rtype: str, props: dict[str, Any], ended_at: str | None) -> None:
        self.w.set_relation(*self._ends(src, dst), rtype, props=props, ended_at=ended_at)

    def write_insight(self, title: str, state: rules.InsightState) -> None:
        set_insight_state(self.w.tx, title, state, self.now)
        self._insights[title] = state

    def finish(self, group: str | None, entity: str | None = None,
               extra: dict[str, Any] | None = None) -> int | None:
        if self._finished is None:  # once: the rows are queued on the first call
            self._finished = (self.w.commit(group, entity, extra),)
        return self._finished[0]
