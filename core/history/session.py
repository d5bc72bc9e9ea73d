"""The single writes of an edit session and the change_log row each records, once for every backend.

A backend's session (``core.history.undo.EditSession``) subclasses ``LoggedSession`` and supplies
its reads and the bare writes (``write_*``, ``log``); the row shapes (see ``core.history.undo``)
and restoring an entity from its deletion snapshot are written here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from core import errors
from core.history.undo import EntityState, InsightState, RelationState
from core.model import Change


class LoggedSession(ABC):
    """The logged writes of ``EditSession`` over a backend's reads and bare writes: ``log`` records one
    change_log row in this write; ``write_observation`` returns the observation's created_at and
    ``write_type`` the type the entity had; ``write_state`` sets type and props; ``write_insight``
    the review fields and whether the entity is archived; ``write_restored`` brings the entity back
    from a deletion snapshot (type, props, created_at, archived_at, observations) and
    ``write_restored_relation`` one relation of it (props, created_at, ended_at; both ends exist);
    ``write_archived`` archives the existing entity now or takes its mark away."""

    now: str

    @abstractmethod
    def log(self, op: str, entity: str | None, before: Any = None, after: Any = None) -> None: ...
    @abstractmethod
    def entity(self, name: str) -> EntityState | None: ...
    @abstractmethod
    def relation(self, src: str, dst: str, rtype: str) -> RelationState | None: ...
    @abstractmethod
    def insight(self, title: str) -> InsightState | None: ...
    @abstractmethod
    def last_deletion(self, name: str) -> Change | None: ...
    @abstractmethod
    def write_entity(self, name: str, entity_type: str) -> None: ...
    @abstractmethod
    def write_observation(self, name: str, old: str, new: str) -> str: ...
    @abstractmethod
    def write_type(self, name: str, entity_type: str) -> str: ...
    @abstractmethod
    def write_name(self, old: str, new: str) -> None: ...
    @abstractmethod
    def write_state(self, name: str, entity_type: str, props: dict[str, Any]) -> None: ...
    @abstractmethod
    def write_relation_end(self, src: str, dst: str, rtype: str, ended_at: str | None) -> None: ...
    @abstractmethod
    def set_relation_state(self, src: str, dst: str, rtype: str, props: dict[str, Any],
                           ended_at: str | None) -> None: ...
    @abstractmethod
    def write_insight(self, title: str, state: InsightState) -> None: ...
    @abstractmethod
    def write_restored(self, name: str, snap: dict[str, Any]) -> None: ...
    @abstractmethod
    def write_restored_relation(self, rel: dict[str, Any]) -> None: ...
    @abstractmethod
    def write_archived(self, name: str, archived: bool) -> None: ...

    # -- the logged writes -------------------------------------------------------------------------

    def create_entity(self, name: str, entity_type: str) -> None:
        self.write_entity(name, entity_type)
        self.log("create_entity", name)

    def replace_observation(self, name: str, old: str, new: str) -> None:
        created = self.write_observation(name, old, new)
        self.log("replace_observation", name, {"observation": old, "created_at": created}, {"observation": new})

    def set_entity_type(self, name: str, entity_type: str) -> None:
        old = self.write_type(name, entity_type)
        self.log("set_entity_type", name, {"entityType": old}, {"entityType": entity_type})

    def rename_entity(self, old: str, new: str) -> None:
        self.write_name(old, new)
        self.log("rename_entity", new, {"name": old}, {"name": new})

    def update_entity(self, name: str, before: dict[str, Any], after: dict[str, Any]) -> None:
        self.write_state(name, after["entityType"], after["props"])
        self.log("update_entity", name, before, after)

    def set_archived(self, name: str, archived: bool) -> None:
        state = self.entity(name)
        if state is None:
            raise errors.no_entity(name, write=True)
        if archived and state.archived:
            return  # archived already: as archive_node, no change and no row
        self.write_archived(name, archived)
        self.log("archive_entity" if archived else "unarchive_entity", name)

    def set_relation_end(self, src: str, dst: str, rtype: str, ended_at: str | None) -> None:
        rel = self.relation(src, dst, rtype)
        assert rel is not None  # the rules checked it exists
        self.write_relation_end(src, dst, rtype, ended_at)
        snap = {"from": src, "to": dst, "relationType": rtype, "created_at": rel.created_at}
        self.log("end_relation" if ended_at is not None else "reopen_relation", src,
                 {**snap, "ended_at": rel.ended_at}, {**snap, "ended_at": ended_at})

    def set_relation_props(self, src: str, dst: str, rtype: str, props: dict[str, Any]) -> None:
        rel = self.relation(src, dst, rtype)
        assert rel is not None  # the rules checked it exists
        self.set_relation_state(src, dst, rtype, props, rel.ended_at)
        snap = {"from": src, "to": dst, "relationType": rtype}
        self.log("update_relation", src, {**snap, "props": rel.props}, {**snap, "props": props})

    def set_insight(self, title: str, state: InsightState, note: dict[str, Any] | None = None) -> None:
        before = self.insight(title)
        self.write_insight(title, state)
        self.log("decide_insight", title, before.as_dict() if before else None, {**state.as_dict(), **(note or {})})

    def restore_entity(self, name: str) -> None:
        """Back from its latest deletion snapshot, with its relations to entities that still exist."""
        if self.entity(name) is not None:
            raise errors.not_deleted(name)
        deletion = self.last_deletion(name)
        if deletion is None:
            raise errors.no_deletion(name)
        snap = deletion.before
        self.write_restored(name, snap)
        alive: dict[str, bool] = {name: True}
        restored = 0
        for rel in snap["relations"]:
            for end in (rel["from"], rel["to"]):
                if end not in alive:
                    alive[end] = self.entity(end) is not None
            if alive[rel["from"]] and alive[rel["to"]] and \
                    self.relation(rel["from"], rel["to"], rel["relationType"]) is None:
                self.write_restored_relation(rel)
                restored += 1
        self.log("restore_entity", name, {"deleted_at": deletion.at}, {"relations": restored})
