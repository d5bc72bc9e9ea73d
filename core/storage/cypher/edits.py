"""Editing one entity on a Cypher server: rename, type, one observation, ending a relation, and
the editor's reads. The same change_log rows as SQLite's edits (``core.storage.sqlite.edits``), so
history and time travel read them alike."""

from __future__ import annotations

from typing import Any

from core.errors import Conflict, NotFound
from core.storage.cypher import rows as R
from core.storage.cypher.history import CHANGE, change_dicts


def _short(text: str, at_most: int = 60) -> str:
    return text if len(text) <= at_most else text[: at_most - 1] + "…"


def _describe(src: str, dst: str, rtype: str) -> str:
    return f"{src!r} -{rtype}-> {dst!r}"


class EditsMixin:
    """The single edits of ``CypherGraphStore`` (it provides ``_write``, ``_put``, ``_log`` …)."""

    db: Any

    def _entity_row(self, tx: Any, name: str) -> dict[str, Any]:
        row = self._rows_by_name(tx, [name]).get(name)  # type: ignore[attr-defined]
        if row is None:
            raise NotFound(f"Entity {name!r} does not exist. Nothing was changed.")
        return row

    def rename_entity(self, old: str, new: str, actor: str) -> bool:
        """Rename ``old`` to ``new``; relations, observations and history stay with it."""
        now = self.now()  # type: ignore[attr-defined]

        def write(tx: Any) -> bool:
            row = self._entity_row(tx, old)
            if old == new:
                return False
            if tx.read("MATCH (e:Entity {name: $n}) RETURN e.id", {"n": new}):
                raise Conflict(f"An entity called {new!r} already exists; choose another name. Nothing was changed.")
            row.update(name=new, updated_at=now)
            self._put(tx, [row])  # type: ignore[attr-defined]
            neighbours = [r[0] for r in tx.read("MATCH (e:Entity {id: $i})-[:REL]-(o:Entity) RETURN DISTINCT o.id",
                                                {"i": row["id"]})]
            self._stale(tx, neighbours)  # type: ignore[attr-defined]  # their texts name it
            self._log(tx, [(now, actor, "rename_entity", new, R.dumps({"name": old}),  # type: ignore[attr-defined]
                            R.dumps({"name": new}))])
            return True

        return self._write(write)  # type: ignore[attr-defined]

    def set_entity_type(self, name: str, entity_type: str, actor: str) -> bool:
        """Change the entity's type (Engrama's label)."""
        now = self.now()  # type: ignore[attr-defined]

        def write(tx: Any) -> bool:
            row = self._entity_row(tx, name)
            old = row["type"]
            if old == entity_type:
                return False
            row.update(type=entity_type, updated_at=now)
            self._put(tx, [row])  # type: ignore[attr-defined]
            self._log(tx, [(now, actor, "set_entity_type", name,  # type: ignore[attr-defined]
                            R.dumps({"entityType": old}), R.dumps({"entityType": entity_type}))])
            return True

        return self._write(write)  # type: ignore[attr-defined]

    def replace_observation(self, name: str, old: str, new: str, actor: str) -> bool:
        """Edit one observation in place (it keeps its place in the list and its created_at)."""
        now = self.now()  # type: ignore[attr-defined]

        def write(tx: Any) -> bool:
            row = self._entity_row(tx, name)
            if old not in row["obs"]:
                raise NotFound(f"Entity {name!r} has no observation {_short(old)!r}. Nothing was changed.")
            if old == new:
                return False
            if new in row["obs"]:
                raise Conflict(f"Entity {name!r} already has the observation {_short(new)!r}; delete the "
                               "duplicate instead. Nothing was changed.")
            k = row["obs"].index(old)
            row["obs"] = [*row["obs"][:k], new, *row["obs"][k + 1:]]
            row["updated_at"] = now
            self._put(tx, [row])  # type: ignore[attr-defined]
            self._log(tx, [(now, actor, "replace_observation", name,  # type: ignore[attr-defined]
                            R.dumps({"observation": old, "created_at": row["obs_at"][k]}),
                            R.dumps({"observation": new}))])
            return True

        return self._write(write)  # type: ignore[attr-defined]

    def end_relation(self, from_name: str, to_name: str, rel_type: str, ended_at: str | None, actor: str) -> bool:
        """End a current relation at ``ended_at`` (default now); it stays, no longer current."""
        now = self.now()  # type: ignore[attr-defined]
        return self.set_relation_end(from_name, to_name, rel_type, ended_at or now, actor, now)

    def set_relation_end(self, src: str, dst: str, rtype: str, ended_at: str | None, actor: str, now: str) -> bool:
        """End a current relation (op end_relation), or make an ended one current (``ended_at=None``)."""
        def write(tx: Any) -> bool:
            found = tx.read("MATCH (a:Entity {name: $a})-[r:REL]->(b:Entity {name: $b}) WHERE r.type = $t "
                            "RETURN r.id, a.id, b.id, r.created_at, r.ended_at", {"a": src, "b": dst, "t": rtype})
            if not found:
                raise NotFound(f"There is no relation {_describe(src, dst, rtype)}. Nothing was changed.")
            rid, from_id, to_id, created, old_end = found[0]
            if ended_at is not None and old_end is not None:
                raise Conflict(f"The relation {_describe(src, dst, rtype)} already ended on {old_end}. "
                               "Nothing was changed.")
            if ended_at is None and old_end is None:
                return False
            tx.write("MATCH (:Entity {id: $a})-[r:REL]->() WHERE r.id = $i SET r.ended_at = $e",
                     {"a": from_id, "i": rid, "e": ended_at})
            self._stale(tx, [from_id, to_id])  # type: ignore[attr-defined]
            snap = {"from": src, "to": dst, "relationType": rtype, "created_at": created}
            self._log(tx, [(now, actor, "end_relation" if ended_at is not None else "reopen_relation",  # type: ignore[attr-defined]
                            src, R.dumps({**snap, "ended_at": old_end}), R.dumps({**snap, "ended_at": ended_at}))])
            return True

        return self._write(write)  # type: ignore[attr-defined]

    # -- reads for the editor --------------------------------------------------------------------

    def entity_for_edit(self, name: str) -> dict[str, Any]:
        """The entity, every relation touching it (ended ones too), and the change_log id it was read at."""
        version = self.latest_change_id()  # type: ignore[attr-defined]  # first: a later write shows as a conflict
        row = self._rows_by_name(self.db, [name]).get(name)  # type: ignore[attr-defined]
        if row is None:
            raise NotFound(f"Entity {name!r} does not exist.")
        snaps = self._relation_snaps(self.db, [row["id"]])[row["id"]]  # type: ignore[attr-defined]
        return {"node": R.node(row), "relations": snaps, "version": version}

    def last_deletion(self, name: str) -> dict[str, Any] | None:
        """The newest delete_entity row for ``name`` if no entity has that name now, else None."""
        if self.db.read("MATCH (e:Entity {name: $n}) RETURN e.id", {"n": name}):
            return None
        found = change_dicts(self.db.read(f"MATCH (c:Change {{entity: $n}}) WHERE c.op = 'delete_entity' "
                                          f"RETURN {CHANGE} ORDER BY c.id DESC LIMIT 1", {"n": name}))
        return found[0] if found else None



