"""The official memory server's writes, once for every backend: ``create_entities``,
``add_observations``, ``create_relations`` and the three deletes; and Engrama's ``merge_node`` and
``archive_node``. The rules are here: a batch read
by name (``core.graph_rules``), a placeholder filled in by a create counting as created, an
observation or a relation added only once, unknown names ignored by a delete, the change_log row
each change records and what each call returns. A backend supplies ``Writes``: the reads and bare
writes of one write transaction, by entity name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from core.graph_rules import (
    PLACEHOLDER_KEY,
    PLACEHOLDER_TYPE,
    by_name,
    contents_by_name,
    merge_patch,
    missing_ends,
    unique_relations,
)
from core.model import (
    AddedObservations,
    Entity,
    EntityInput,
    Node,
    ObservationDeletion,
    ObservationInput,
    Relation,
)

# -- the change_log rows of a relation created, a relation or an entity deleted ----------------
# Written once: the official writes below and each backend's edit session log through these.

Log = Callable[..., None]  # ``log(op, entity, before=None, after=None)``: one change_log row


def relation_snapshot(src: str, dst: str, rtype: str, props: dict[str, Any], created_at: str | None,
                      ended_at: str | None) -> dict[str, Any]:
    """What change_log keeps of a deleted relation (and a restore brings back)."""
    return {"from": src, "to": dst, "relationType": rtype, "props": props, "created_at": created_at,
            "ended_at": ended_at}


def log_created_relation(log: Log, src: str, dst: str, rtype: str) -> None:
    log("create_relation", src, None, [dst, rtype])


def log_deleted_relation(log: Log, snap: dict[str, Any]) -> None:
    log("delete_relation", snap["from"], snap)


def log_deleted_entity(log: Log, name: str, snap: dict[str, Any]) -> None:
    log("delete_entity", name, snap)


class Writes(Protocol):
    """One write transaction of a backend. Its reads answer as this write left the graph; its
    writes may wait for ``finish`` (a backend may send them in one batch). Names given to the
    entity writes are of entities that exist (``existing`` said so, or this write made them)."""

    def existing(self, names: Sequence[str]) -> set[str]:
        """Those of ``names`` that are entities now (read in one go)."""
        ...

    def placeholders(self, names: Sequence[str]) -> dict[str, tuple[str, dict[str, Any]]]:
        """Of the existing ``names``, the placeholders (``PLACEHOLDER_KEY`` set): name → (type, props)."""
        ...

    def observations(self, name: str) -> list[str]: ...
    def held(self, name: str, contents: Sequence[str]) -> set[str]:
        """Those of ``contents`` the entity has already."""
        ...

    def create(self, name: str, entity_type: str, props: dict[str, Any], observations: list[str]) -> None: ...
    def fill(self, name: str, entity_type: str) -> None:
        """The placeholder takes ``entity_type`` and loses its mark."""
        ...

    def add_observations(self, name: str, contents: list[str]) -> None: ...
    def delete_observations(self, name: str, contents: list[str]) -> list[list[str]]:
        """Take ``contents`` off the entity; returns those that went as [content, created_at]."""
        ...

    def read_relations(self, relations: Sequence[Relation]) -> None:
        """A hint: ``add_relation`` is asked about these next (a server reads them in one go)."""
        ...

    def add_relation(self, relation: Relation) -> bool:
        """Relate the two existing ends unless they are already; True if it was created."""
        ...

    def delete_relations(self, relations: Sequence[Relation]) -> list[dict[str, Any]]:
        """Delete those of ``relations`` that exist; returns what change_log keeps of each that went
        (``{"from", "to", "relationType", "props", "created_at", "ended_at"}``)."""
        ...

    def delete_entities(self, names: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        """Delete those of ``names`` that exist, with their observations, relations and vectors;
        returns (name, what change_log keeps of it) for each."""
        ...

    def state(self, name: str) -> tuple[str, dict[str, Any], bool]:
        """The existing entity's type, props and whether it is archived."""
        ...

    def set_state(self, name: str, entity_type: str, props: dict[str, Any], *, retyped: bool) -> None:
        """The entity takes ``entity_type`` and ``props`` (``retyped``: its facts are embedded again,
        as they are embedded after its type)."""
        ...

    def archive(self, name: str) -> None:
        """Mark the entity archived now (its text and vectors stay as they are)."""
        ...

    def node(self, name: str) -> Node:
        """The existing entity as this write left it (asked after ``finish``)."""
        ...

    def log(self, op: str, entity: str | None, before: Any = None, after: Any = None) -> None: ...
    def finish(self) -> None:
        """Send what waits (the change_log rows last)."""
        ...


def create_entities(w: Writes, entities: Sequence[EntityInput]) -> tuple[list[Entity], list[AddedObservations]]:
    """Create new entities; merge observations into existing ones. Returns (created, merged); a
    placeholder takes the created type and counts as created."""
    batch = by_name(entities)
    found = w.existing(list(batch))
    existing = [n for n in batch if n in found]
    filled = w.placeholders(existing)
    held = {name: w.observations(name) for name in filled}
    for name, (old_type, old_props) in filled.items():
        w.fill(name, batch[name][0])
        w.log("update_entity", name, {"entityType": old_type, "props": old_props},
              {"entityType": batch[name][0], "props": {}})
    created = []
    for name, (etype, obs) in batch.items():
        if name not in existing:
            unique_obs = list(dict.fromkeys(obs))
            w.create(name, etype, {}, unique_obs)
            w.log("create_entity", name)  # no payload: the rows carry their own created_at and contents
            created.append(Entity(name=name, entityType=etype, observations=unique_obs))
    merged = {m.entityName: m for m in _add(w, {n: batch[n][1] for n in existing})}
    w.finish()
    return ([Entity(name=n, entityType=batch[n][0], observations=[*held[n], *merged[n].addedObservations])
             for n in filled] + created, [m for n, m in merged.items() if n not in filled])


def add_observations(w: Writes, items: Sequence[ObservationInput]) -> list[AddedObservations]:
    """Add observations to existing entities; unknown entity → NotFound, nothing changed."""
    found = _add(w, contents_by_name(items, w.existing([i.entityName for i in items])))
    w.finish()
    return found


def _add(w: Writes, contents: dict[str, list[str]]) -> list[AddedObservations]:
    """Give each entity those of its ``contents`` it has not (one change_log row each)."""
    results = []
    for name, obs in contents.items():
        unique = list(dict.fromkeys(obs))
        known = w.held(name, unique)
        added = [o for o in unique if o not in known]
        if added:
            w.add_observations(name, added)
            w.log("add_observations", name, None, added)
        results.append(AddedObservations(entityName=name, addedObservations=added))
    return results


def delete_entities(w: Writes, names: Sequence[str]) -> int:
    """Delete entities with their observations, relations and vectors; unknown names are ignored
    (as the official server does). Returns how many were deleted."""
    gone = w.delete_entities(names)
    for name, snap in gone:
        log_deleted_entity(w.log, name, snap)
    w.finish()
    return len(gone)


def delete_observations(w: Writes, items: Sequence[ObservationDeletion]) -> int:
    """Remove the given observations; unknown entities or texts are ignored. Returns the count."""
    known = w.existing([i.entityName for i in items])
    removed = 0
    for item in items:
        if item.entityName in known and item.observations:
            gone = w.delete_observations(item.entityName, list(dict.fromkeys(item.observations)))
            if gone:
                removed += len(gone)
                w.log("delete_observations", item.entityName, {"observations": gone})
    w.finish()
    return removed


def create_relations(w: Writes, relations: Sequence[Relation], *, placeholders: bool = True) -> list[Relation]:
    """Create relations; returns only the new ones. An end that does not exist yet becomes a
    placeholder entity (type ``Unknown``) that a later create_entities fills in, as the official
    server keeps relations whose ends are missing; ``placeholders=False`` refuses it (NotFound)."""
    known = w.existing([n for r in relations for n in (r.from_, r.to)])
    stub = {PLACEHOLDER_KEY: True}
    for name in missing_ends(relations, known, placeholders=placeholders):
        w.create(name, PLACEHOLDER_TYPE, stub, [])
        w.log("create_entity", name, None, {"entityType": PLACEHOLDER_TYPE, "props": stub})
    unique = unique_relations(relations)
    w.read_relations(unique)
    created = []
    for r in unique:
        if w.add_relation(r):
            created.append(r)
            log_created_relation(w.log, r.from_, r.to, r.relationType)
    w.finish()
    return created


def delete_relations(w: Writes, relations: Sequence[Relation]) -> int:
    """Delete the given relations; ones that do not exist are ignored. Returns the count."""
    gone = w.delete_relations(unique_relations(relations))
    for snap in gone:
        log_deleted_relation(w.log, snap)
    w.finish()
    return len(gone)


def merge_node(w: Writes, label: str, name: str, props: dict[str, Any]) -> Node:
    """Create the node or merge ``props`` into it (JSON merge patch: ``None`` removes a key).
    ``created_at`` is kept; ``updated_at`` moves, and a change_log row is written, only when the
    type or the props changed."""
    if not w.existing([name]):
        w.create(name, label, merge_patch({}, props), [])
        w.log("create_entity", name, None, {"entityType": label, "props": props})
    else:
        old_type, old_props, _ = w.state(name)
        new_props = merge_patch(old_props, props)
        if new_props != old_props or old_type != label:
            w.set_state(name, label, new_props, retyped=old_type != label)
            w.log("update_entity", name, {"entityType": old_type, "props": old_props},
                  {"entityType": label, "props": new_props})
    w.finish()
    return w.node(name)


def archive_node(w: Writes, name: str) -> bool:
    """Mark the node archived (kept and readable, left out of searches); idempotent (an archived
    node is left as it is, with no change_log row). False if there is no such node."""
    if not w.existing([name]):
        return False
    if not w.state(name)[2]:
        w.archive(name)
        w.log("archive_entity", name)
    w.finish()
    return True
