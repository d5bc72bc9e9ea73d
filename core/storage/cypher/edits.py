"""Editing one entity on a Cypher server: rename, type, one observation, ending a relation (the
rules are ``core.storage.undo``'s, run on a ``cypher.undo.Session``), and the editor's reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from core.errors import NotFound
from core.model import Change
from core.storage import undo as rules
from core.storage.cypher import rows as R
from core.storage.cypher.history import CHANGE, change_dicts
from core.storage.cypher.undo import Session
from core.storage.cypher.work import Work

T = TypeVar("T")


class EditsMixin:
    """The single edits of ``CypherGraphStore`` (it provides ``write``, ``now`` …)."""

    db: Any

    def _edit(self, work: Callable[[Session], T], actor: str) -> T:
        """``work`` on one session, sent as one atomic write; a single edit's rows need no group."""
        now = self.now()  # type: ignore[attr-defined]

        def write(tx: Any) -> T:
            session = Session(Work(tx, actor, now))
            result = work(session)
            session.finish(None)  # an undo or a Save has written its group already: nothing left
            return result

        done: T = self.write(write)  # type: ignore[attr-defined]
        return done

    def run_edit(self, work: Callable[[Session], T], actor: str) -> T:
        """``work`` on one ``core.storage.undo.EditSession``, sent as one atomic write (no graph copy)."""
        return self._edit(work, actor)

    def rename_entity(self, old: str, new: str, actor: str) -> bool:
        """Rename ``old`` to ``new``; relations, observations and history stay with it."""
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

    # -- reads for the editor --------------------------------------------------------------------

    def entity_for_edit(self, name: str) -> dict[str, Any]:
        """The entity, every relation touching it (ended ones too), and the change_log id it was read at."""
        version = self.latest_change_id()  # type: ignore[attr-defined]  # first: a later write shows as a conflict
        row = self._rows_by_name(self.db, [name]).get(name)  # type: ignore[attr-defined]
        if row is None:
            raise NotFound(f"Entity {name!r} does not exist.")
        snaps = self._relation_snaps(self.db, [row["id"]])[row["id"]]  # type: ignore[attr-defined]
        return {"node": R.node(row), "relations": snaps, "version": version}

    def last_deletion(self, name: str) -> Change | None:
        """The newest delete_entity row for ``name`` if no entity has that name now, else None."""
        if self.db.read("MATCH (e:Entity {name: $n}) RETURN e.id", {"n": name}):
            return None
        found = change_dicts(self.db.read(f"MATCH (c:Change {{entity: $n}}) WHERE c.op = 'delete_entity' "
                                          f"RETURN {CHANGE} ORDER BY c.id DESC LIMIT 1", {"n": name}))
        return found[0] if found else None
