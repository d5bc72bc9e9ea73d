"""Editing on a Cypher server: the session the editing rules (``core.history.editing``) run on,
one ``cypher.undo.Session`` per write, and the editor's reads."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from core import errors
from core.history.editing import EditingRules
from core.model import Change
from core.storage.cypher import rows as R
from core.storage.cypher.seams import Graph
from core.storage.cypher.undo import ChangeReads, Session, last_deletion
from core.storage.cypher.work import Work

T = TypeVar("T")


class EditsMixin(EditingRules):
    """The editor's reads of ``CypherGraphStore``, and the hooks the editing rules (``EditingRules``)
    run on; what they use of the store is ``seams.Graph``."""

    def _edit(self: Graph, work: Callable[[Session], T], actor: str) -> T:
        """``work`` on one session, sent as one atomic write; a single edit's rows need no group."""
        now = self.now()

        def write(tx: Any) -> T:
            session = Session(Work(tx, actor, now))
            result = work(session)
            session.finish(None)  # an undo or a Save has written its group already: nothing left
            return result

        return self.write(write)

    def run_edit(self: Graph, work: Callable[[Session], T], actor: str) -> T:
        """``work`` on one ``core.history.undo.EditSession``, sent as one atomic write (no graph copy)."""
        return EditsMixin._edit(self, work, actor)

    @contextlib.contextmanager
    def _change_log(self: Graph) -> Iterator[ChangeReads]:
        yield ChangeReads(self.db)  # the server answers each read whole: nothing to hold

    # -- reads for the editor --------------------------------------------------------------------

    def entity_for_edit(self: Graph, name: str) -> dict[str, Any]:
        """The entity, every relation touching it (ended ones too), and the change_log id it was read at."""
        version = self.latest_change_id()  # first: a later write shows as a conflict
        row = self.rows_by_name(self.db, [name]).get(name)
        if row is None:
            raise errors.no_entity(name)
        snaps = self.relation_snaps(self.db, [row["id"]])[row["id"]]
        return {"node": R.node(row), "relations": snaps, "version": version}

    def last_deletion(self: Graph, name: str) -> Change | None:
        """The newest delete_entity row for ``name`` if no entity has that name now, else None."""
        if self.db.read("MATCH (e:Entity {name: $n}) RETURN e.id", {"n": name}):
            return None
        return last_deletion(self.db, name)
