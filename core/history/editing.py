"""The single edits, one editor Save and the undo of a change as a store offers them, written once
for every backend.

A store mixes ``EditingRules`` in and supplies two hooks: ``_edit`` runs a rule on one
``undo.EditSession`` as one write, and ``_change_log`` reads the change_log outside a write. The
rules themselves (refusals, change_log rows) are ``core.history.undo``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

from core.errors import NotFound
from core.history import undo as rules
from core.model import Change, EntityPlan, Node, Relation

T = TypeVar("T")


class ChangeLog(rules.ChangeReads, Protocol):
    """The change_log reads undo needs, and one row by id."""

    def change(self, change_id: int) -> Change | None: ...


class EditingRules:
    """The editing half of a graph store, over its ``_edit`` and ``_change_log``."""

    def _edit(self, work: Callable[[rules.EditSession], T], actor: str) -> T:
        """``work`` on one edit session, all or nothing, as one write by ``actor``."""
        raise NotImplementedError

    def _change_log(self) -> AbstractContextManager[ChangeLog]:
        """The change_log, read consistently (outside any write)."""
        raise NotImplementedError

    get_node: Callable[[str], Node | None]  # the store's

    def restore_entity(self, name: str, actor: str) -> Node:
        """Undo the latest deletion of ``name`` from its change_log snapshot: the entity with its type, props,
        timestamps and observations, and its relations to entities that still exist (an undo of the deletion)."""
        self._edit(lambda s: s.restore_entity(name), actor)
        node = self.get_node(name)
        assert node is not None  # just restored
        return node

    def rename_entity(self, old: str, new: str, actor: str) -> bool:
        """Rename ``old`` to ``new``; relations, observations and history stay with it (a taken name → Conflict)."""
        return self._edit(lambda s: rules.rename_entity(s, old, new), actor)

    def set_entity_type(self, name: str, entity_type: str, actor: str) -> bool:
        """Change the entity's type (Engrama's label)."""
        return self._edit(lambda s: rules.set_entity_type(s, name, entity_type), actor)

    def replace_observation(self, name: str, old: str, new: str, actor: str) -> bool:
        """Edit one observation in place (it keeps its place in the list and its created_at)."""
        return self._edit(lambda s: rules.replace_observation(s, name, old, new), actor)

    def end_relation(self, from_name: str, to_name: str, rel_type: str, ended_at: str | None, actor: str) -> bool:
        """End a current relation at ``ended_at`` (default now); it stays, no longer current."""
        return self._edit(lambda s: rules.set_relation_end(s, from_name, to_name, rel_type, ended_at or s.now), actor)

    def merge_relation(self, from_name: str, rel_type: str, to_name: str, props: dict[str, Any] | None,
                       actor: str) -> tuple[Relation, bool]:
        """Create the relation if missing, merge ``props`` into it (``undo.merge_relation``); (relation, created)."""
        rel = Relation(**{"from": from_name, "to": to_name, "relationType": rel_type})
        return rel, self._edit(lambda s: rules.merge_relation(s, from_name, rel_type, to_name, props), actor)

    def save_entity(self, name: str, plan: EntityPlan, expected_version: int | None, actor: str) -> int | None:
        """One editor Save, all or nothing (see ``core.history.undo.save_entity``)."""
        return self._edit(lambda s: rules.save_entity(s, name, plan, expected_version), actor)

    def undo_change(self, change_id: int | None, entity: str | None, by: str | None, actor: str) -> Change:
        """Undo change ``change_id`` (default: the newest undoable one); returns the undo row."""
        def work(s: rules.EditSession) -> int:
            row = rules.undoable(s, entity, by) if change_id is None else s.change(change_id)
            if row is None:
                raise NotFound("There is no change left to undo. Nothing was changed." if change_id is None
                               else f"There is no change #{change_id}. Nothing was changed.")
            return rules.undo(s, row)

        undo_id = self._edit(work, actor)
        with self._change_log() as log:
            found = log.change(undo_id)
        assert found is not None  # just written
        return found

    def undoable_change(self, entity: str | None, by: str | None) -> Change | None:
        """The change ``undo_change`` with the same filters would take back, or None."""
        with self._change_log() as log:
            return rules.undoable(log, entity, by)
